import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  AckBuilder, BodyReassembly, DatagramReceiver, decodeAckDatagram, encodeDataDatagram, type AckDatagram,
} from '../src/index.ts';
import { seededRandom } from './random.ts';

function decodeAck(bytes: Uint8Array | null): AckDatagram {
  assert.ok(bytes);
  const r = decodeAckDatagram(bytes);
  assert.ok(r.ok);
  return r.value;
}

test('AckBuilder acks every N in-order packets, or after the delay', () => {
  const acks = new AckBuilder({ ackEveryPackets: 4, maxAckDelayUs: 2000 });
  assert.equal(acks.poll(0, 100), null);
  for (let pn = 0; pn < 3; pn++) acks.onPacket(pn, 1000 + pn);
  assert.equal(acks.ackDueAtUs(), 3000);
  assert.equal(acks.poll(2999, 100), null);
  acks.onPacket(3, 1500);
  assert.equal(acks.ackDueAtUs(), 1000);
  const ack = decodeAck(acks.poll(1600, 100));
  assert.deepEqual(ack.ranges, [{ smallest: 0, largest: 3 }]);
  assert.equal(ack.ackDelayUs, 100);
  assert.equal(ack.largestRecvTimeUs, 1500);
  assert.equal(ack.windowBytes, 100);
  assert.equal(acks.ackDueAtUs(), null);
  acks.onPacket(4, 5000);
  assert.equal(acks.poll(6999, 1), null);
  assert.ok(acks.poll(7000, 1));
});

test('AckBuilder acks at once on a gap or a duplicate and reports SACK ranges', () => {
  const acks = new AckBuilder({ ackEveryPackets: 10, maxAckDelayUs: 10_000 });
  acks.onPacket(0, 0);
  acks.onPacket(1, 0);
  acks.onPacket(5, 10);
  const ack = decodeAck(acks.poll(10, 0));
  assert.deepEqual(ack.ranges, [{ smallest: 5, largest: 5 }, { smallest: 0, largest: 1 }]);
  assert.equal(acks.onPacket(5, 20), false);
  assert.equal(acks.ackDueAtUs(), 20);
  acks.onPacket(3, 30);
  const second = decodeAck(acks.poll(30, 0));
  assert.deepEqual(second.ranges, [{ smallest: 5, largest: 5 }, { smallest: 3, largest: 3 }, { smallest: 0, largest: 1 }]);
});

test('AckBuilder keeps at most maxRanges ranges', () => {
  const acks = new AckBuilder({ maxRanges: 8 });
  for (let pn = 0; pn < 100; pn += 2) acks.onPacket(pn, pn);
  const ack = decodeAck(acks.poll(1000, 0, true));
  assert.equal(ack.ranges.length, 8);
  assert.equal(ack.ranges[0]!.largest, 98);
  assert.equal(ack.ranges[7]!.smallest, 84);
});

test('BodyReassembly rebuilds a body from shuffled, duplicated, re-split pieces', () => {
  const random = seededRandom(5);
  for (let round = 0; round < 30; round++) {
    const length = 1 + Math.floor(random() * 20000);
    const body = new Uint8Array(length).map(() => Math.floor(random() * 256));
    const pieces: Array<[number, number]> = [];
    for (let at = 0; at < length;) {
      const n = Math.min(length - at, 1 + Math.floor(random() * 1182));
      pieces.push([at, at + n]);
      at += n;
    }
    // Overlapping re-splits, as after a retransmission with different boundaries.
    for (let k = 0; k < 10; k++) {
      const s = Math.floor(random() * length);
      pieces.push([s, Math.min(length, s + 1 + Math.floor(random() * 3000))]);
    }
    pieces.sort(() => random() - 0.5);
    const r = new BodyReassembly(round % 2 === 0 ? length : undefined);
    const out: Uint8Array[] = [];
    let fresh = 0;
    for (const [s, e] of pieces) {
      const got = r.onData(s, body.subarray(s, e));
      assert.ok(got.ok);
      fresh += got.value;
      if (random() < 0.3) out.push(...r.take());
    }
    if (round % 2 === 1) assert.ok(r.setLength(length).ok);
    out.push(...r.take());
    assert.equal(fresh, length);
    assert.ok(r.complete);
    assert.equal(r.bufferedBytes, 0);
    const joined = new Uint8Array(length);
    let at = 0;
    for (const c of out) {
      joined.set(c, at);
      at += c.byteLength;
    }
    assert.equal(at, length);
    assert.deepEqual(joined, body);
  }
});

test('BodyReassembly rejects bytes beyond the body', () => {
  const r = new BodyReassembly(10);
  const e = r.onData(5, new Uint8Array(6));
  assert.ok(!e.ok && e.error.code === 'out-of-bounds');
  const late = new BodyReassembly();
  assert.ok(late.onData(100, new Uint8Array(5)).ok);
  const s = late.setLength(50);
  assert.ok(!s.ok && s.error.code === 'out-of-bounds');
  assert.ok(!new BodyReassembly().setLength(-1).ok);
});

test('DatagramReceiver: window shrinks with held bytes, reopens with a prompt window update', () => {
  const rx = new DatagramReceiver({ maxWindowBytes: 4000, ackEveryPackets: 100, maxAckDelayUs: 1_000_000 });
  rx.open(1);
  assert.ok(rx.setBodyLength(1, 3000).ok);
  for (let k = 0; k < 3; k++) {
    const r = rx.onDatagram(encodeDataDatagram({ requestId: 1, packetNumber: k, offset: k * 1000, payload: new Uint8Array(1000).fill(k) }), k);
    assert.ok(r.ok && r.value.newBytes === 1000);
  }
  assert.equal(rx.windowBytes(), 1000);
  assert.equal(decodeAck(rx.poll(1_000_000)).windowBytes, 1000);
  assert.equal(rx.ackDueAtUs(), null);
  const chunks = rx.take(1, 1_000_001);
  assert.equal(chunks.reduce((s, c) => s + c.byteLength, 0), 3000);
  assert.ok(rx.isComplete(1));
  assert.equal(rx.windowBytes(), 4000);
  assert.equal(rx.ackDueAtUs(), 1_000_001, 'window update is due at once');
  assert.equal(decodeAck(rx.poll(1_000_001)).windowBytes, 4000);
  // Unknown requests are acknowledged but dropped; malformed datagrams are counted, not thrown.
  const unknown = rx.onDatagram(encodeDataDatagram({ requestId: 9, packetNumber: 3, offset: 0, payload: new Uint8Array(5) }), 2_000_000);
  assert.ok(unknown.ok && unknown.value.newBytes === 0);
  assert.equal(rx.datagramsIgnored, 1);
  assert.ok(!rx.onDatagram(Uint8Array.of(1, 2, 3), 0).ok);
  assert.ok(!rx.onDatagram(new Uint8Array(0), 0).ok);
  assert.equal(rx.datagramsMalformed, 2);
  rx.close(1);
  assert.equal(rx.openRequests, 0);
});

test('DatagramReceiver.poll(now, force) sends a tail ACK at once, only when something awaits acknowledgement', () => {
  const rx = new DatagramReceiver({ ackEveryPackets: 4, maxAckDelayUs: 2000 });
  rx.open(1);
  assert.ok(rx.setBodyLength(1, 10).ok);
  assert.equal(rx.poll(0, true), null, 'nothing received yet');
  assert.ok(rx.onDatagram(encodeDataDatagram({ requestId: 1, packetNumber: 0, offset: 0, payload: new Uint8Array(10) }), 1000).ok);
  assert.ok(rx.isComplete(1));
  assert.equal(rx.poll(1000), null, 'the delayed-ACK timer has not expired');
  const tail = decodeAck(rx.poll(1010, true));
  assert.deepEqual(tail.ranges, [{ smallest: 0, largest: 0 }]);
  assert.equal(tail.ackDelayUs, 10);
  assert.equal(rx.ackDueAtUs(), null);
  assert.equal(rx.poll(1020, true), null, 'nothing new to acknowledge');
});
