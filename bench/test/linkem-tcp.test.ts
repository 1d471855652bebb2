// Kernel TCP (cubic and bbr, chosen per socket) through a 12 Mbit/s constant link with 10 ms
// one-way delay reaches at least 90% of the link's capacity, downstream and upstream.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { port, runProbe, withLinkem } from './linkem-helpers.ts';

const LINK_MBPS = 12;
const TRANSFER_MS = 5000;
const SKIP_MS = 1000; // slow start is not the steady state being checked

const cases = [
  { cc: 'cubic', direction: 'down' },
  { cc: 'bbr', direction: 'down' },
  { cc: 'cubic', direction: 'up' }, // a sender inside the namespace (whose default is bbr) selecting cubic
] as const;

for (const [i, { cc, direction }] of cases.entries()) {
  const path = direction === 'down' ? 'host to namespace' : 'namespace to host';
  test(`TCP ${cc}, ${path} through ${LINK_MBPS} Mbit/s: goodput >= 90% of capacity`, { timeout: 60000 }, async (t) => {
    const p = port(24000) + i;
    const { value, summary } = await withLinkem({ downMbps: LINK_MBPS, upMbps: LINK_MBPS, delayMs: 10 }, async (shell) => {
      const inside = direction === 'down';
      const receiverAddress = inside ? shell.innerAddress : shell.baseAddress;
      const recv = runProbe(['tcp-recv', '--bind', receiverAddress, '--port', String(p), '--max-ms', String(TRANSFER_MS + 30000)], inside ? shell : undefined);
      await recv.event('listening');
      const sendArgs = ['tcp-send', '--to', receiverAddress, '--port', String(p), '--cc', cc, '--duration-ms', String(TRANSFER_MS)];
      const sent = await runProbe(sendArgs, inside ? undefined : shell).result(TRANSFER_MS + 10000);
      const got = await recv.result(TRANSFER_MS + 30000);
      return { sent, got };
    });
    assert.equal(value.sent.cc, cc, `the sender's socket runs ${String(value.sent.cc)}, not ${cc}`);
    const bins = value.got.bins as number[];
    const binMs = value.got.binMs as number;
    // bins from SKIP_MS to the last complete bin before the sender stopped
    const steady = bins.slice(SKIP_MS / binMs, TRANSFER_MS / binMs - 1);
    const goodputBps = (steady.reduce((a, b) => a + b, 0) * 8) / ((steady.length * binMs) / 1000);
    const ratio = goodputBps / (LINK_MBPS * 1e6);
    const linkSummary = summary[direction];
    t.diagnostic(`${cc} ${path}: goodput ${(goodputBps / 1e6).toFixed(3)} Mbit/s = ${(ratio * 100).toFixed(1)}% of ${LINK_MBPS} Mbit/s; retransmits ${String(value.sent.retransmits)}; link queue delay p95 ${linkSummary.queueDelayMs.p95} ms`);
    assert.ok(steady.length >= 30, 'transfer too short to judge');
    assert.ok(ratio >= 0.9, `${cc} reached only ${(ratio * 100).toFixed(1)}% of capacity`);
    assert.ok(ratio <= 1.0, `${cc} exceeded the link rate (${(ratio * 100).toFixed(1)}%): the emulator is not limiting`);
  });
}
