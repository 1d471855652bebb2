// The continuous-stream mode (issue 18 item 9) on the real path: linkem at 150 ms RTT, the origin, Chromium. Without
// it, dash.js's request between segments leaves the receiver idle for about a round trip (the plain scheme's gaps);
// with it, one response carries the segments back to back on datagrams and on kernel TCP alike. Fails if the stream
// mode has request gaps: every segment after the first must come from the one stream, with no idle time between.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../harness/repo-root.ts';
import { plan, runPlan } from '../harness/runner.ts';
import { loadScenarioFile } from '../harness/scenario.ts';

const mediaDir = join(repoRoot, '.cache', 'media');
const playerDir = join(repoRoot, 'player', 'dist');
/** The receiver's chunks arrive at most this far apart while bytes flow (the WebTransport worker hands bytes over
 *  every 25 ms), so a boundary between chunks can show this much without any idle link; a request gap is ~150 ms+. */
const STREAM_GAP_MAX_MS = 40;

test('continuous stream: no idle time between segments over datagrams and TCP, where plain requests leave a round trip', { timeout: 400_000 }, async () => {
  assert.ok(existsSync(join(playerDir, 'index.html')), 'player not built');
  const outDir = mkdtempSync(join(tmpdir(), 'pcc-bench-stream-'));
  try {
    const scenario = loadScenarioFile(join(repoRoot, 'bench', 'scenarios', 'request-gap-150ms.json'));
    const schemes = ['vivace', 'vivace+stream', 'tcp-cubic+stream'] as typeof scenario.schemes;
    const items = plan([{ ...scenario, durationS: 20, schemes }]);
    const performed = await runPlan(items, { outDir, mediaDir, playerDir, shouldStop: () => false });
    const byScheme = new Map<string, (typeof performed)[number]>(performed.map((r) => [r.scheme, r]));
    for (const run of performed) assert.equal(run.status, 'ok', `${run.run_id} failed: ${run.error ?? ''}`);
    const plain = byScheme.get('vivace')!.players[0]!;
    assert.ok((plain.segment_gap_count ?? 0) >= 2 && (plain.segment_gap_p50_ms ?? 0) > 100,
      `plain requests should show the request gap: ${plain.segment_gap_count} gaps, p50 ${plain.segment_gap_p50_ms} ms`);
    for (const scheme of ['vivace+stream', 'tcp-cubic+stream']) {
      const p = byScheme.get(scheme)!.players[0]!;
      assert.ok((p.segment_gap_count ?? 0) >= 3, `${scheme}: only ${p.segment_gap_count} segments followed one another on a stream`);
      // Arrived segments (gaps + 1) may run ahead of those dash.js has asked for yet; at least three were served.
      assert.ok((p.prefetch_hits ?? 0) >= 3, `${scheme}: ${p.prefetch_hits} segments served from the stream`);
      assert.ok((p.segment_gap_p95_ms ?? Infinity) <= STREAM_GAP_MAX_MS, `${scheme}: p95 gap ${p.segment_gap_p95_ms} ms between a stream's segments`);
      assert.ok((p.segment_gap_mean_ms ?? Infinity) <= STREAM_GAP_MAX_MS / 2, `${scheme}: mean gap ${p.segment_gap_mean_ms} ms`);
      assert.equal(p.prefetch_cancelled ?? 0, 0, `${scheme}: the stream restarted`);
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});
