// Kernel TCP (cubic and bbr, chosen per socket) through a 12 Mbit/s constant link in both
// directions with 10 ms one-way delay reaches at least 90% of the link's capacity.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { port, runProbe, withLinkem } from './linkem-helpers.ts';

const LINK_MBPS = 12;
const TRANSFER_MS = 5000;
const SKIP_MS = 1000; // slow start is not the steady state being checked

for (const cc of ['cubic', 'bbr'] as const) {
  test(`TCP ${cc}, host to namespace through ${LINK_MBPS} Mbit/s: goodput >= 90% of capacity`, { timeout: 40000 }, async (t) => {
    const p = port(24000) + (cc === 'bbr' ? 1 : 0);
    const { value, summary } = await withLinkem({ downMbps: LINK_MBPS, upMbps: LINK_MBPS, delayMs: 10 }, async (shell) => {
      const recv = runProbe(['tcp-recv', '--bind', shell.innerAddress, '--port', String(p), '--max-ms', String(TRANSFER_MS + 5000)], shell);
      await recv.event('listening');
      const sent = await runProbe(['tcp-send', '--to', shell.innerAddress, '--port', String(p), '--cc', cc, '--duration-ms', String(TRANSFER_MS)]).result(TRANSFER_MS + 10000);
      const got = await recv.result(TRANSFER_MS + 10000);
      return { sent, got };
    });
    assert.equal(value.sent.cc, cc, `the sender's socket runs ${String(value.sent.cc)}, not ${cc}`);
    const bins = value.got.bins as number[];
    const binMs = value.got.binMs as number;
    // bins from SKIP_MS to the last complete bin before the sender stopped
    const steady = bins.slice(SKIP_MS / binMs, TRANSFER_MS / binMs - 1);
    const goodputBps = (steady.reduce((a, b) => a + b, 0) * 8) / ((steady.length * binMs) / 1000);
    const ratio = goodputBps / (LINK_MBPS * 1e6);
    t.diagnostic(`${cc}: goodput ${(goodputBps / 1e6).toFixed(3)} Mbit/s = ${(ratio * 100).toFixed(1)}% of ${LINK_MBPS} Mbit/s; retransmits ${String(value.sent.retransmits)}; link queue delay p95 ${summary.down.queueDelayMs.p95} ms`);
    assert.ok(steady.length >= 30, 'transfer too short to judge');
    assert.ok(ratio >= 0.9, `${cc} reached only ${(ratio * 100).toFixed(1)}% of capacity`);
    assert.ok(ratio <= 1.0, `${cc} exceeded the link rate (${(ratio * 100).toFixed(1)}%): the emulator is not limiting`);
  });
}
