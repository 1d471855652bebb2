// LinkMonitor reads linkem's mm-link log as the forwarder flushes it: queue bins (p95 delay of the packets that left,
// most bytes queued, delivered rate) and capacity bins on the demo clock.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseScenario } from '@pcc-stream/bench/harness/scenario';
import { LinkMonitor, NETWORK_BIN_S } from './link-monitor.ts';

const scenario = parseScenario({ name: 'm', duration_s: 10, link: { down: { rate_mbps: 8 }, up: { rate_mbps: 2 } } }, '/');

test('queue and capacity bins from a growing log, a line split across reads, quiet bins holding the queue', () => {
  const dir = mkdtempSync(join(tmpdir(), 'link-monitor-'));
  try {
    const log = join(dir, 'link-down.log');
    const linkStartS = 10;
    const monitor = new LinkMonitor(scenario, linkStartS, log);
    monitor.poll(11); // no log yet: nothing, no error
    writeFileSync(log, '# mahimahi mm-link (uplink) [constant] > x\n# base timestamp: 0\n0 # 1504\n100 + 1504\n100 + 1504\n120 - 1504 20\n130 - 1504 30\n600 + 1504\n700 d 1 1504\n1600 + 10');
    monitor.poll(12.9); // bins ending a second before now are closed: 0..2
    assert.equal(NETWORK_BIN_S, 0.5);
    assert.deepEqual(monitor.queueSince(0), [[10, 30, 3008, (2 * 1504 * 8) / 0.5 / 1e6], [10.5, null, 1504, 0], [11, null, 0, 0]]);
    appendFileSync(log, '00\n2100 - 1000 500\n');
    monitor.poll(13.6);
    assert.deepEqual(monitor.queueSince(11.5), [[11.5, null, 1000, 0], [12, 500, 1000, (1000 * 8) / 0.5 / 1e6]]);
    assert.deepEqual(monitor.capacitySince(12), [[12, 8, 2]]);
    assert.equal(monitor.capacitySince(0).length, 5);
    monitor.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a bin's p95 delay follows the bench's nearest-rank rule (rank ⌊0.95 n⌋)", () => {
  const dir = mkdtempSync(join(tmpdir(), 'link-monitor-'));
  try {
    const log = join(dir, 'link-down.log');
    const monitor = new LinkMonitor(scenario, 0, log);
    // 20 packets leave in bin 0 with delays 1..20 ms: rank 19, the 20 ms one.
    writeFileSync(log, Array.from({ length: 20 }, (_, i) => `${10 + i} + 100\n${10 + i} - 100 ${i + 1}\n`).join(''));
    monitor.poll(1.6);
    assert.equal(monitor.queueSince(0)[0]?.[1], 20);
    monitor.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
