// The worker's response body (transport/body-buffer.ts): a continuous stream (stream=1) announces every byte left of
// the stream, so the body must hold only what arrived and was not yet handed on, never the announced length.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { U48_MAX } from '@pcc-stream/protocol';
import { BodyBuffer } from '../src/transport/body-buffer.ts';

const CHUNK_BYTES = 64 * 1024;
const chunk = (seed: number): Uint8Array => Uint8Array.from({ length: CHUNK_BYTES }, (_, i) => (seed * 31 + i) & 0xff);

test('a chunked body announcing ~2^48 bytes holds only the bytes since the last hand-over', () => {
  // A buffer of the announced length cannot even be made (RangeError): the body must grow with what arrives.
  const declared = U48_MAX - 1;
  const body = new BodyBuffer(declared, true);
  const perHandOver = 4;
  let handedOn = 0;
  let peakRetained = 0;
  for (let i = 0; i < 64; i++) {
    body.append(chunk(i));
    peakRetained = Math.max(peakRetained, body.retainedBytes);
    if (i % perHandOver === perHandOver - 1) {
      const bytes = new Uint8Array(body.takeNew());
      assert.equal(bytes.byteLength, perHandOver * CHUNK_BYTES);
      // In order, unchanged: the first chunk of this hand-over at its start.
      assert.deepEqual(bytes.subarray(0, CHUNK_BYTES), chunk(i - perHandOver + 1));
      handedOn += bytes.byteLength;
      assert.equal(body.retainedBytes, 0);
    }
  }
  assert.equal(body.filled, 64 * CHUNK_BYTES);
  assert.equal(handedOn, body.filled);
  assert.equal(peakRetained, perHandOver * CHUNK_BYTES, 'held no more than one hand-over interval of bytes');
  assert.equal(body.complete, false);
  assert.equal(body.takeNew().byteLength, 0);
  assert.throws(() => body.whole(), /went out in pieces/);
});

test('a whole body is joined once complete; bytes past the announced length are refused', () => {
  const body = new BodyBuffer(2 * CHUNK_BYTES + 3, false);
  body.append(chunk(1));
  assert.throws(() => body.whole(), /65536 of 131075 bytes/);
  body.append(chunk(2));
  assert.throws(() => body.append(new Uint8Array(4)), /longer than announced/);
  body.append(Uint8Array.of(7, 8, 9));
  assert.equal(body.complete, true);
  const all = new Uint8Array(body.whole());
  assert.equal(all.byteLength, 2 * CHUNK_BYTES + 3);
  assert.deepEqual(all.subarray(CHUNK_BYTES, 2 * CHUNK_BYTES), chunk(2));
  assert.deepEqual([...all.subarray(2 * CHUNK_BYTES)], [7, 8, 9]);
  assert.throws(() => body.takeNew(), /handed over whole/);
  assert.throws(() => new BodyBuffer(-1, false), /not a byte count/);
  const empty = new BodyBuffer(0, false);
  assert.equal(empty.complete, true);
  assert.equal(empty.whole().byteLength, 0);
});
