// The fidelity suite's short form (issue 17 item 1): one bulk run through linkem beside the simulator on the same
// link, seed and controller; the report's table, the per-second overlays, the CPU samples and the recording exist
// and hold sane values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FidelitySecond } from '../harness/fidelity.ts';
import { writeReport } from '../harness/report.ts';
import { plan, runPlan } from '../harness/runner.ts';
import { parseScenario } from '../harness/scenario.ts';
import { suiteScenarios } from '../harness/suites.ts';

const DURATION_S = 6;
const RATE_MBPS = 20;

test('fidelity suite: Fig 4.3 loss sweep, 1 MB buffer, LTE, changing RTT and a Chromium run, 3 repetitions', () => {
  const scenarios = suiteScenarios('fidelity');
  const names = scenarios.map((s) => s.name);
  for (const name of ['fidelity-loss-0pct', 'fidelity-loss-1pct', 'fidelity-loss-3pct', 'fidelity-buffer-1mb', 'fidelity-lte-tmobile-short', 'fidelity-changing-rtt', 'fidelity-chromium-6mbps']) {
    assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
  }
  assert.ok(scenarios.every((s) => s.repetitions >= 3));
  assert.equal(scenarios.filter((s) => s.mode === 'browser').length, 1);
});

test('fidelity run: real path and simulator per second, aligned, with CPU per process and the differences table', { timeout: 180_000 }, async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'pcc-bench-fidelity-'));
  const mediaDir = mkdtempSync(join(tmpdir(), 'pcc-bench-fidelity-media-'));
  try {
    const scenario = parseScenario({
      name: 'fidelity-test', mode: 'bulk', duration_s: DURATION_S, repetitions: 1,
      link: { down: { rate_mbps: RATE_MBPS }, up: { rate_mbps: RATE_MBPS }, queue: { type: 'droptail', bytes: 75_000 } },
      delay: { one_way_ms: 15 }, schemes: ['vivace'],
    }, '/');
    const [run] = await runPlan(plan([scenario]), { outDir, mediaDir, playerDir: '', shouldStop: () => false, fidelity: true });
    assert.equal(run?.status, 'ok', run?.error);
    const f = run!.fidelity!;
    assert.ok(f, 'the run carries its fidelity record');
    for (const [name, v, hi] of [['real throughput', f.real_throughput_mbps, RATE_MBPS * 1.05], ['sim throughput', f.sim_throughput_mbps, RATE_MBPS * 1.05]] as const) {
      assert.ok(v > 1 && v <= hi, `${name} ${v} Mbit/s`);
    }
    assert.ok(f.real_goodput_mbps !== null && f.real_goodput_mbps > 1 && f.real_goodput_mbps < f.real_throughput_mbps, `goodput ${f.real_goodput_mbps} below IP throughput ${f.real_throughput_mbps}`);
    assert.ok(f.real_queue_p95_ms >= 0 && f.real_queue_p95_ms <= 75_000 * 8 / (RATE_MBPS * 1e3) + 2, `real p95 queueing ${f.real_queue_p95_ms} ms`);
    assert.ok(f.sim_queue_p95_ms >= 0 && f.sim_queue_p95_ms < 40, `sim p95 queueing ${f.sim_queue_p95_ms} ms`);
    assert.ok(f.real_wire_per_delivered! > 1 && f.real_wire_per_delivered! < 1.3, `wire per delivered ${f.real_wire_per_delivered}`);
    assert.ok((f.cpu_mean_percent.origin ?? 0) > 1 && (f.cpu_mean_percent.client ?? 0) > 1 && (f.cpu_mean_percent.linkem ?? 0) > 0,
      `CPU seen for origin, client and linkem: ${JSON.stringify(f.cpu_mean_percent)}`);
    // Run-queue wait (descheduling) is measured per class: a share of the run, never more than all of it per thread.
    for (const name of ['origin', 'client', 'linkem']) {
      const wait = f.cpu_wait_mean_percent?.[name];
      assert.ok(wait !== undefined && wait >= 0 && Number.isFinite(wait), `${name} run-queue wait ${wait}`);
    }

    const runDir = join(outDir, 'runs', 'fidelity-test', 'vivace', '1');
    const data = JSON.parse(readFileSync(join(runDir, 'fidelity.json'), 'utf8')) as { real: FidelitySecond[]; sim: FidelitySecond[] };
    // Both series cover the run second by second from the session's start, so they overlay second for second.
    assert.equal(data.sim.length, DURATION_S);
    assert.ok(data.real.length >= DURATION_S - 1 && data.real.length <= DURATION_S, `${data.real.length} real seconds`);
    data.real.forEach((s, i) => assert.equal(s.t_s, i));
    data.sim.forEach((s, i) => assert.equal(s.t_s, i));
    const late = data.real.slice(2);
    assert.ok(late.every((s) => (s.delivery_mbps ?? 0) > 0.5 && (s.delivery_mbps ?? 0) <= RATE_MBPS * 1.05), 'the link delivered every second');
    assert.ok(late.every((s) => (s.rtt_ms ?? 0) >= 29 && (s.rtt_ms ?? 0) < 200), `recorded RTTs: ${late.map((s) => s.rtt_ms).join(', ')}`);
    assert.ok(data.real.filter((s) => s.cpu).length >= DURATION_S - 2, 'CPU sampled each second');
    assert.ok(data.sim.every((s) => (s.rtt_ms ?? 0) >= 29.9), 'sim RTT at or above the base 30 ms');
    assert.ok(readdirSync(join(runDir, 'record')).some((n) => n.endsWith('.replay')), 'the session was recorded');

    const report = writeReport(outDir);
    const summary = readFileSync(join(outDir, 'summary.md'), 'utf8');
    assert.match(summary, /### Fidelity: real path vs simulator/);
    assert.match(summary, /\| fidelity-test \| vivace \| 1 \| \d+\.\d \| \d+\.\d \| [+-]\d+\.\d \|/);
    assert.match(summary, /waiting for a core origin \/ client \/ linkem %/);
    for (const kind of ['rates', 'delay', 'cpu']) {
      assert.ok(report.plots.includes(`fidelity-fidelity-test-vivace-${kind}`), `${kind} plot in ${report.plots.join(', ')}`);
      assert.ok(existsSync(join(outDir, 'plots', `fidelity-fidelity-test-vivace-${kind}.png`)));
    }
    assert.match(readFileSync(join(outDir, 'report.html'), 'utf8'), /Fidelity: real path vs simulator/);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
    rmSync(mediaDir, { recursive: true, force: true });
  }
});
