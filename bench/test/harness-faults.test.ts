// The faults suite (issue 20): its pieces (the blackout trace, the playhead analysis, telemetry file names, the
// report) and, in short form, its browser cases end to end: `blackout`, `origin-restart` and `origin-drain` with
// vivace in real Chromium behind linkem, then resume.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { opportunitiesBetween, parseTrace, rateTraceWithOutages } from '../linkem/src/driver/index.ts';
import { sessionStartWallMs, secondsUntilRate } from '../harness/faults/controller-timeline.ts';
import { faultAtS, faultLengthS } from '../harness/faults/fault-case.ts';
import { continuity, frozenS, resumeDelayS } from '../harness/faults/playback-timeline.ts';
import type { PlayerProbe } from '../harness/faults/player-pages.ts';
import { faultsMarkdown } from '../harness/faults/report.ts';
import { runFault } from '../harness/faults/run-fault.ts';
import { repoRoot } from '../harness/repo-root.ts';
import { writeReport } from '../harness/report.ts';
import { readResults, type RunResult } from '../harness/results.ts';
import { plan, runPlan } from '../harness/runner.ts';
import { suiteScenarios } from '../harness/suites.ts';

const mediaDir = join(repoRoot, '.cache', 'media');
const playerDir = join(repoRoot, 'player', 'dist');

/** The controller's rate over a run, one entry per 0.5 s of session time ("s:Mbit/s"), read from the run's
 * telemetry: what a missed recovery looked like, in the assertion's message. */
function rateTimeline(outDir: string, run: RunResult | undefined): string {
  const dir = run?.artifacts.telemetry === undefined ? '' : join(outDir, run.artifacts.telemetry);
  if (dir === '' || !existsSync(dir)) return 'no telemetry';
  const points = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
    .filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { t_us: number; rate_bps: number });
  const shown: string[] = [];
  let nextS = -Infinity;
  for (const p of points) {
    if (p.t_us / 1e6 < nextS) continue;
    shown.push(`${(p.t_us / 1e6).toFixed(1)}:${(p.rate_bps / 1e6).toFixed(1)}`);
    nextS = p.t_us / 1e6 + 0.5;
  }
  return shown.join(' ');
}

/** A run whose controller missed the recovery: its directory (the session's pcc-replay recording under record/, its
 * telemetry, the player's timeline, the logs) copied out of the test's results, which are removed, so that the
 * failure can be replayed (controller-wasm README, "Recording and replaying a session"). Returns where. */
function keepRun(outDir: string, run: RunResult | undefined): string {
  const telemetry = run?.artifacts.telemetry;
  if (telemetry === undefined) return 'no run directory';
  const kept = mkdtempSync(join(tmpdir(), 'pcc-faults-missed-recovery-'));
  cpSync(join(outDir, telemetry, '..'), kept, { recursive: true });
  return kept;
}

test('blackout trace: the constant rate everywhere except the outage window, where there is no opportunity at all', () => {
  const times = parseTrace(rateTraceWithOutages(10, 10_000, [{ fromMs: 2000, toMs: 3000 }]));
  assert.equal(opportunitiesBetween(times, 2000, 3000), 0);
  const perSecond = (10e6) / (1504 * 8);
  for (const [from, to] of [[0, 2000], [3000, 5000], [5000, 10_000]] as const) {
    const got = opportunitiesBetween(times, from, to);
    assert.ok(Math.abs(got - (perSecond * (to - from)) / 1000) <= 2, `[${from}, ${to}): ${got} opportunities`);
  }
  assert.equal(times.at(-1), 10_000, 'the trace is exactly as long as asked (its loop period)');
  assert.throws(() => rateTraceWithOutages(0, 1000), /positive rate/);
});

test('fault timing: t = 20 s in full runs, 40 % of a short one', () => {
  assert.equal(faultAtS(45), 20);
  assert.equal(faultAtS(20), 8);
  assert.equal(faultLengthS(5, 45), 5);
  assert.equal(faultLengthS(5, 20), 2.5);
});

function probe(linkS: number, positionS: number, playingS: number, state = 'playing', totalStallS = 0): PlayerProbe {
  return { linkS, state, totalStallS, playingS, positionS, bufferS: 5, sendRateBps: null, bytesReceived: 0, transportSessions: 1, errors: [] };
}

test('playhead analysis: a freeze the page did not report, a skip, a repeat', () => {
  // Plays 10-12 s, frozen 12-14 s while the page still says "playing" (and counts playing time), plays again.
  const frozen = [probe(10, 5, 5), probe(11, 6, 6), probe(12, 7, 7), probe(13, 7, 8), probe(14, 7, 9), probe(15, 8, 10)];
  assert.equal(frozenS(frozen, 10, 15), 2);
  assert.equal(resumeDelayS(frozen, 12.5), 1.5);
  assert.deepEqual(continuity(frozen, 10), { positionAdvanceS: 3, playingS: 5, skippedS: 0, repeatedS: 2, maxBackStepS: 0 });
  const skip = [probe(10, 5, 5), probe(11, 8, 6)];
  assert.equal(continuity(skip, 10).skippedS, 2);
  const back = [probe(10, 5, 5), probe(11, 4, 6)];
  assert.equal(continuity(back, 10).maxBackStepS, 1);
  assert.equal(continuity(back, 10).repeatedS, 2);
});

test('controller timeline: session start from the telemetry file name, time to a rate', () => {
  assert.equal(sessionStartWallMs('2026-11-25T20-40-12-345Z-session-3-vivace.jsonl'), Date.parse('2026-11-25T20:40:12.345Z'));
  assert.equal(sessionStartWallMs('notes.txt'), null);
  const points = [{ linkS: 24, session: 1, rateBps: 9e6 }, { linkS: 24.5, session: 1, rateBps: 2e6 }, { linkS: 25.5, session: 1, rateBps: 2e6 }, { linkS: 27, session: 1, rateBps: 8.5e6 }];
  assert.equal(secondsUntilRate(points, 25, 8e6), 2);
  assert.equal(secondsUntilRate(points, 28, 8e6), null);
  // The rate in force when the link returned counts: set at 24.9 s and kept, it is a recovery at 0 s.
  assert.equal(secondsUntilRate([{ linkS: 24.9, session: 1, rateBps: 8.6e6 }, { linkS: 25.2, session: 1, rateBps: 8.6e6 }], 25, 8e6), 0);
  assert.equal(secondsUntilRate([{ linkS: 24.9, session: 1, rateBps: 4e6 }, { linkS: 25.2, session: 1, rateBps: 8.6e6 }], 25, 8e6)?.toFixed(1), '0.2');
});

test('a fault run that throws is a failed run with its reason (retried on resume), and the report lists it', async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'pcc-bench-faults-unit-'));
  try {
    const [scenario] = suiteScenarios('faults');
    assert.ok(scenario);
    const result = await runFault(
      { scenario: { ...scenario, fault: 'no-such-case' }, scheme: 'vivace', repetition: 1, runDir: outDir, outDir, mediaDir, playerDir, record: false },
      { run_id: 'x/vivace/1', scenario: 'x', scheme: 'vivace', repetition: 1, seed: 1, started_at: new Date().toISOString(), duration_s: 1 },
    );
    assert.equal(result.status, 'failed');
    assert.match(result.error ?? '', /unknown fault case "no-such-case"/);
    const md = faultsMarkdown([{ ...result, resolved_scenario: { ...scenario, fault: 'no-such-case' } }]);
    assert.match(md, /\| vivace\/1 \| run failed \|/);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});

test('faults suite, short form: blackout, origin-restart and origin-drain with vivace in Chromium behind linkem, then resume', { timeout: 600_000 }, async () => {
  assert.ok(existsSync(join(playerDir, 'index.html')), 'player not built');
  const outDir = mkdtempSync(join(tmpdir(), 'pcc-bench-faults-'));
  try {
    const scenarios = suiteScenarios('faults').filter((s) => s.fault === 'blackout' || s.fault === 'origin-restart' || s.fault === 'origin-drain')
      .map((s) => ({ ...s, durationS: 24, repetitions: 1, schemes: ['vivace' as const] }));
    const items = plan(scenarios);
    assert.deepEqual(items.map((i) => i.scenario.fault), ['blackout', 'origin-restart', 'origin-drain']);
    // recorded: a missed recovery is kept for replay (keepRun)
    const performed = await runPlan(items, { outDir, mediaDir, playerDir, record: true, shouldStop: () => false });
    const byCase = new Map<string, RunResult>(performed.map((r) => [r.fault?.case ?? r.scenario, r]));
    const passed = (run: RunResult | undefined, name: string) => {
      const c = run?.fault?.checks.find((k) => k.name.startsWith(name));
      assert.ok(c, `${run?.run_id}: no check "${name}" (${run?.error ?? ''})`);
      assert.ok(c.pass, `${run?.run_id}: ${c.name}: target ${c.target}, measured ${c.measured}`);
    };
    const blackout = byCase.get('blackout');
    assert.equal(blackout?.status, 'ok', blackout?.error);
    passed(blackout, 'playing when the blackout began');
    passed(blackout, 'session survived');
    passed(blackout, 'playback resumed without a reload');
    assert.equal(blackout?.fault?.figures.transport_sessions, 1);
    if (typeof blackout?.fault?.figures.rate_recovery_s !== 'number') {
      assert.fail(`the controller got back to 80 % of the link before the run ended; its rate over the session (s:Mbit/s, blackout at link ${blackout?.fault?.figures.blackout_from_link_s}-${blackout?.fault?.figures.blackout_to_link_s} s): ${rateTimeline(outDir, blackout)}; the run, with the session's recording under record/, is kept in ${keepRun(outDir, blackout)}`);
    }
    const restart = byCase.get('origin-restart');
    assert.equal(restart?.status, 'ok', restart?.error);
    passed(restart, 'same certificate after the restart');
    passed(restart, 'player reconnected on its own');
    passed(restart, 'nothing played twice or skipped');
    assert.ok(Number(restart?.fault?.figures.transport_sessions) >= 2);
    // Graceful stop: the origin drains and exits 0 by itself, and the player takes the close like a restart.
    const drain = byCase.get('origin-drain');
    assert.equal(drain?.status, 'ok', drain?.error);
    passed(drain, 'drained and exited by itself');
    passed(drain, 'player reconnected on its own');
    passed(drain, 'nothing played twice or skipped');
    for (const run of performed) assert.ok(existsSync(join(outDir, run.artifacts.timeline ?? 'missing')), `${run.run_id}: no timeline`);
    // A torn line (a crash mid-write) leaves the rest readable, and the finished plan runs nothing again.
    appendFileSync(join(outDir, 'results.jsonl'), '{"run_id": "blackout/viv');
    assert.equal(readResults(join(outDir, 'results.jsonl')).length, 3);
    assert.equal((await runPlan(items, { outDir, mediaDir, playerDir, shouldStop: () => false })).length, 0);
    writeReport(outDir);
    const md = readFileSync(join(outDir, 'summary.md'), 'utf8');
    assert.match(md, /### faults: blackout/);
    assert.match(md, /### faults: origin-restart/);
    assert.match(md, /rate_recovery_s/);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});
