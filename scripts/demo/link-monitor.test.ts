// LinkMonitor reads linkem's mm-link log as the forwarder flushes it: queue bins (p95 delay of the packets that left,
// most bytes queued, delivered rate, every packet's delay) and capacity bins on the demo clock; the page's summary card
// ranks those packets as the bench does.
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseScenario } from '@pcc-stream/bench/harness/scenario';
import { parseMmLog } from '@pcc-stream/bench/linkem';
import { queueDelayPercentileMs, type NetworkLink } from '@pcc-stream/protocol';
import { runSummary } from '../../player/src/metrics/run-summary.ts';
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
    assert.deepEqual(monitor.queueSince(0), [[10, 30, 3008, (2 * 1504 * 8) / 0.5 / 1e6, [[20, 1], [30, 1]]], [10.5, null, 1504, 0, []], [11, null, 0, 0, []]]);
    appendFileSync(log, '00\n2100 - 1000 500\n');
    monitor.poll(13.6);
    assert.deepEqual(monitor.queueSince(11.5), [[11.5, null, 1000, 0, []], [12, 500, 1000, (1000 * 8) / 0.5 / 1e6, [[500, 1]]]]);
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

test("the summary card's p95 queueing delay is the bench's: every departed packet of the span ranked at once", () => {
  const dir = mkdtempSync(join(tmpdir(), 'link-monitor-'));
  try {
    const logPath = join(dir, 'link-down.log');
    // 8 s of a queue that fills and drains, with a burst of long delays in a few bins: a packet every 2 ms, delays
    // from a fixed pseudo-random sequence, so bins differ in how many packets they carry and how long those waited.
    let seed = 12345;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const lines: string[] = ['# mahimahi mm-link (downlink) [constant] > x', '# base timestamp: 0'];
    for (let tMs = 0; tMs < 8000; tMs += 2) {
      if ((tMs >= 3000 && tMs < 4200) && random() < 0.7) continue; // a fade: fewer departures, long waits
      const base = 5 + 40 * Math.abs(Math.sin(tMs / 900));
      const delayMs = Math.round(tMs >= 3000 && tMs < 4200 ? 120 + 80 * random() : base + 15 * random());
      lines.push(`${tMs} + 1504`, `${tMs} - 1504 ${delayMs}`);
    }
    const text = `${lines.join('\n')}\n`;
    writeFileSync(logPath, text);
    const monitor = new LinkMonitor(scenario, 0, logPath);
    monitor.poll(10);
    const link: NetworkLink = {
      id: 'link-0', label: 'm', panes: ['vivace@datagram'], origin: { host: '10.0.0.1', webTransportPort: 4433, httpPort: 8080, httpsPort: null },
      queue: monitor.queueSince(0), capacity: monitor.capacitySince(0),
    };
    monitor.close();
    // The bench's figure: linkem ranks every departed packet of the run (rank ⌊0.95 n⌋, protocol qoe.ts).
    const departures = parseMmLog(text).events.flatMap((e) => (e.kind === 'departure' ? [e] : []));
    const benchP95 = (fromMs: number, toMs: number): number | null =>
      queueDelayPercentileMs(departures.filter((e) => e.tMs >= fromMs && e.tMs < toMs).map((e) => ({ delayMs: e.delayMs, count: 1 })));
    const metrics = { stallCount: 0, totalStallS: 0, playingS: 8, bufferingRatio: 0, startupDelayS: 0.5, averageBitrateKbps: 4000, timeWeightedBitrateKbps: 4000 };
    // A session over the whole run, and one that started 2 s into the link's life and stopped after 4 s.
    const whole = runSummary(metrics, { link, binS: NETWORK_BIN_S, demoToPaneOffsetS: 0 }, 0, 8);
    const part = runSummary(metrics, { link, binS: NETWORK_BIN_S, demoToPaneOffsetS: 2 }, 0, 4);
    assert.equal(whole.queueDelayP95Ms, benchP95(0, 8000));
    assert.equal(part.queueDelayP95Ms, benchP95(2000, 6000));
    // What the card used to show, the bins' p95s weighted by the bytes they delivered, reads otherwise on this log.
    const binP95s = queueDelayPercentileMs(link.queue.flatMap(([, p95, , mbps]) => (p95 === null ? [] : [{ delayMs: p95, count: mbps }])));
    assert.notEqual(binP95s, benchP95(0, 8000), `bins' p95s ${binP95s}, packets' ${benchP95(0, 8000)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
