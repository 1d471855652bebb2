import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openPair, receiveDatagrams, sleep, type LoopbackPair } from './loopback.ts';

/** Sent one at a time with a timer tick between them: over loopback a burst reaches the client in one receive
 *  batch, which quinn acknowledges once however many packets it holds, so only spaced packets show the ACK policy. */
const DATAGRAMS = 300;

/** The server sends DATAGRAMS datagrams, one per timer tick; the client reads them all; returns the pair, still open. */
async function sendAndReceive(requestAckFrequency: boolean): Promise<LoopbackPair> {
  const pair = await openPair({ server: { requestAckFrequency } });
  const payload = Buffer.alloc(1000);
  for (let sent = 0; sent < DATAGRAMS; sent++) {
    assert.equal(pair.serverSession.sendDatagram(payload), true);
    await sleep(1);
  }
  const received = await receiveDatagrams(pair.clientSession, DATAGRAMS);
  assert.equal(received.length, DATAGRAMS, 'every datagram arrives on an idle loopback');
  return pair;
}

test('requestAckFrequency: the server asks the client for fewer ACKs, and only when set', async () => {
  for (const requested of [false, true]) {
    const pair = await sendAndReceive(requested);
    try {
      const sent = pair.serverSession.stats().ackFrequencyFramesSent;
      const received = pair.clientSession.stats().ackFrequencyFramesReceived;
      if (requested) {
        // The client (quinn) advertises the extension's min_ack_delay, so the server asks.
        assert.ok(sent >= 1, `ACK_FREQUENCY frames sent with the request: ${sent}`);
        assert.ok(received >= 1, `ACK_FREQUENCY frames the client took: ${received}`);
      } else {
        assert.equal(sent, 0);
        assert.equal(received, 0);
      }
      // The client never asks: only the data sender's option does.
      assert.equal(pair.clientSession.stats().ackFrequencyFramesSent, 0);
    } finally {
      pair.close();
    }
  }
});

test('with requestAckFrequency the client sends under half the QUIC ACKs for the same datagrams', async () => {
  const acks: Record<string, number> = {};
  for (const requested of [false, true]) {
    const pair = await sendAndReceive(requested);
    try {
      acks[String(requested)] = pair.clientSession.stats().ackFramesSent;
    } finally {
      pair.close();
    }
  }
  // Without the request quinn acknowledges every second packet; with it every 16th (or after 25 ms): ~150 and ~23
  // here. Counts, not times: packets bunched by a busy machine make the unrequested side ack less, never more.
  assert.ok(acks.true! * 2 < acks.false!, `QUIC ACK frames from the client: ${acks.true} with the request, ${acks.false} without`);
});
