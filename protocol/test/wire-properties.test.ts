// Property-based fuzzing (fast-check) of the wire codecs, PROTOCOL.md §2-3: decoders never throw on any bytes and
// fail only with the documented error codes; whatever they accept re-encodes (ACKs byte for byte, the rest to the
// same value); encoders take every valid value and refuse the rest with a RangeError; the spec's limits hold on
// the receiving side too. A fixed number of runs per property keeps `npm test` short (issue 20 item 3).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  DELIVERY_DATAGRAMS, DELIVERY_STREAM, FRAME_PREFIX_BYTES, FRAME_TYPE_CANCEL, FRAME_TYPE_DONE, FRAME_TYPE_REQUEST,
  FRAME_TYPE_RESPONSE, MAX_ACK_RANGES, MAX_DATAGRAM_BYTES, MAX_PATH_BYTES, StreamFrameReader, U48_MAX, dataHeaderLayout,
  decodeAckDatagram, decodeDataDatagram, encodeAckDatagram, encodeDataDatagram, encodeStreamFrame, type AckDatagram,
  type ProtocolErrorCode, type Result, type StreamFrame,
} from '../src/index.ts';

const RUNS = 2000;
const ERROR_CODES: readonly ProtocolErrorCode[] = [
  'truncated', 'unknown-type', 'unsupported-version', 'invalid-field', 'too-large', 'bad-ack-range', 'ack-of-unsent',
  'optimistic-ack', 'out-of-bounds',
];
/** PROTOCOL.md §2.2: the RESPONSE reason is at most 512 bytes. */
const MAX_REASON_BYTES = 512;

function assertDocumentedFailure(r: Result<unknown>): void {
  if (r.ok) return;
  assert.ok(ERROR_CODES.includes(r.error.code), `undocumented error code ${r.error.code}`);
  assert.equal(typeof r.error.message, 'string');
  assert.ok(r.error.message.length > 0);
}

const u32 = fc.integer({ min: 0, max: 0xffff_ffff });
const u48 = fc.integer({ min: 0, max: U48_MAX });
/** Bytes with a chosen first byte often enough that the decoders get past their type check. */
const bytesStartingWith = (types: number[], maxLength: number) =>
  fc.tuple(fc.constantFrom(...types), fc.uint8Array({ maxLength })).map(([t, rest]) => Uint8Array.of(t, ...rest));

test('ACK: any bytes decode or fail with a documented code, and what decodes re-encodes byte for byte', () => {
  fc.assert(fc.property(fc.oneof(fc.uint8Array({ maxLength: 600 }), bytesStartingWith([0x02], 600)), (bytes) => {
    const r = decodeAckDatagram(bytes);
    assertDocumentedFailure(r);
    if (r.ok) assert.deepEqual(encodeAckDatagram(r.value), bytes);
  }), { numRuns: RUNS });
});

/** Valid ACKs: descending ranges separated by at least one missing number, all within 48 bits. */
const validAck: fc.Arbitrary<AckDatagram> = fc.record({
  top: u48,
  shape: fc.array(fc.tuple(fc.integer({ min: 0, max: 2 ** 20 }), fc.integer({ min: 0, max: 2 ** 20 })), { minLength: 1, maxLength: MAX_ACK_RANGES }),
  ackDelayUs: u32,
  largestRecvTimeUs: u48,
  windowBytes: u32,
}).map(({ top, shape, ackDelayUs, largestRecvTimeUs, windowBytes }) => {
  const ranges = [];
  let largest = top;
  for (const [length, gap] of shape) {
    if (largest < 0) break;
    const smallest = Math.max(0, largest - length);
    ranges.push({ smallest, largest });
    largest = smallest - gap - 2;
  }
  return { ranges, ackDelayUs, largestRecvTimeUs, windowBytes };
});

test('ACK: every valid ACK encodes and decodes to itself', () => {
  fc.assert(fc.property(validAck, (ack) => {
    const r = decodeAckDatagram(encodeAckDatagram(ack));
    assert.ok(r.ok, r.ok ? '' : r.error.message);
    assert.deepEqual(r.value, ack);
  }), { numRuns: RUNS });
});

test('DATA: any bytes decode or fail with a documented code; what decodes is within the spec and re-encodes to the same value', () => {
  fc.assert(fc.property(fc.oneof(fc.uint8Array({ maxLength: MAX_DATAGRAM_BYTES + 8 }), bytesStartingWith([0x01], 64)), (bytes) => {
    const r = decodeDataDatagram(bytes);
    assertDocumentedFailure(r);
    if (!r.ok) return;
    const d = r.value;
    assert.ok(d.payload.byteLength >= 1 && bytes.byteLength <= MAX_DATAGRAM_BYTES);
    assert.ok(d.requestId <= 0xffff_ffff && d.offset + d.payload.byteLength <= U48_MAX);
    // The shortest header may be shorter than the one received (a sender may pad widths), never longer.
    const again = decodeDataDatagram(encodeDataDatagram(d));
    assert.ok(again.ok);
    assert.deepEqual({ ...again.value, payload: [...again.value.payload] }, { ...d, payload: [...d.payload] });
  }), { numRuns: RUNS });
});

test('DATA: every valid datagram encodes with the shortest header and decodes to itself', () => {
  const valid = fc.record({ requestId: u32, packetNumber: u48, offset: fc.integer({ min: 0, max: U48_MAX - MAX_DATAGRAM_BYTES }), length: fc.integer({ min: 1, max: MAX_DATAGRAM_BYTES }) })
    .map(({ requestId, packetNumber, offset, length }) => {
      const room = MAX_DATAGRAM_BYTES - dataHeaderLayout(requestId, packetNumber, offset).bytes;
      return { requestId, packetNumber, offset, payload: new Uint8Array(Math.min(length, room)).fill(0xa5) };
    });
  fc.assert(fc.property(valid, (d) => {
    const bytes = encodeDataDatagram(d);
    assert.equal(bytes.byteLength, dataHeaderLayout(d.requestId, d.packetNumber, d.offset).bytes + d.payload.byteLength);
    const r = decodeDataDatagram(bytes);
    assert.ok(r.ok);
    assert.deepEqual({ ...r.value, payload: [...r.value.payload] }, { ...d, payload: [...d.payload] });
  }), { numRuns: RUNS });
});

/** Splits bytes into chunks at the given cut points, as a stream delivers them. */
function chunks(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.byteLength + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of [...points, bytes.byteLength]) {
    out.push(bytes.subarray(at, p));
    at = p;
  }
  return out;
}

/** Reads every frame a stream holds: the frames, then the error or null when it ended cleanly. */
function readAll(parts: Uint8Array[]): { frames: StreamFrame[]; failure: Result<never> | null } {
  const reader = new StreamFrameReader();
  const frames: StreamFrame[] = [];
  for (const part of parts) {
    reader.push(part);
    for (;;) {
      const r = reader.next();
      if (!r.ok) return { frames, failure: r };
      if (r.value === null) break;
      frames.push(r.value);
    }
  }
  return { frames, failure: null };
}

/** A RESPONSE frame with a valid fixed part, no content type or CMSD, and a reason of `reasonBytes` bytes. */
function responseWithReason(reasonBytes: number): Uint8Array {
  const fixed = new Uint8Array(26);
  fixed.set([0, 0, 0, 1, 0, 200, DELIVERY_DATAGRAMS]);
  const body = Uint8Array.of(...fixed, 0, 0, ...new Uint8Array(reasonBytes).fill(0x61));
  return Uint8Array.of(FRAME_TYPE_RESPONSE, body.byteLength >> 8, body.byteLength & 0xff, ...body);
}

const frameBytes = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  // A well-formed prefix (type and length) in front of random payloads, so decoding reaches every field.
  fc.tuple(fc.constantFrom(FRAME_TYPE_REQUEST, FRAME_TYPE_RESPONSE, FRAME_TYPE_DONE, FRAME_TYPE_CANCEL), fc.uint8Array({ maxLength: 700 }))
    .map(([type, payload]) => Uint8Array.of(type, payload.byteLength >> 8, payload.byteLength & 0xff, ...payload)),
  fc.integer({ min: 0, max: 700 }).map(responseWithReason),
);

test('stream frames: any bytes, however split, read as frames or one documented failure; accepted frames meet the spec and re-encode to the same frame', () => {
  fc.assert(fc.property(frameBytes, fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
    const { frames, failure } = readAll(chunks(bytes, cuts));
    if (failure) assertDocumentedFailure(failure);
    for (const f of frames) {
      if (f.type === 'request') {
        assert.ok(f.path.startsWith('/') && new TextEncoder().encode(f.path).byteLength <= MAX_PATH_BYTES);
      }
      if (f.type === 'response') {
        assert.ok(new TextEncoder().encode(f.reason).byteLength <= MAX_REASON_BYTES, `accepted a ${new TextEncoder().encode(f.reason).byteLength}-byte reason`);
      }
      const again = readAll([encodeStreamFrame(f)]);
      assert.equal(again.failure, null);
      assert.deepEqual(again.frames, [f]);
    }
  }), { numRuns: RUNS, examples: [[responseWithReason(MAX_REASON_BYTES + 1), []]] }); // once accepted
});

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 255 });
const validFrame: fc.Arbitrary<StreamFrame> = fc.oneof(
  fc.record({
    type: fc.constant('request' as const), requestId: u32, windowBytes: u32,
    path: fc.string({ unit: 'grapheme', minLength: 0, maxLength: 200 }).map((s) => '/' + s),
    range: fc.option(fc.tuple(u48, u48).map(([a, b]) => ({ start: Math.min(a, b), end: Math.max(a, b) === U48_MAX ? undefined : Math.max(a, b) })), { nil: undefined }),
  }).map((f) => {
    const { range, ...rest } = f;
    const r = range === undefined ? rest : { ...rest, range: range.end === undefined ? { start: range.start } : range };
    return r;
  }),
  fc.record({
    type: fc.constant('response' as const), requestId: u32, status: fc.integer({ min: 100, max: 999 }),
    delivery: fc.constantFrom(DELIVERY_DATAGRAMS, DELIVERY_STREAM), totalSize: u48, bodyOffset: u48, bodyLength: u48,
    contentType: fc.string({ maxLength: 60 }), reason: fc.string({ maxLength: 120 }),
    cmsdStatic: fc.option(printable.filter((s) => s.length > 0), { nil: undefined }),
    cmsdDynamic: fc.option(printable.filter((s) => s.length > 0), { nil: undefined }),
  }).map((f) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as unknown as StreamFrame),
  fc.record({ type: fc.constant('done' as const), requestId: u32, bytesSent: u48, retransmittedBytes: u48, packetsSent: u32, packetsLost: u32, durationUs: u48 }),
  fc.record({ type: fc.constant('cancel' as const), requestId: u32 }),
).map((f) => ({ ...f })); // plain objects, as the reader builds them

test('stream frames: every valid frame sequence, however split, reads back as itself', () => {
  fc.assert(fc.property(fc.array(validFrame, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 8 }), (frames, cuts) => {
    const encoded = frames.map((f) => encodeStreamFrame(f));
    const all = new Uint8Array(encoded.reduce((n, e) => n + e.byteLength, 0));
    let at = 0;
    for (const e of encoded) {
      assert.ok(e.byteLength >= FRAME_PREFIX_BYTES);
      all.set(e, at);
      at += e.byteLength;
    }
    const { frames: read, failure } = readAll(chunks(all, cuts));
    assert.equal(failure, null);
    assert.deepEqual(read, frames);
  }), { numRuns: RUNS });
});

test('encoders refuse values outside the spec with a RangeError, and what they encode decodes to the same value', () => {
  // -0 is 0 on the wire; deepEqual would tell them apart.
  const anyNumber = fc.oneof(u48, fc.double(), fc.integer(), fc.constantFrom(-1, 0.5, 2 ** 53, U48_MAX + 1, 0x1_0000_0000, Number.NaN))
    .map((n) => (Object.is(n, -0) ? 0 : n));
  const encodes = (encode: () => Uint8Array, decode: (bytes: Uint8Array) => unknown, expected: unknown): void => {
    let bytes: Uint8Array;
    try {
      bytes = encode();
    } catch (e) {
      assert.ok(e instanceof RangeError, `threw ${String(e)}`);
      return;
    }
    assert.deepEqual(decode(bytes), expected);
  };
  fc.assert(fc.property(anyNumber, anyNumber, anyNumber, fc.string({ maxLength: 3000 }), (a, b, c, text) => {
    const ack = { ranges: [{ smallest: a, largest: b }], ackDelayUs: c, largestRecvTimeUs: 7, windowBytes: 1 };
    encodes(() => encodeAckDatagram(ack), (bytes) => decodeAckDatagram(bytes), { ok: true, value: ack });
    const data = { requestId: a, packetNumber: b, offset: c, payload: new Uint8Array(1 + (text.length % 1400)) };
    encodes(() => encodeDataDatagram(data), (bytes) => {
      const r = decodeDataDatagram(bytes);
      return r.ok ? { ok: true, value: { ...r.value, payload: r.value.payload.byteLength } } : r;
    }, { ok: true, value: { ...data, payload: data.payload.byteLength } });
    const request: StreamFrame = { type: 'request', requestId: a, windowBytes: b, path: '/' + text, range: { start: c } };
    encodes(() => encodeStreamFrame(request), (bytes) => readAll([bytes]).frames, [request]);
    const response: StreamFrame = { type: 'response', requestId: 1, status: 200, delivery: DELIVERY_STREAM, totalSize: a, bodyOffset: b, bodyLength: c, contentType: '', reason: text };
    encodes(() => encodeStreamFrame(response), (bytes) => readAll([bytes]).frames, [response]);
  }), { numRuns: RUNS, examples: [[0, -1, 0, ''], [0, 2 ** 32, 0, '']] }); // ACK ranges the encoder once wrapped
});
