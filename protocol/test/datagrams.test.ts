import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_ACK_RANGES, MAX_DATA_PAYLOAD_BYTES, MAX_DATAGRAM_BYTES, U48_MAX, decodeAckDatagram, decodeDataDatagram,
  encodeAckDatagram, encodeDataDatagram, type PacketRange,
} from '../src/index.ts';
import { randomBytes, seededRandom } from './random.ts';

test('DATA round-trips, including 48-bit extremes', () => {
  const payload = new Uint8Array(MAX_DATA_PAYLOAD_BYTES).map((_, i) => i & 0xff);
  const cases = [
    { requestId: 0, packetNumber: 0, offset: 0 },
    { requestId: 0xffff_ffff, packetNumber: U48_MAX, offset: U48_MAX - payload.byteLength },
    { requestId: 7, packetNumber: 2 ** 40 + 3, offset: 2 ** 33 + 1 },
  ];
  for (const c of cases) {
    const bytes = encodeDataDatagram({ ...c, payload });
    assert.equal(bytes.byteLength, MAX_DATAGRAM_BYTES);
    const d = decodeDataDatagram(bytes);
    assert.ok(d.ok);
    assert.equal(d.value.requestId, c.requestId);
    assert.equal(d.value.packetNumber, c.packetNumber);
    assert.equal(d.value.offset, c.offset);
    assert.deepEqual(d.value.payload, payload);
  }
  assert.throws(() => encodeDataDatagram({ requestId: 1, packetNumber: 1, offset: 0, payload: new Uint8Array(0) }), RangeError);
});

test('DATA decoding rejects every truncation and oversize with a typed error', () => {
  const bytes = encodeDataDatagram({ requestId: 1, packetNumber: 5, offset: 10, payload: new Uint8Array(20) });
  for (let n = 0; n <= 18; n++) {
    const d = decodeDataDatagram(bytes.subarray(0, n));
    assert.equal(d.ok, false);
    if (!d.ok) assert.equal(d.error.code, n === 0 || n < 19 ? 'truncated' : 'unknown-type');
  }
  const big = new Uint8Array(MAX_DATAGRAM_BYTES + 1);
  big[0] = 1;
  const r = decodeDataDatagram(big);
  assert.ok(!r.ok && r.error.code === 'too-large');
  const flagged = bytes.slice();
  flagged[1] = 4;
  const f = decodeDataDatagram(flagged);
  assert.ok(!f.ok && f.error.code === 'invalid-field');
  const overflow = encodeDataDatagram({ requestId: 1, packetNumber: 5, offset: U48_MAX - 1, payload: new Uint8Array(1) }).slice();
  overflow[17] = 0xff; // offset = U48_MAX, + 1 byte overflows
  const o = decodeDataDatagram(overflow);
  assert.ok(!o.ok && o.error.code === 'invalid-field');
});

function randomRanges(random: () => number, count: number): PacketRange[] {
  const ranges: PacketRange[] = [];
  let top = 1_000_000 + Math.floor(random() * 1_000_000);
  for (let i = 0; i < count; i++) {
    const length = Math.floor(random() * 50);
    ranges.push({ largest: top, smallest: top - length });
    top = top - length - 2 - Math.floor(random() * 30);
  }
  return ranges;
}

test('ACK round-trips with 1..64 ranges', () => {
  const random = seededRandom(2);
  for (let n = 1; n <= MAX_ACK_RANGES; n++) {
    const ack = { ranges: randomRanges(random, n), ackDelayUs: n * 17, largestRecvTimeUs: 2 ** 45 + n, windowBytes: 0xffff_ffff - n };
    const decoded = decodeAckDatagram(encodeAckDatagram(ack));
    assert.ok(decoded.ok);
    assert.deepEqual(decoded.value, ack);
  }
  assert.throws(() => encodeAckDatagram({ ranges: [], ackDelayUs: 0, largestRecvTimeUs: 0, windowBytes: 0 }), RangeError);
  assert.throws(() => encodeAckDatagram({ ranges: [{ smallest: 5, largest: 9 }, { smallest: 1, largest: 4 }], ackDelayUs: 0, largestRecvTimeUs: 0, windowBytes: 0 }), RangeError);
});

test('ACK decoding: truncation, trailing bytes, zero ranges, ranges below 0', () => {
  const good = encodeAckDatagram({ ranges: [{ smallest: 90, largest: 100 }, { smallest: 10, largest: 20 }], ackDelayUs: 5, largestRecvTimeUs: 9, windowBytes: 1000 });
  for (let n = 0; n < good.byteLength; n++) {
    const r = decodeAckDatagram(good.subarray(0, n));
    assert.ok(!r.ok && r.error.code === 'truncated', `length ${n}`);
  }
  const trailing = new Uint8Array(good.byteLength + 1);
  trailing.set(good);
  const t = decodeAckDatagram(trailing);
  assert.ok(!t.ok && t.error.code === 'invalid-field');
  const zero = good.slice();
  zero[22] = 0;
  const z = decodeAckDatagram(zero);
  assert.ok(!z.ok && z.error.code === 'invalid-field');
  // First range longer than the largest packet number.
  const under = encodeAckDatagram({ ranges: [{ smallest: 0, largest: 3 }], ackDelayUs: 0, largestRecvTimeUs: 0, windowBytes: 0 }).slice();
  new DataView(under.buffer).setUint32(23, 0xffff_ffff);
  const u = decodeAckDatagram(under);
  assert.ok(!u.ok && u.error.code === 'bad-ack-range');
  // A gap that walks below 0.
  const gapUnder = good.slice();
  new DataView(gapUnder.buffer).setUint32(27, 0xffff_fff0);
  const g = decodeAckDatagram(gapUnder);
  assert.ok(!g.ok && g.error.code === 'bad-ack-range');
});

test('random bytes never make the datagram decoders throw', () => {
  const random = seededRandom(3);
  for (let i = 0; i < 20000; i++) {
    const bytes = randomBytes(random, Math.floor(random() * 1300));
    if (i % 2 === 0 && bytes.byteLength > 0) bytes[0] = 1 + (i % 4 === 0 ? 1 : 0);
    const a = decodeAckDatagram(bytes);
    const d = decodeDataDatagram(bytes);
    if (a.ok) assert.ok(a.value.ranges.every((r) => r.smallest >= 0 && r.smallest <= r.largest));
    if (!d.ok) assert.equal(typeof d.error.message, 'string');
  }
});
