import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ContinuousStreamBody, CONTINUOUS_STREAM_CONTENT_TYPE, parseStreamPath, SEGMENT_PREFIX_BYTES } from '../src/media/continuous-stream.ts';
import { MediaStore } from '../src/media/media-store.ts';

const base = mkdtempSync(join(tmpdir(), 'pcc-stream-unit-'));
after(() => rmSync(base, { recursive: true, force: true }));
const root = join(base, 'root');
mkdirSync(join(root, 'set'), { recursive: true });
// Segment sizes across the 1 MiB read block, so reads span files and prefixes.
const sizes = [700_000, 1_300_000, 5, 900_001];
sizes.forEach((size, i) => writeFileSync(join(root, 'set', `seg-1-${String(i + 3).padStart(5, '0')}.m4s`), Buffer.alloc(size, i + 1)));
writeFileSync(join(root, 'set', 'seg-0-00003.m4s'), Buffer.alloc(10, 99));

/** Splits a stream body into its segments by the length prefixes. */
function unframe(body: Uint8Array): Buffer[] {
  const out: Buffer[] = [];
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  for (let at = 0; at < buf.byteLength;) {
    const length = buf.readUInt32BE(at);
    out.push(buf.subarray(at + SEGMENT_PREFIX_BYTES, at + SEGMENT_PREFIX_BYTES + length));
    at += SEGMENT_PREFIX_BYTES + length;
  }
  return out;
}

test('stream paths name a rendition and a first segment; others are ordinary', () => {
  assert.deepEqual(parseStreamPath('/set/stream/seg-1-00004.m4s?CMCD=bl%3D100'), { dir: '/set', rendition: '1', firstNumber: 4, digits: 5 });
  assert.equal(parseStreamPath('/set/seg-1-00004.m4s'), null);
  assert.equal(parseStreamPath('/set/stream/init-1.m4s'), null);
});

test('a stream carries the named segment and every following one of its rendition, framed, in order', async () => {
  const store = new MediaStore(root);
  const opened = await store.open('/set/stream/seg-1-00004.m4s');
  assert.ok('body' in opened);
  assert.equal(opened.status, 200);
  assert.equal(opened.contentType, CONTINUOUS_STREAM_CONTENT_TYPE);
  assert.equal(opened.bodyLength, sizes.slice(1).reduce((a, b) => a + b + SEGMENT_PREFIX_BYTES, 0));
  // As the datagram send loop reads it: packet-sized pieces.
  const viaRead = new Uint8Array(opened.bodyLength);
  for (let at = 0; at < opened.bodyLength; at += 1400) viaRead.set(opened.body.read(at, Math.min(1400, opened.bodyLength - at)), at);
  const segments = unframe(viaRead);
  assert.deepEqual(segments.map((s) => s.byteLength), sizes.slice(1));
  segments.forEach((s, i) => assert.ok(s.every((b) => b === i + 2), `segment ${i} bytes`));
  // As the TCP baseline pipes it.
  assert.ok(opened.body instanceof ContinuousStreamBody);
  const chunks: Buffer[] = [];
  for await (const chunk of opened.body.readable()) chunks.push(chunk as Buffer);
  assert.ok(Buffer.concat(chunks).equals(Buffer.from(viaRead)));
});

test('a stream refuses a byte range, a missing first segment and path escapes', async () => {
  const store = new MediaStore(root);
  assert.equal((await store.open('/set/stream/seg-1-00003.m4s', { start: 0 })).status, 400);
  assert.equal((await store.open('/set/stream/seg-1-00009.m4s')).status, 404);
  assert.equal((await store.open('/set/../stream/seg-1-00003.m4s')).status, 404);
  const other = await store.open('/set/stream/seg-0-00003.m4s');
  assert.ok('body' in other && other.bodyLength === 10 + SEGMENT_PREFIX_BYTES, 'only its own rendition');
});
