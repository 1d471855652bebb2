import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_ACK_RANGES, MAX_DATA_PAYLOAD_BYTES, MAX_DATAGRAM_BYTES, U48_MAX, dataHeaderLayout, decodeAckDatagram, decodeDataDatagram,
  encodeAckDatagram, encodeDataDatagram, readVarint, varintBytes, writeDataHeader, writeVarint, type PacketRange, type VarintBytes,
} from '../src/index.ts';
import { randomBytes, seededRandom } from './random.ts';

test('DATA round-trips, including 32- and 48-bit extremes, with the shortest header', () => {
  const cases = [
    { requestId: 0, packetNumber: 0, offset: 0, headerBytes: 4 },
    { requestId: 63, packetNumber: 64, offset: 16_383, headerBytes: 1 + 1 + 2 + 2 },
    { requestId: 0xffff_ffff, packetNumber: U48_MAX, offset: U48_MAX - 1000, headerBytes: 1 + 8 + 8 + 8 },
    { requestId: 7, packetNumber: 2 ** 30 - 1, offset: 2 ** 30, headerBytes: 1 + 1 + 4 + 8 },
  ];
  for (const c of cases) {
    const payload = new Uint8Array(MAX_DATAGRAM_BYTES - c.headerBytes).map((_, i) => i & 0xff);
    const bytes = encodeDataDatagram({ ...c, payload: c.offset + payload.byteLength > U48_MAX ? payload.subarray(0, 1000) : payload });
    assert.equal(bytes.byteLength, c.headerBytes + Math.min(payload.byteLength, U48_MAX - c.offset));
    const d = decodeDataDatagram(bytes);
    assert.ok(d.ok);
    assert.equal(d.value.requestId, c.requestId);
    assert.equal(d.value.packetNumber, c.packetNumber);
    assert.equal(d.value.offset, c.offset);
    assert.deepEqual(d.value.payload, bytes.subarray(c.headerBytes));
  }
  assert.throws(() => encodeDataDatagram({ requestId: 1, packetNumber: 1, offset: 0, payload: new Uint8Array(0) }), RangeError);
  assert.throws(() => encodeDataDatagram({ requestId: 1, packetNumber: 1, offset: 0, payload: new Uint8Array(MAX_DATA_PAYLOAD_BYTES + 1) }), RangeError);
  assert.throws(() => encodeDataDatagram({ requestId: 2 ** 32, packetNumber: 1, offset: 0, payload: new Uint8Array(1) }), RangeError);
});

// Byte-exact vectors of wire format v2 (PROTOCOL.md §3.1): a receiver written from the spec must read these.
const DATA_VECTORS: Array<{ hex: string; requestId: number; packetNumber: number; offset: number; payloadHex: string }> = [
  // All three fields in one byte: type 01, request 5, packet 0, offset 0.
  { hex: '01 05 00 00 aa', requestId: 5, packetNumber: 0, offset: 0, payloadHex: 'aa' },
  // Request 1, packet 300 (2-byte form 41 2c), offset 70 000 (4-byte form 80 01 11 70).
  { hex: '01 01 41 2c 80 01 11 70 de ad', requestId: 1, packetNumber: 300, offset: 70_000, payloadHex: 'de ad' },
  // Non-minimal widths are legal: packet 7 in 4 bytes, offset 0 in 8 bytes, request 9 in 2 bytes.
  { hex: '01 40 09 80 00 00 07 c0 00 00 00 00 00 00 00 ff', requestId: 9, packetNumber: 7, offset: 0, payloadHex: 'ff' },
  // The 48-bit maxima: request 2^32 − 1 (4-byte form cannot hold it: 8-byte), packet U48_MAX, offset U48_MAX − 1.
  {
    hex: '01 c0 00 00 00 ff ff ff ff c0 00 ff ff ff ff ff ff c0 00 ff ff ff ff ff fe 00',
    requestId: 0xffff_ffff, packetNumber: U48_MAX, offset: U48_MAX - 1, payloadHex: '00',
  },
];

const fromHex = (hex: string) => new Uint8Array(hex.split(/\s+/).filter(Boolean).map((b) => parseInt(b, 16)));

test('DATA wire vectors decode to their fields; the encoder writes the minimal ones byte for byte', () => {
  for (const v of DATA_VECTORS) {
    const d = decodeDataDatagram(fromHex(v.hex));
    assert.ok(d.ok, v.hex);
    assert.deepEqual([d.value.requestId, d.value.packetNumber, d.value.offset], [v.requestId, v.packetNumber, v.offset], v.hex);
    assert.deepEqual(d.value.payload, fromHex(v.payloadHex));
  }
  for (const v of [DATA_VECTORS[0]!, DATA_VECTORS[1]!, DATA_VECTORS[3]!]) {
    assert.deepEqual(encodeDataDatagram({ ...v, payload: fromHex(v.payloadHex) }), fromHex(v.hex));
  }
  // writeDataHeader with a wider layout writes the non-minimal vector.
  const layout = dataHeaderLayout(9, 2 ** 16, 2 ** 40);
  assert.deepEqual([layout.requestIdBytes, layout.packetNumberBytes, layout.offsetBytes, layout.bytes], [1, 4, 8, 14]);
  const wide = new Uint8Array(16);
  writeDataHeader(wide, 0, { ...layout, requestIdBytes: 2, bytes: 15 }, 9, 7, 0);
  wide[15] = 0xff;
  assert.deepEqual(wide, fromHex(DATA_VECTORS[2]!.hex));
  assert.throws(() => writeDataHeader(wide, 0, dataHeaderLayout(9, 63, 63), 9, 64, 0), RangeError);
});

test('DATA decoding rejects every truncation, oversize, a version-1 header and fields beyond 48 bits', () => {
  const bytes = encodeDataDatagram({ requestId: 1, packetNumber: 500, offset: 100_000, payload: new Uint8Array(20) });
  const headerBytes = 1 + 1 + 2 + 4;
  for (let n = 0; n <= headerBytes; n++) {
    const d = decodeDataDatagram(bytes.subarray(0, n));
    assert.ok(!d.ok && d.error.code === 'truncated', `length ${n}`);
  }
  const big = new Uint8Array(MAX_DATAGRAM_BYTES + 1);
  big[0] = 1;
  const r = decodeDataDatagram(big);
  assert.ok(!r.ok && r.error.code === 'too-large');
  const notData = bytes.slice();
  notData[0] = 2;
  const t = decodeDataDatagram(notData);
  assert.ok(!t.ok && t.error.code === 'unknown-type');
  // An eight-byte packet number above 2^48 − 1.
  const huge = fromHex('01 01 c0 01 00 00 00 00 00 00 00 aa');
  const h = decodeDataDatagram(huge);
  assert.ok(!h.ok && h.error.code === 'invalid-field');
  // A request id above 2^32 − 1.
  const wideId = fromHex('01 c0 00 00 01 00 00 00 00 00 00 aa');
  const w = decodeDataDatagram(wideId);
  assert.ok(!w.ok && w.error.code === 'invalid-field');
  // offset + length beyond 2^48 − 1.
  const overflow = fromHex('01 01 00 c0 00 ff ff ff ff ff ff aa');
  const o = decodeDataDatagram(overflow);
  assert.ok(!o.ok && o.error.code === 'invalid-field');
});

test('varints: every width at its bounds, non-minimal forms, and the 48-bit cap', () => {
  const buffer = new Uint8Array(8);
  const view = new DataView(buffer.buffer);
  const bounds: Array<[number, VarintBytes]> = [[0, 1], [63, 1], [64, 2], [16_383, 2], [16_384, 4], [2 ** 30 - 1, 4], [2 ** 30, 8], [U48_MAX, 8]];
  for (const [value, width] of bounds) {
    assert.equal(varintBytes(value), width, String(value));
    for (const w of [1, 2, 4, 8] as const) {
      if (w < width) continue;
      assert.equal(writeVarint(view, 0, value, w), w);
      const read = readVarint(view, 0);
      assert.ok(typeof read !== 'string');
      assert.deepEqual(read, { value, next: w });
    }
  }
  assert.equal(readVarint(new DataView(fromHex('80 00 00').buffer), 0), 'truncated');
  assert.equal(readVarint(new DataView(fromHex('ff ff ff ff ff ff ff ff').buffer), 0), 'too-large');
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
