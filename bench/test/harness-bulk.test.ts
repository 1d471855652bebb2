// Bulk mode (issue 6 `bulk` suite, no browser): the Node client inside the linkem namespace downloads from the
// origin on the host side for duration_s, over WASM-paced datagrams and over kernel TCP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plan, runPlan } from '../harness/runner.ts';
import { parseScenario } from '../harness/scenario.ts';

test('bulk runs: vivace datagrams and tcp-cubic download for the scenario duration through a 20 Mbit/s link', { timeout: 180_000 }, async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'pcc-bench-bulk-'));
  const mediaDir = mkdtempSync(join(tmpdir(), 'pcc-bench-bulk-media-'));
  try {
    const scenario = parseScenario({
      name: 'bulk-test', mode: 'bulk', duration_s: 8, repetitions: 1,
      link: { down: { rate_mbps: 20 }, up: { rate_mbps: 20 }, queue: { type: 'droptail', bytes: 100_000 } },
      delay: { one_way_ms: 10 }, schemes: ['vivace', 'tcp-cubic'],
    }, '/');
    const performed = await runPlan(plan([scenario]), { outDir, mediaDir, playerDir: '', shouldStop: () => false });
    assert.equal(performed.length, 2);
    for (const run of performed) {
      assert.equal(run.status, 'ok', `${run.run_id}: ${run.error ?? ''}`);
      // The client stops at the deadline: goodput is bounded by the link and clearly above zero.
      assert.ok(run.goodput_mbps !== null && run.goodput_mbps > 2 && run.goodput_mbps <= 20.5, `${run.run_id}: ${run.goodput_mbps} Mbit/s`);
      assert.ok(run.link_utilization !== null && run.link_utilization > 0.1, `${run.run_id}: utilization ${run.link_utilization}`);
      assert.equal(run.players.length, 0);
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
    rmSync(mediaDir, { recursive: true, force: true });
  }
});
