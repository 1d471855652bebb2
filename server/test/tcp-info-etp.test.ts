// The TCP baseline's CMSD etp (tcp-info.ts): the kernel sender's rate from TCP_INFO, the pacing rate capped by the
// window's rate. On a real connection after a transfer it is at least the initial window's rate and matches the
// socket's own figures; before any RTT sample there is none.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getTcpInfo } from '@pcc-stream/quic';
import { fdOf, sendThrough, withConnectedSocket } from '../native/test/tcp-socket-pair.ts';
import { TCP_ETP_CEILING_BPS, tcpCmsdEstimate, tcpSendRateBps } from '../src/baseline/tcp-info.ts';

test('etp is the kernel sender\'s rate: min(pacing rate, cwnd x mss / srtt), rtt its srtt', async () => {
  await withConnectedSocket(async (client, sender) => {
    await sendThrough(sender, client, 8 << 20);
    const fd = fdOf(sender);
    const info = getTcpInfo(fd);
    const estimate = tcpCmsdEstimate(fd);
    const windowBps = (info.sndCwndPackets * info.sndMssBytes * 8e6) / info.srttUs;
    const initialWindowBps = (10 * info.sndMssBytes * 8e6) / info.srttUs;
    // Loopback's window rate is far above the ceiling (tens of Gbit/s at a few µs of srtt): then etp is the ceiling.
    assert.ok(estimate.etpKbps !== undefined && estimate.etpKbps * 1000 >= Math.min(0.5 * initialWindowBps, TCP_ETP_CEILING_BPS), `etp ${estimate.etpKbps} kbit/s`);
    assert.ok(estimate.etpKbps * 1000 <= TCP_ETP_CEILING_BPS, `etp ${estimate.etpKbps} kbit/s above the ceiling`);
    assert.ok(estimate.etpKbps * 1000 <= windowBps * 1.5, `etp ${estimate.etpKbps} kbit/s above the window's rate ${windowBps} bit/s`);
    if (info.pacingRateBps !== undefined) assert.ok(estimate.etpKbps * 1000 <= info.pacingRateBps * 1.5, 'etp above the pacing rate');
    assert.equal(estimate.rttMs, Math.round(info.srttUs / 1000));
  });
});

test('no RTT sample, no window: no etp; a closed fd: no estimate at all', () => {
  const base = { sndCwndPackets: 10, sndMssBytes: 1448, srttUs: 0, rttvarUs: 0, totalRetransPackets: 0 };
  assert.equal(tcpSendRateBps(base), null);
  assert.equal(tcpSendRateBps({ ...base, srttUs: 10_000, sndCwndPackets: 0 }), null);
  // CUBIC-like: pacing 1.2 x the window's rate -> the window's rate; BBR-like: pacing below it -> the pacing rate.
  assert.equal(tcpSendRateBps({ ...base, srttUs: 10_000, pacingRateBps: 1.2 * 11_584_000 }), 11_584_000);
  assert.equal(tcpSendRateBps({ ...base, srttUs: 10_000, pacingRateBps: 5e6 }), 5e6);
  assert.deepEqual(tcpCmsdEstimate(1_000_000), {});
});
