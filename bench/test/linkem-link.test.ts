// mm-link semantics, checked packet by packet from the log against an independent model:
// 1504-byte opportunities at trace times (repeated timestamps = several), the trace looping
// shifted by its last timestamp, unused bytes wasted, packets spanning opportunities and
// departing with their last byte. Also CoDel keeps a TCP flow's standing queue short.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { parseMmLog } from '../linkem/src/driver/index.ts';
import { port, runProbe, tempDir, withLinkem } from './linkem-helpers.ts';

let dir: ReturnType<typeof tempDir>;
before(() => {
  dir = tempDir('linkem-link-');
});
after(() => dir.remove());

test('departures follow the mm-link model exactly for mixed sizes over a looping trace with repeated timestamps', { timeout: 30000 }, async (t) => {
  const traceTimesMs = [5, 5, 5, 10, 20]; // 5 opportunities per 20 ms loop = 3.0 Mbit/s
  const trace = join(dir.path, 'bursty.trace');
  writeFileSync(trace, traceTimesMs.join('\n') + '\n');
  const logPath = join(dir.path, 'down.log');
  const p = port(26000);
  await withLinkem({ downTrace: trace, logDown: logPath }, async (shell) => {
    const recv = runProbe(['udp-recv', '--bind', shell.innerAddress, '--port', String(p), '--idle-ms', '600', '--max-ms', '10000'], shell);
    await recv.event('listening');
    // two senders of different sizes interleave: packets of 332 and 1132 link bytes
    await Promise.all([
      runProbe(['udp-send', '--to', shell.innerAddress, '--port', String(p), '--pps', '300', '--count', '150', '--size', '300']).result(),
      runProbe(['udp-send', '--to', shell.innerAddress, '--port', String(p), '--pps', '200', '--count', '100', '--size', '1100']).result(),
    ]);
    await recv.result(15000);
  });
  const log = parseMmLog(readFileSync(logPath, 'utf8'));
  assert.equal(log.header['base timestamp'], '0');
  assert.match(log.header['init timestamp'] ?? '', /^\d{13}$/);

  // Opportunities: the trace expanded with its loop shift.
  const opportunityTimes = log.events.filter((e) => e.kind === 'opportunity').map((e) => e.tMs);
  assert.ok(opportunityTimes.length > 50, 'too few opportunities logged');
  opportunityTimes.forEach((tMs, i) => {
    const expected = Math.floor(i / traceTimesMs.length) * 20 + traceTimesMs[i % traceTimesMs.length]!;
    assert.equal(tMs, expected, `opportunity ${i}`);
  });

  // Independent model fed with the logged arrivals and opportunities, in log order.
  const queue: { bytes: number; arrivedMs: number }[] = [];
  let inTransitLeft = 0;
  const expectedDepartures: { tMs: number; bytes: number; delayMs: number }[] = [];
  const actualDepartures: { tMs: number; bytes: number; delayMs: number }[] = [];
  let wastedBytes = 0;
  let spanning = 0;
  for (const e of log.events) {
    if (e.kind === 'arrival') queue.push({ bytes: e.bytes, arrivedMs: e.tMs });
    else if (e.kind === 'departure') actualDepartures.push({ tMs: e.tMs, bytes: e.bytes, delayMs: e.delayMs });
    else if (e.kind === 'opportunity') {
      let budget = 1504;
      while (budget > 0) {
        if (inTransitLeft === 0) {
          if (queue.length === 0) break;
          inTransitLeft = queue[0]!.bytes;
        }
        const sent = Math.min(budget, inTransitLeft);
        budget -= sent;
        inTransitLeft -= sent;
        if (inTransitLeft === 0) {
          const done = queue.shift()!;
          expectedDepartures.push({ tMs: e.tMs, bytes: done.bytes, delayMs: e.tMs - done.arrivedMs });
        } else {
          spanning++;
        }
      }
      wastedBytes += budget;
    } else {
      assert.fail('no drops expected with an infinite queue');
    }
  }
  t.diagnostic(`${actualDepartures.length} departures, ${spanning} packet-opportunity spans, ${wastedBytes} bytes of opportunities wasted`);
  assert.equal(actualDepartures.length, 250);
  assert.deepEqual(actualDepartures, expectedDepartures);
  assert.ok(spanning > 20, 'the test should make packets span opportunities');
});

test('CoDel keeps the queueing delay of a TCP flow near its target where droptail lets it grow', { timeout: 60000 }, async (t) => {
  const p = port(26100);
  const run = async (queueDown: 'codel' | 'droptail', queueDownArgs: string, offset: number) => {
    const { summary } = await withLinkem({ downMbps: 12, delayMs: 10, queueDown, queueDownArgs }, async (shell) => {
      const recv = runProbe(['tcp-recv', '--bind', shell.innerAddress, '--port', String(p + offset), '--max-ms', '30000'], shell);
      await recv.event('listening');
      await runProbe(['tcp-send', '--to', shell.innerAddress, '--port', String(p + offset), '--cc', 'cubic', '--duration-ms', '3000']).result(15000);
      await recv.result(15000);
    });
    return summary.down;
  };
  const codel = await run('codel', 'target=5,interval=100,packets=1000', 0);
  const droptail = await run('droptail', 'packets=1000', 1);
  t.diagnostic(`cubic at 12 Mbit/s, codel: queue delay p50 ${codel.queueDelayMs.p50} ms p95 ${codel.queueDelayMs.p95} ms, ${codel.queueDropPackets} dropped; droptail 1000 packets: p50 ${droptail.queueDelayMs.p50} ms p95 ${droptail.queueDelayMs.p95} ms, ${droptail.queueDropPackets} dropped`);
  assert.ok(codel.queueDropPackets > 0, 'CoDel never dropped');
  assert.ok(codel.queueDelayMs.p50 <= 30, `CoDel median queueing delay ${codel.queueDelayMs.p50} ms`);
  assert.ok(droptail.queueDelayMs.p50 > 3 * codel.queueDelayMs.p50, 'droptail should queue far longer than CoDel');
});
