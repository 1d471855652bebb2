import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';

import { getTcpCongestion, setTcpCongestion } from '../index.js';
import { fdOf, withConnectedSocket } from './tcp-socket-pair.ts';

const available = new Set(
  (await import('node:fs')).readFileSync('/proc/sys/net/ipv4/tcp_available_congestion_control', 'utf8').trim().split(/\s+/),
);
const allowed = new Set(
  (await import('node:fs')).readFileSync('/proc/sys/net/ipv4/tcp_allowed_congestion_control', 'utf8').trim().split(/\s+/),
);
const isRoot = process.getuid?.() === 0;

test('setTcpCongestion selects cubic and bbr on a real TCP socket; getTcpCongestion reads it back', async () => {
  await withConnectedSocket(async (client, accepted) => {
    for (const algorithm of ['cubic', 'bbr']) {
      if (!available.has(algorithm)) {
        assert.throws(() => setTcpCongestion(fdOf(accepted), algorithm), /no such algorithm loaded/);
        continue;
      }
      if (!isRoot && !allowed.has(algorithm)) {
        assert.throws(() => setTcpCongestion(fdOf(accepted), algorithm), /only root may select/);
        continue;
      }
      setTcpCongestion(fdOf(accepted), algorithm);
      assert.equal(getTcpCongestion(fdOf(accepted)), algorithm);
    }
    // Per socket: the other end keeps its own algorithm.
    assert.equal(typeof getTcpCongestion(fdOf(client)), 'string');
    // Data still flows after switching.
    accepted.write('ping');
    const [data] = (await once(client, 'data')) as [Buffer];
    assert.equal(data.toString(), 'ping');
  });
});

test('an unknown algorithm is a clear error with the errno text', async () => {
  await withConnectedSocket(async (_client, accepted) => {
    const before = getTcpCongestion(fdOf(accepted));
    assert.throws(
      () => setTcpCongestion(fdOf(accepted), 'no-such-cc'),
      /setsockopt\(fd \d+, TCP_CONGESTION, "no-such-cc"\) failed: No such file or directory/,
    );
    assert.equal(getTcpCongestion(fdOf(accepted)), before, 'a failed switch leaves the socket unchanged');
  });
});

test('bad names and bad fds are clear errors, never crashes', () => {
  assert.throws(() => setTcpCongestion(0x7fff_0000, 'cubic'), /Bad file descriptor/);
  assert.throws(() => setTcpCongestion(-1, 'cubic'), /non-negative file descriptor/);
  assert.throws(() => setTcpCongestion(3, ''), /1\.\.15 printable ASCII/);
  assert.throws(() => setTcpCongestion(3, 'a'.repeat(16)), /1\.\.15 printable ASCII/);
  assert.throws(() => setTcpCongestion(3, 'cu\0bic'), /printable ASCII/);
  assert.throws(() => getTcpCongestion(0x7fff_0000), /getsockopt\(fd \d+, TCP_CONGESTION\) failed/);
});

test('a non-TCP fd is refused with an explanation', () => {
  // fd 0..2 are pipes/ttys/files under the test runner, not TCP sockets.
  assert.throws(() => setTcpCongestion(1, 'cubic'), /failed: .*\(fd is not (an open socket|a TCP socket)\)/);
});
