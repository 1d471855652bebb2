// The TCP baseline's CMSD etp (tcp-info.ts): the kernel sender's rate from TCP_INFO, the pacing rate capped by the
// window's rate. On a real connection after a transfer it is at least the initial window's rate and matches the
// socket's own figures; before any RTT sample there is none. And the bytes the kernel sent on a connection
// (trackBytesSent), by which the kernel-TCP origin tells a response the kernel sent from one it only buffered.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getTcpInfo } from '@pcc-stream/quic';
import { fdOf, sendThrough, withConnectedSocket } from '../native/test/tcp-socket-pair.ts';
import { BYTES_SENT_SAMPLE_MS, TCP_ETP_CEILING_BPS, tcpCmsdEstimate, tcpSendRateBps, trackBytesSent } from '../src/baseline/tcp-info.ts';

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

test('trackBytesSent: whenSent fires at the first sample that shows the bytes sent, not before; at once when the kernel cannot say', async () => {
  await withConnectedSocket(async (client, sender) => {
    const tracker = trackBytesSent(fdOf(sender));
    const bytes = 1 << 20;
    const sentWhenFired = new Promise<number | null>((resolve) => tracker.whenSent(bytes, () => resolve(tracker.sent())));
    await sendThrough(sender, client, bytes);
    const sent = await sentWhenFired;
    assert.ok(sent !== null && sent >= bytes, `fired with ${sent} bytes sent`);
    // nothing more is sent: a waiter for more than that must not fire over several samples
    let fired = false;
    tracker.whenSent(sent + bytes, () => { fired = true; });
    await new Promise((resolve) => setTimeout(resolve, 5 * BYTES_SENT_SAMPLE_MS));
    assert.equal(fired, false, 'fired before the kernel sent the bytes');
    assert.ok(tracker.stop() >= bytes);
  });
  let atOnce = false;
  trackBytesSent(null).whenSent(1, () => { atOnce = true; });
  assert.ok(atOnce, 'no fd: the kernel cannot say, so nothing to wait for');
});
