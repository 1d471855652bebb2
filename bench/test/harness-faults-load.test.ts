// Short forms of the faults suite's load cases (issue 20): the hostile client, session churn and the handshake flood
// against a real origin on loopback, and the soak for half a minute behind linkem. The full cases run in the bench
// (npm run -s bench -- --suite faults --run garbage/vivace/1 ...; --suite soak --minutes 30).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startOriginProcess, type OriginProcess } from '@pcc-stream/server/process';
import { MAX_CHURN_SESSIONS, runChurn } from '../harness/faults/churn-client.ts';
import { churnPlan, warmupWave } from '../harness/faults/churn.ts';
import { runFlood } from '../harness/faults/flood-client.ts';
import { someSegmentPath } from '../harness/faults/media-path.ts';
import { ATTACKS, runHostileClient } from '../harness/faults/hostile-client.ts';
import { assertLocalTarget, loopbackSource } from '../harness/faults/local-target.ts';
import { ensureBulkObject } from '../harness/run-bulk.ts';
import { runSoak, soakFigures, type SoakSample } from '../harness/soak/soak.ts';
import { soakPlan } from '../harness/soak/soak-plan.ts';
let tmp: string;
let mediaRoot: string;

before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'pcc-faults-load-'));
  // A segment-sized file is all the generators fetch (the hostile client's optimistic ACKs, churn's abandoned
  // transfers); the soak reads the sparse bulk object.
  mediaRoot = join(tmp, 'media');
  mkdirSync(join(mediaRoot, 'set'), { recursive: true });
  writeFileSync(join(mediaRoot, 'set', 'seg-0-00001.m4s'), randomBytes(3_000_000));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

async function origin(args: string[] = []): Promise<OriginProcess> {
  return startOriginProcess({ mediaDir: mediaRoot, webTransportPort: 0, httpPort: 0, httpsPort: 0, extraArgs: ['--log-level', 'warn', ...args] });
}

test('generators send only to this host; 127.x sources are distinct and valid', () => {
  assert.doesNotThrow(() => assertLocalTarget('127.0.0.1'));
  assert.doesNotThrow(() => assertLocalTarget('127.45.3.9'));
  assert.throws(() => assertLocalTarget('8.8.8.8'), /neither loopback nor an address of this host/);
  assert.throws(() => assertLocalTarget('example.com'), /not an IP address/);
  const sources = new Set(Array.from({ length: 10_000 }, (_, i) => loopbackSource(i)));
  assert.equal(sources.size, 10_000);
  for (const s of sources) assert.match(s, /^127\.\d+\.\d+\.([1-9]\d?|1\d\d|2[0-4]\d|25[0-4])$/);
  assert.deepEqual(churnPlan(45), { sessions: 10_000, waves: 20 });
  assert.ok(churnPlan(10).sessions >= 200 && churnPlan(10).waves >= 4);
  assert.deepEqual(churnPlan(180), { sessions: 40_000, waves: 80 }, 'a longer run churns more waves of the same size');
  assert.ok(churnPlan(100_000).sessions <= MAX_CHURN_SESSIONS);
  assert.equal(warmupWave(Array(20).fill(500)), 8, 'RSS is judged from the wave that ends the first 4,000 sessions');
  assert.equal(warmupWave([50, 50, 50, 50]), 3, 'a short run has no warm-up: the wave before the last');
});

test('hostile client: every attack is closed by the origin with a reason, the origin survives', { timeout: 120_000 }, async () => {
  const o = await origin();
  try {
    const summary = await runHostileClient({
      host: '127.0.0.1', port: o.webTransportPort, certSha256Hex: o.certHashHex, ratePerS: 5000, durationS: 6, sessions: ATTACKS.length,
      fetchPath: someSegmentPath(mediaRoot),
    });
    const kinds = ATTACKS.filter((a) => Object.keys(summary.closed_by_origin).some((k) => k.startsWith(`${a} `)));
    assert.deepEqual(kinds, [...ATTACKS], `closed: ${JSON.stringify(summary.closed_by_origin)}; not closed: ${JSON.stringify(summary.not_closed)}`);
    assert.deepEqual(summary.not_closed, {}, 'no attack was tolerated');
    for (const [attack, reason] of Object.entries(summary.reasons)) assert.match(reason, /^\d+: .{5,}/, `${attack}: ${reason}`);
    assert.ok(summary.datagrams_per_s > 4000, `${summary.datagrams_per_s} datagrams/s`);
    assert.equal(o.exitCode(), null, 'the origin is running');
    const status = (await (await fetch(`${o.httpBase}/status`)).json()) as { sessions_closed_for_violation_by_code: Record<string, number> };
    assert.ok(Object.values(status.sessions_closed_for_violation_by_code).reduce((s, n) => s + n, 0) >= ATTACKS.length);
  } finally {
    await o.stop();
  }
});

test('churn: sessions abandoned mid-segment leave no session, send-loop entry or timer behind', { timeout: 180_000 }, async () => {
  const o = await origin(['--max-sessions', '1000']);
  try {
    const c = await runChurn({
      host: '127.0.0.1', port: o.webTransportPort, httpBase: o.httpBase, certSha256Hex: o.certHashHex, sessions: 200, waves: 4, concurrency: 25,
      fetchPath: someSegmentPath(mediaRoot),
    });
    assert.equal(c.sessions, 200, c.first_error ?? '');
    assert.ok(c.waves.reduce((s, w) => s + w.abandoned_mid_segment, 0) >= 150, JSON.stringify(c.waves.map((w) => w.abandoned_mid_segment)));
    for (const w of c.waves) {
      assert.notEqual(w.settle_s, null, `wave ${w.wave} left sessions behind`);
      assert.equal(w.after.sessions, 0);
      assert.equal(w.after.send_loop_members, 0);
      assert.equal(w.after.live_controllers, 0, `wave ${w.wave}: every session's controller destroyed`);
      assert.equal(w.after.addresses, 0, `wave ${w.wave}: no address still counted`);
    }
    // A controller's WASM state comes back to the allocator at close: what is malloc'd after the last wave is what
    // was after the first (the fuller check of the same thing, 10k cycles, is controller-wasm's lifecycle test).
    assert.equal(c.waves.at(-1)!.after.wasm_heap_in_use_bytes, c.waves[0]!.after.wasm_heap_in_use_bytes, 'WASM heap in use');
    assert.ok(c.waves.at(-1)!.after.active_timers <= c.waves[0]!.after.active_timers, 'no timer left behind');
    // Clients that close mid-transfer are players leaving, not protocol violations (the origin's send loop used to
    // close such a session with code 1 when its send met the peer's close before quic.closed() did).
    const status = (await (await fetch(`${o.httpBase}/status`)).json()) as { sessions_closed_for_violation_by_code: Record<string, number> };
    assert.deepEqual(status.sessions_closed_for_violation_by_code, {}, 'no abandoned session counted as a violation');
    assert.ok(c.waves.at(-1)!.after.open_fds! <= c.waves[0]!.after.open_fds! + 2, 'no fd left behind');
  } finally {
    await o.stop();
  }
});

test('flood: handshakes from many 127.x addresses are completed at the asked rate', { timeout: 60_000 }, async () => {
  const o = await origin();
  try {
    const f = await runFlood({ host: '127.0.0.1', port: o.webTransportPort, certSha256Hex: o.certHashHex, ratePerS: 50, durationS: 3 });
    assert.equal(f.attempted, 150);
    assert.ok(f.completed >= 0.95 * f.attempted, `${f.completed}/${f.attempted}, first error ${f.first_error}`);
    assert.equal(f.source_addresses, 150);
    assert.ok(f.handshake_ms_p50 !== null && f.handshake_ms_p50 > 0);
  } finally {
    await o.stop();
  }
});

test('soak figures: growth after warm-up, pacing error by quarter', () => {
  const s = (t: number, rss: number, pe: number): SoakSample => ({
    t_s: t, rss_bytes: rss, heap_used_bytes: 1, open_fds: 40, active_timers: 3, sessions: 50, send_loop_members: 50,
    pacing_error_median: pe, pacing_error_max: pe, goodput_mbps: [1, 2], client_errors: 0, load_avg_1m: 1,
  });
  const samples = [s(10, 50e6, 0.5), s(60, 100e6, 0.01), s(600, 102e6, 0.01), s(1200, 103e6, 0.02), s(1800, 104e6, 0.02)];
  const f = soakFigures(samples, 30);
  assert.ok(Math.abs(f.rss_growth! - 0.04) < 1e-9, 'growth from the first quarter after warm-up (the 10 s sample is left out)');
  assert.equal(f.pacing_error_first_quarter, 0.01);
  assert.equal(f.pacing_error_last_quarter, 0.02);
  assert.equal(soakPlan().length, 50);
  assert.deepEqual([...new Set(soakPlan().map((p) => p.cc))].sort(), ['allegro', 'bbr', 'cubic', 'fixed', 'vivace']);
  for (const cc of ['vivace', 'fixed']) {
    assert.equal(new Set(soakPlan().filter((p) => p.cc === cc).map((p) => p.bitrateMbps)).size, 3, `${cc} gets every bitrate`);
  }
});

test('soak, short form: sessions behind linkem, samples every 10 s, plots and summary written', { timeout: 180_000 }, async () => {
  const out = join(tmp, 'soak');
  ensureBulkObject(mediaRoot);
  const f = await runSoak({ minutes: 0.5, outDir: out, sessions: 10, mediaDir: mediaRoot });
  assert.ok(f.samples >= 2, `${f.samples} samples`);
  const lines = readFileSync(join(out, 'soak.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SoakSample);
  assert.equal(lines.length, f.samples);
  assert.ok(lines.every((l) => l.rss_bytes > 0 && l.open_fds !== null && l.sessions === 10), JSON.stringify(lines.at(-1)));
  assert.ok(lines.at(-1)!.pacing_error_median !== null && lines.at(-1)!.pacing_error_median! < 0.1, 'fixed sessions are paced within 10 %');
  // Half of what the plan asks, averaged over the run's first seconds (connection set-up and start-up in them).
  const askedMbps = soakPlan(10).reduce((sum, p) => sum + p.bitrateMbps, 0) / 10;
  assert.ok(f.mean_goodput_mbps_per_session! > 0.5 * askedMbps, `${f.mean_goodput_mbps_per_session} of ${askedMbps} Mbit/s per session`);
  for (const plot of ['rss', 'fds', 'pacing-error', 'goodput']) assert.ok(existsSync(join(out, 'plots', `${plot}.svg`)), plot);
  assert.match(readFileSync(join(out, 'summary.md'), 'utf8'), /RSS growth after warm-up/);
});
