// Splitting a packed receive batch (the addon's one buffer + lengths) into its datagrams.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitPackedDatagrams, unpackPushedBatch } from '../src/datagram/packed-datagrams.ts';

function pack(datagrams: Uint8Array[]): { data: Uint8Array; lengths: Uint32Array } {
  const data = new Uint8Array(datagrams.reduce((sum, d) => sum + d.byteLength, 0));
  let at = 0;
  for (const d of datagrams) {
    data.set(d, at);
    at += d.byteLength;
  }
  return { data, lengths: Uint32Array.from(datagrams, (d) => d.byteLength) };
}

test('every datagram comes back once, in order, with its own bytes, whatever its length', () => {
  const datagrams = [Uint8Array.of(1), new Uint8Array(0), new Uint8Array(1452).fill(2), Uint8Array.of(3, 3, 3), new Uint8Array(0)];
  const { data, lengths } = pack(datagrams);
  const split = splitPackedDatagrams(data, lengths);
  assert.deepEqual(split, datagrams);
  // Views over the batch's buffer, not copies: the reassembly keeps pieces of them without another copy.
  assert.equal(split[2]!.buffer, data.buffer);
  assert.equal(split[3]!.byteOffset, 1 + 1452);
});

test('a batch whose datagrams straddle any split point of a stream is cut at the lengths, not elsewhere', () => {
  // One stream of numbered datagrams packed into batches of varying sizes: concatenated, the splits give the stream back.
  const stream = Array.from({ length: 200 }, (_, i) => new Uint8Array(1 + (i * 37) % 300).fill(i & 0xff));
  const out: Uint8Array[] = [];
  for (let from = 0, size = 1; from < stream.length; from += size, size = (size % 7) + 1) {
    const { data, lengths } = pack(stream.slice(from, from + size));
    out.push(...splitPackedDatagrams(data, lengths));
  }
  assert.deepEqual(out, stream);
});

test('an empty batch is no datagrams', () => {
  assert.deepEqual(splitPackedDatagrams(new Uint8Array(0), new Uint32Array(0)), []);
});

test('lengths that do not cover the buffer exactly are refused with what was wrong', () => {
  const data = new Uint8Array(10);
  assert.throws(() => splitPackedDatagrams(data, Uint32Array.of(4, 7)), /length 7 of datagram 1 at byte 4 overruns the batch's 10 bytes/);
  assert.throws(() => splitPackedDatagrams(data, Uint32Array.of(4, 4)), /2 lengths cover 8 of the batch's 10 bytes/);
  assert.throws(() => splitPackedDatagrams(data, new Uint32Array(0)), /0 lengths cover 0 of the batch's 10 bytes/);
  assert.throws(() => splitPackedDatagrams(data, [5, -1, 6]), /length -1 of datagram 1/);
  assert.throws(() => splitPackedDatagrams(data, [2.5, 7.5]), /length 2.5 of datagram 0/);
});

/** A batch laid out as the addon pushes it (stamps, lengths, payloads), built here by hand. */
function pushed(datagrams: Uint8Array[], stampsNs: number[]): ArrayBuffer {
  const header = datagrams.length * 12;
  const packed = new ArrayBuffer(header + datagrams.reduce((sum, d) => sum + d.byteLength, 0));
  new Float64Array(packed, 0, datagrams.length).set(stampsNs);
  new Uint32Array(packed, datagrams.length * 8, datagrams.length).set(datagrams.map((d) => d.byteLength));
  new Uint8Array(packed, header).set(pack(datagrams).data);
  return packed;
}

test('a pushed batch gives its datagrams in order with their stamps, as views of its one buffer', () => {
  const datagrams = [Uint8Array.of(9, 8), new Uint8Array(0), new Uint8Array(1452).fill(7), Uint8Array.of(5)];
  const stampsNs = [1e15, 1e15 + 1, 1e15 + 250, 2e15];
  const packed = pushed(datagrams, stampsNs);
  const batch = unpackPushedBatch(datagrams.length, packed);
  assert.deepEqual(batch.datagrams, datagrams);
  assert.deepEqual(Array.from(batch.receivedAtNs), stampsNs);
  assert.equal(batch.datagrams[2]!.buffer, packed);
  assert.deepEqual(unpackPushedBatch(0, new ArrayBuffer(0)), { datagrams: [], receivedAtNs: new Float64Array(0) });
});

test('a pushed batch too short for its count, or whose lengths do not cover its payloads, is refused', () => {
  const packed = pushed([Uint8Array.of(1, 2, 3)], [5]);
  assert.throws(() => unpackPushedBatch(2, packed), /2 datagrams need 24 bytes of stamps and lengths, the batch has 15/);
  assert.throws(() => unpackPushedBatch(-1, packed), /-1 datagrams/);
  assert.throws(() => unpackPushedBatch(1, packed.slice(0, 14)), /length 3 of datagram 0 at byte 0 overruns the batch's 2 bytes/);
  const longer = new ArrayBuffer(16);
  new Uint8Array(longer).set(new Uint8Array(packed));
  assert.throws(() => unpackPushedBatch(1, longer), /1 lengths cover 3 of the batch's 4 bytes/);
});
