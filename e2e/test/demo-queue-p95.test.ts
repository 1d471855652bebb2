// The summary card's p95 queueing delay against the bench's on real linkem runs: a kernel TCP flow fills a droptail
// link; the bench takes linkem's own summary (every departed packet ranked on 10 µs bins), the card ranks the packets
// of /network's bins, which LinkMonitor reads from the same run's mm-link log (whole ms). They may differ only by the
// log's resolution. Needs root (namespaces).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parseScenario } from '@pcc-stream/bench/harness/scenario';
import { parseMmLog } from '@pcc-stream/bench/linkem';
import type { NetworkLink } from '@pcc-stream/protocol';
import { runSummary } from '../../player/src/metrics/run-summary.ts';
import { LinkMonitor, NETWORK_BIN_S } from '../../scripts/demo/link-monitor.ts';
import { runProbe, tempDir, withLinkem } from '../../bench/test/linkem-helpers.ts';

/** The log stamps arrival and departure in whole ms (a packet's logged delay is within 1 ms of its own), linkem's
 *  summary reports the upper edge of a 10 µs bin. */
const LOG_RESOLUTION_MS = 1 + 0.01;
const FLOW_MS = 4000;

let dir: ReturnType<typeof tempDir>;
before(() => {
  dir = tempDir('demo-queue-p95-');
});
after(() => dir.remove());

// The two shapes of the demo's presets: changing-rtt's deep buffer under CUBIC, shared's shallow one under BBR.
const CASES = [
  { name: 'cubic, 8.8 Mbit/s, 300 KB', rateMbps: 8.8, queueDownArgs: 'bytes=300000', cc: 'cubic', port: 27310 },
  { name: 'bbr, 30 Mbit/s, 75 KB', rateMbps: 30, queueDownArgs: 'bytes=75000', cc: 'bbr', port: 27311 },
];

for (const c of CASES) {
  test(`the card's p95 queueing delay is linkem's (${c.name})`, { timeout: 60_000 }, async (t) => {
    const logPath = join(dir.path, `${c.cc}-down.log`);
    const { summary } = await withLinkem({ downMbps: c.rateMbps, upMbps: c.rateMbps, delayMs: 10, queueDown: 'droptail', queueDownArgs: c.queueDownArgs, logDown: logPath }, async (shell) => {
      const recv = runProbe(['tcp-recv', '--bind', shell.innerAddress, '--port', String(c.port), '--max-ms', '30000'], shell);
      await recv.event('listening');
      await runProbe(['tcp-send', '--to', shell.innerAddress, '--port', String(c.port), '--cc', c.cc, '--duration-ms', String(FLOW_MS)]).result(15_000);
      await recv.result(15_000);
    });
    // The demo's monitor over the whole log (the link started at demo time 0), then the card over a session as long.
    const scenario = parseScenario({ name: 'q', duration_s: 10, link: { down: { rate_mbps: c.rateMbps }, up: { rate_mbps: c.rateMbps } } }, '/');
    const monitor = new LinkMonitor(scenario, 0, logPath);
    const lastMs = parseMmLog(readFileSync(logPath, 'utf8')).events.reduce((m, e) => Math.max(m, e.tMs), 0);
    const spanS = Math.ceil(lastMs / 1000 / NETWORK_BIN_S) * NETWORK_BIN_S + NETWORK_BIN_S;
    monitor.poll(spanS + 2);
    const link: NetworkLink = {
      id: 'link-0', label: c.name, panes: [], origin: { host: '10.0.0.2', webTransportPort: 4433, httpPort: 8080, httpsPort: null },
      queue: monitor.queueSince(0), capacity: monitor.capacitySince(0),
    };
    monitor.close();
    const card = runSummary({ stallCount: 0, totalStallS: 0, playingS: spanS, bufferingRatio: 0, startupDelayS: 0, averageBitrateKbps: 0, timeWeightedBitrateKbps: 0 },
      { link, binS: NETWORK_BIN_S, demoToPaneOffsetS: 0 }, 0, spanS);
    const bench = summary.down.queueDelayMs.p95;
    t.diagnostic(JSON.stringify({ link: c.name, departed_packets: summary.down.departedPackets, bench_p95_ms: bench, card_p95_ms: card.queueDelayP95Ms }));
    assert.ok(summary.down.departedPackets > 1000, `only ${summary.down.departedPackets} packets left the link`);
    assert.ok(card.queueDelayP95Ms !== null, 'the card has no p95');
    assert.ok(Math.abs(card.queueDelayP95Ms - bench) <= LOG_RESOLUTION_MS, `card ${card.queueDelayP95Ms} ms, bench ${bench} ms`);
  });
}
