import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createSocket } from 'node:dgram';
import { openSync, closeSync } from 'node:fs';
import { test } from 'node:test';

import { getTcpInfo } from '../index.js';
import { fdOf, sendThrough, withConnectedSocket } from './tcp-socket-pair.ts';

test('getTcpInfo reads the kernel sender\'s state of a real TCP connection after it sent 4 MB', async () => {
  await withConnectedSocket(async (client, sender) => {
    const before = getTcpInfo(fdOf(sender));
    assert.equal(before.bytesSent ?? 0, 0, 'nothing sent yet');
    await sendThrough(sender, client, 4 << 20);
    const info = getTcpInfo(fdOf(sender));
    assert.ok(info.bytesSent !== undefined && info.bytesSent >= 4 << 20, `bytes sent ${info.bytesSent}`);
    assert.ok(info.sndMssBytes > 500 && info.sndMssBytes <= 65_536, `mss ${info.sndMssBytes}`);
    assert.ok(info.sndCwndPackets >= 1, `cwnd ${info.sndCwndPackets}`);
    assert.ok(info.srttUs > 0 && info.srttUs < 1e6, `srtt ${info.srttUs} us on loopback`);
    assert.ok(info.pacingRateBps !== undefined && info.pacingRateBps > 1e6, `pacing rate ${info.pacingRateBps} bit/s`);
    assert.ok(info.deliveryRateBps !== undefined && info.deliveryRateBps > 1e6, `delivery rate ${info.deliveryRateBps} bit/s`);
    assert.equal(typeof info.deliveryRateAppLimited, 'boolean');
    // The receiving side sent nothing: its counters stay at zero.
    assert.equal(getTcpInfo(fdOf(client)).bytesSent ?? 0, 0);
  });
});

test('getTcpInfo refuses what is not a TCP socket with the reason', async () => {
  assert.throws(() => getTcpInfo(-1), /non-negative/);
  const fileFd = openSync('/proc/self/status', 'r');
  try {
    assert.throws(() => getTcpInfo(fileFd), /TCP_INFO.*not (an open socket|a TCP socket)/);
  } finally {
    closeSync(fileFd);
  }
  const udp = createSocket('udp4');
  udp.bind(0, '127.0.0.1');
  await once(udp, 'listening');
  try {
    const fd = (udp as unknown as { _handle?: { fd?: number } })._handle?.fd;
    if (typeof fd === 'number' && fd >= 0) assert.throws(() => getTcpInfo(fd), /TCP_INFO/);
  } finally {
    udp.close();
  }
});
