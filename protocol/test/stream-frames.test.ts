import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DELIVERY_DATAGRAMS, DELIVERY_STREAM, StreamFrameReader, U48_MAX, encodeStreamFrame, type StreamFrame,
} from '../src/index.ts';
import { randomBytes, seededRandom } from './random.ts';

const frames: StreamFrame[] = [
  { type: 'request', requestId: 1, path: '/abr/manifest.mpd', windowBytes: 1 << 20 },
  { type: 'request', requestId: 0xffff_ffff, path: '/v/seg-1.m4s?x=ü', windowBytes: 0, range: { start: 100, end: 199 } },
  { type: 'request', requestId: 3, path: '/a', windowBytes: 5, range: { start: 2 ** 40 } },
  { type: 'response', requestId: 1, status: 200, delivery: DELIVERY_DATAGRAMS, totalSize: 5000, bodyOffset: 0, bodyLength: 5000, contentType: 'application/dash+xml', reason: '' },
  { type: 'response', requestId: 2, status: 416, delivery: DELIVERY_STREAM, totalSize: U48_MAX, bodyOffset: 0, bodyLength: 0, contentType: '', reason: 'range not satisfiable' },
  { type: 'response', requestId: 3, status: 206, delivery: DELIVERY_DATAGRAMS, totalSize: 900, bodyOffset: 100, bodyLength: 200, contentType: 'video/mp4', reason: '', cmsdStatic: 'sf=d', cmsdDynamic: '"pcc-origin";etp=41000;rtt=12' },
  { type: 'done', requestId: 9, bytesSent: 2 ** 35, retransmittedBytes: 1234, packetsSent: 99, packetsLost: 3, durationUs: 1e9 },
  { type: 'cancel', requestId: 77 },
];

test('stream frames round-trip whole and byte by byte', () => {
  const all = frames.map(encodeStreamFrame);
  const reader = new StreamFrameReader();
  for (const bytes of all) reader.push(bytes);
  for (const expected of frames) {
    const r = reader.next();
    assert.ok(r.ok);
    assert.deepEqual(r.value, expected);
  }
  const end = reader.next();
  assert.ok(end.ok && end.value === null);

  const slow = new StreamFrameReader();
  const got: StreamFrame[] = [];
  for (const bytes of all) {
    for (const b of bytes) {
      slow.push(Uint8Array.of(b));
      const r = slow.next();
      assert.ok(r.ok);
      if (r.value) got.push(r.value);
    }
  }
  assert.deepEqual(got, frames);
});

test('raw body bytes after a frame are handed out by takeRaw', () => {
  const reader = new StreamFrameReader();
  const head = encodeStreamFrame(frames[3]!);
  const joined = new Uint8Array(head.byteLength + 3);
  joined.set(head);
  joined.set([7, 8, 9], head.byteLength);
  reader.push(joined);
  assert.ok(reader.next().ok);
  assert.deepEqual(reader.takeRaw(), Uint8Array.of(7, 8, 9));
});

function expectError(bytes: Uint8Array, code: string): void {
  const reader = new StreamFrameReader();
  reader.push(bytes);
  const r = reader.next();
  assert.ok(!r.ok, `expected ${code}`);
  assert.equal(r.error.code, code);
  // The reader stays failed.
  const again = reader.next();
  assert.ok(!again.ok);
}

test('malformed stream frames give typed errors', () => {
  expectError(Uint8Array.of(0x55, 0, 0), 'unknown-type');
  expectError(Uint8Array.of(0x10, 0xff, 0xff), 'too-large');
  const request = encodeStreamFrame(frames[0]!);
  const badVersion = request.slice();
  badVersion[3] = 9;
  expectError(badVersion, 'unsupported-version');
  const badPath = request.slice();
  badPath[3 + 22] = 0x41; // path no longer starts with '/'
  expectError(badPath, 'invalid-field');
  const badUtf8 = request.slice();
  badUtf8[3 + 23] = 0xff;
  expectError(badUtf8, 'invalid-field');
  const shortCancel = Uint8Array.of(0x13, 0, 2, 0, 1);
  expectError(shortCancel, 'truncated');
  const badRange = encodeStreamFrame(frames[1]!).slice();
  new DataView(badRange.buffer).setUint32(3 + 18, 1); // end < start
  new DataView(badRange.buffer).setUint16(3 + 16, 0);
  expectError(badRange, 'invalid-field');
  const badFlags = request.slice();
  badFlags[3 + 9] = 6;
  expectError(badFlags, 'invalid-field');
  const badDelivery = encodeStreamFrame(frames[3]!).slice();
  badDelivery[3 + 6] = 7;
  expectError(badDelivery, 'invalid-field');
});

test('encoders refuse invalid frames', () => {
  assert.throws(() => encodeStreamFrame({ type: 'request', requestId: 1, path: 'no-slash', windowBytes: 1 }), RangeError);
  assert.throws(() => encodeStreamFrame({ type: 'request', requestId: 1, path: '/' + 'a'.repeat(3000), windowBytes: 1 }), RangeError);
  assert.throws(() => encodeStreamFrame({ type: 'request', requestId: -1, path: '/a', windowBytes: 1 }), RangeError);
  assert.throws(() => encodeStreamFrame({ type: 'request', requestId: 1, path: '/a', windowBytes: 1, range: { start: 5, end: 4 } }), RangeError);
});

test('random byte streams never make the reader throw', () => {
  const random = seededRandom(4);
  for (let i = 0; i < 5000; i++) {
    const reader = new StreamFrameReader();
    const bytes = randomBytes(random, Math.floor(random() * 200));
    if (bytes.byteLength > 2) {
      bytes[0] = 0x10 + Math.floor(random() * 4);
      bytes[1] = 0;
    }
    reader.push(bytes);
    for (let k = 0; k < 5; k++) {
      const r = reader.next();
      if (!r.ok || r.value === null) break;
    }
  }
});

test('RESPONSE v3 layout: CMSD-Static and CMSD-Dynamic after the content type, reason last (PROTOCOL.md §2.2)', () => {
  const bytes = encodeStreamFrame({
    type: 'response', requestId: 1, status: 200, delivery: DELIVERY_DATAGRAMS, totalSize: 4, bodyOffset: 0, bodyLength: 4,
    contentType: 'a/b', reason: 'r', cmsdStatic: 'sf=d', cmsdDynamic: '"o";etp=5',
  });
  const hex = Buffer.from(bytes).toString('hex');
  // type, length 45: fixed 26 B (id, status, delivery, sizes, ctype length 3), "a/b", 4 "sf=d", 9 "\"o\";etp=5", "r"
  assert.equal(hex, '11002d' + '00000001' + '00c8' + '00' + '000000000004' + '000000000000' + '000000000004' + '03'
    + Buffer.from('a/b').toString('hex') + '04' + Buffer.from('sf=d').toString('hex') + '09' + Buffer.from('"o";etp=5').toString('hex')
    + Buffer.from('r').toString('hex'));
  assert.throws(() => encodeStreamFrame({
    type: 'response', requestId: 1, status: 200, delivery: DELIVERY_DATAGRAMS, totalSize: 0, bodyOffset: 0, bodyLength: 0,
    contentType: '', reason: '', cmsdDynamic: 'x'.repeat(256),
  }), /CMSD/);
  const hostile = Uint8Array.from([0x11, 0, 29, ...new Uint8Array(25), 0, 1, 0x07, 0]);
  const r = new StreamFrameReader();
  r.push(hostile);
  const decoded = r.next();
  assert.ok(!decoded.ok && decoded.error.code === 'invalid-field', 'a control character in CMSD is refused');
});
