import assert from 'node:assert/strict';
import { test } from 'node:test';

import { QuicClient, type QuicCongestion, type Session } from '../index.js';
import { openPair, sleep } from './loopback.ts';

const PERMISSIVE_WINDOW_BYTES = 2 ** 40;

/** Send a little stream data so the connection sees packets and acks (the switch point). */
async function exchange(sender: Session, receiver: Session): Promise<void> {
  const accepting = receiver.acceptBi();
  const stream = await sender.openBi();
  await stream.write(Buffer.alloc(20_000, 1));
  await stream.finish();
  const peer = await accepting;
  assert.ok(peer);
  while ((await peer.read(65536)) !== null);
}

test('the endpoint default controller is in effect from the start', async () => {
  for (const congestion of ['none', 'cubic', 'bbr', 'newreno'] as const) {
    const pair = await openPair({ server: { congestion } });
    try {
      const stats = pair.serverSession.stats();
      assert.equal(stats.congestion, congestion);
      if (congestion === 'none') assert.equal(stats.cwndBytes, PERMISSIVE_WINDOW_BYTES);
      else assert.ok(stats.cwndBytes < 1e8, `${congestion} cwnd ${stats.cwndBytes} is a real window`);
    } finally {
      pair.close();
    }
  }
});

test('setCongestion switches one connection after the CONNECT and shows in stats', async () => {
  const cases: Array<[QuicCongestion, QuicCongestion]> = [
    ['none', 'cubic'],
    ['none', 'bbr'],
    ['none', 'newreno'],
    ['cubic', 'none'],
  ];
  for (const [initial, target] of cases) {
    const pair = await openPair({ server: { congestion: initial }, path: `/s?cc=${target}` });
    try {
      const session = pair.serverSession;
      assert.equal(session.stats().congestion, initial);
      session.setCongestion(target);
      await exchange(pair.clientSession, session);
      await exchange(session, pair.clientSession);
      const stats = session.stats();
      assert.equal(stats.congestion, target, `${initial} -> ${target}`);
      if (target === 'none') assert.equal(stats.cwndBytes, PERMISSIVE_WINDOW_BYTES);
      else assert.ok(stats.cwndBytes < PERMISSIVE_WINDOW_BYTES, `${target} window ${stats.cwndBytes}`);
      // The client's own connection keeps the client endpoint's default.
      assert.equal(pair.clientSession.stats().congestion, 'none');
    } finally {
      pair.close();
    }
  }
});

test('only one switch per connection; unknown names are clear errors', async () => {
  const pair = await openPair();
  try {
    const session = pair.serverSession;
    assert.throws(() => session.setCongestion('reno' as QuicCongestion), /unknown QUIC congestion control "reno"/);
    session.setCongestion('bbr');
    session.setCongestion('bbr'); // repeating the choice is a no-op
    assert.throws(() => session.setCongestion('cubic'), /already switched to bbr/);
  } finally {
    pair.close();
  }
  await sleep(10);
});

test('the switch is per connection: other sessions of the same server keep theirs', async () => {
  const pair = await openPair({ server: { congestion: 'none' } });
  try {
    const accepted = pair.server.accept();
    const secondClient = await QuicClient.connect(`https://127.0.0.1:${pair.server.port}/second`, {
      certSha256Hex: pair.cert.certSha256Hex,
    });
    const second = await accepted;
    assert.ok(second);
    pair.serverSession.setCongestion('bbr');
    second.setCongestion('newreno');
    await exchange(pair.clientSession, pair.serverSession);
    await exchange(secondClient, second);
    assert.equal(pair.serverSession.stats().congestion, 'bbr');
    assert.equal(second.stats().congestion, 'newreno');
    secondClient.close(0, '');
  } finally {
    pair.close();
  }
});
