// Ack validation against a real SentPacketTracker (the guard's boundary is the datagram).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CLOSE_OPTIMISTIC_ACK, CLOSE_PROTOCOL_VIOLATION, SentPacketTracker, encodeAckDatagram, encodeDataDatagram,
} from '@pcc-stream/protocol';
import { AckGuard, type AckRejectionKind } from '../src/datagram/ack-guard.ts';

const SKIPPED = 5;

/** A tracker that sent `count` packets at time 0; number SKIPPED is skipped (never sent). */
function trackerWithSent(count: number): SentPacketTracker {
  let draws = 0;
  // The tracker skips a number when random() < 1/128: only the draw for packet SKIPPED does.
  const tracker = new SentPacketTracker({ random: () => (draws++ === SKIPPED ? 0 : 0.5) });
  for (let i = 0; i < count; i++) {
    const packetNumber = tracker.allocatePacketNumber();
    tracker.onPacketSent({ packetNumber, sentTimeUs: 0, bytes: 1200, requestId: 1, offset: i * 1182, length: 1182, retransmission: false });
  }
  return tracker;
}

function ack(smallest: number, largest: number): Uint8Array {
  return encodeAckDatagram({ ranges: [{ smallest, largest }], ackDelayUs: 100, largestRecvTimeUs: 1, windowBytes: 1 << 20 });
}

/** An ACK whose first range reaches below packet 0: no honest receiver builds it. */
function forgedAck(): Uint8Array {
  const bytes = ack(3, 3);
  new DataView(bytes.buffer).setUint32(23, 10); // first range length 10 below largest 3
  return bytes;
}

test('a valid ACK is applied; every hostile datagram is rejected with its kind, close code and reason, applying nothing', () => {
  const tracker = trackerWithSent(10); // numbers 0-4, 6-10
  const guard = new AckGuard();
  const cases: Array<[string, Uint8Array, AckRejectionKind, number, RegExp]> = [
    ['empty', new Uint8Array(0), 'not-ack', CLOSE_PROTOCOL_VIOLATION, /type empty/],
    ['DATA from the client', encodeDataDatagram({ requestId: 1, packetNumber: 0, offset: 0, payload: Uint8Array.of(1) }), 'not-ack', CLOSE_PROTOCOL_VIOLATION, /type 0x1 .*only ACK/],
    ['truncated ACK', ack(0, 1).subarray(0, 20), 'malformed', CLOSE_PROTOCOL_VIOLATION, /malformed ACK/],
    ['forged range below packet 0', forgedAck(), 'malformed', CLOSE_PROTOCOL_VIOLATION, /below packet 0/],
    ['out of window: beyond the largest sent', ack(0, 11), 'ack-of-unsent', CLOSE_OPTIMISTIC_ACK, /largest sent is 10/],
    ['optimistic: covers a skipped number', ack(4, 6), 'optimistic-ack', CLOSE_OPTIMISTIC_ACK, /packet 5, which was never sent/],
  ];
  for (const [name, datagram, kind, code, reason] of cases) {
    const r = guard.check(datagram, tracker, 1000, 1000);
    assert.ok(!r.ok, name);
    assert.equal(r.rejection.kind, kind, name);
    assert.equal(r.rejection.closeCode, code, name);
    assert.match(r.rejection.reason, reason, name);
    assert.equal(tracker.packetsAcked, 0, `${name}: nothing applied`);
    assert.equal(tracker.bytesInFlight, 10 * 1200, name);
  }
  const good = guard.check(ack(0, 4), tracker, 1000, 1000);
  assert.ok(good.ok);
  assert.deepEqual(good.outcome.newlyAcked.map((p) => p.packetNumber), [0, 1, 2, 3, 4]);
  assert.equal(tracker.packetsAcked, 5);
  assert.equal(guard.acksReceived, 3, 'the ACKs that decoded, the two hostile ones included');
  assert.equal(guard.ackDelaySumUs, 3 * 100);
});

test('validation is per session: one peer forging leaves another untouched', () => {
  const hostile = { tracker: trackerWithSent(10), guard: new AckGuard() };
  const honest = { tracker: trackerWithSent(10), guard: new AckGuard() };
  const control = { tracker: trackerWithSent(10), guard: new AckGuard() };
  for (let i = 0; i < 200; i++) hostile.guard.check(i % 2 === 0 ? ack(0, 0) : ack(4, 6), hostile.tracker, 0, 0);
  for (const s of [honest, control]) {
    for (let i = 0; i < 70; i++) assert.ok(s.guard.check(ack(0, Math.min(i, 4)), s.tracker, 0, 0).ok);
  }
  assert.equal(honest.guard.acksReceived, control.guard.acksReceived);
  assert.equal(honest.tracker.packetsAcked, control.tracker.packetsAcked);
  assert.equal(honest.tracker.bytesInFlight, control.tracker.bytesInFlight);
});
