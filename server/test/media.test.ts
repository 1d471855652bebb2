import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { contentTypeFor } from '../src/media/content-types.ts';
import { MediaStore, parseHttpRange } from '../src/media/media-store.ts';
import { decodeRequestPath } from '../src/media/safe-path.ts';
import { SegmentCache } from '../src/media/segment-cache.ts';

const base = mkdtempSync(join(tmpdir(), 'pcc-media-unit-'));
after(() => rmSync(base, { recursive: true, force: true }));
const root = join(base, 'root');
mkdirSync(join(root, 'abr'), { recursive: true });
writeFileSync(join(root, 'abr', 'manifest.mpd'), '<MPD/>');
writeFileSync(join(root, 'abr', 'seg 1.m4s'), Buffer.alloc(1000, 7));
writeFileSync(join(base, 'secret.txt'), 'outside the root');
symlinkSync(join(base, 'secret.txt'), join(root, 'escape.txt'));
symlinkSync(base, join(root, 'escape-dir'));
symlinkSync(join(root, 'abr', 'manifest.mpd'), join(root, 'inside-link.mpd'));

test('request paths: dot segments, encoded separators, NUL and backslashes are refused before any lookup', () => {
  for (const p of ['/../secret.txt', '/abr/../../secret.txt', '/%2e%2e/secret.txt', '/abr/%2e%2e/%2e%2e/secret.txt', '/..%2fsecret.txt',
    '/abr%2fmanifest.mpd', '/abr%5cmanifest.mpd', '/abr/manifest.mpd%00.txt', '/a\\..\\secret.txt', '/%E0%A4%A', '/', 'relative', '/./abr/manifest.mpd']) {
    assert.equal(decodeRequestPath(p).ok, false, p);
  }
  const okPath = decodeRequestPath('/abr/seg%201.m4s?x=1');
  assert.ok(okPath.ok);
  assert.deepEqual(okPath.segments, ['abr', 'seg 1.m4s']);
});

test('MediaStore: 404 for escapes (symlinks out, traversal), 200/206/416 for real files', async () => {
  const store = new MediaStore(root);
  for (const p of ['/escape.txt', '/escape-dir/secret.txt', '/../secret.txt', '/%2e%2e/secret.txt', '/abr', '/missing.m4s', '/abr/manifest.mpd%00']) {
    const r = await store.open(p);
    assert.equal(r.status, 404, p);
  }
  assert.equal(store.filesOpened, 0, 'nothing outside the root was opened');
  const linkInside = await store.open('/inside-link.mpd');
  assert.equal(linkInside.status, 200, 'symlinks that stay inside are fine');
  const full = await store.open('/abr/manifest.mpd');
  assert.ok('body' in full);
  assert.equal(full.contentType, 'application/dash+xml');
  assert.equal(Buffer.from(full.body.read(0, full.bodyLength)).toString(), '<MPD/>');
  const part = await store.open('/abr/seg%201.m4s', { start: 990 });
  assert.ok('body' in part);
  assert.equal(part.status, 206);
  assert.equal(part.bodyOffset, 990);
  assert.equal(part.bodyLength, 10);
  const clipped = await store.open('/abr/seg%201.m4s', { start: 10, end: 5000 });
  assert.ok('body' in clipped && clipped.bodyLength === 990);
  const beyond = await store.open('/abr/seg%201.m4s', { start: 1000 });
  assert.equal(beyond.status, 416);
  assert.equal(store.cache.count, 2);
});

test('HTTP Range parsing', () => {
  assert.deepEqual(parseHttpRange('bytes=0-99', 1000), { start: 0, end: 99 });
  assert.deepEqual(parseHttpRange('bytes=500-', 1000), { start: 500 });
  assert.deepEqual(parseHttpRange('bytes=-100', 1000), { start: 900, end: 999 });
  assert.equal(parseHttpRange('bytes=-0', 1000), 'unsatisfiable');
  for (const bad of ['bytes=5-1', 'bytes=a-b', 'items=0-1', 'bytes=-', 'bytes=0-1,5-6']) assert.equal(parseHttpRange(bad, 1000), 'invalid', bad);
});

test('segment cache: LRU within its byte budget, stale entries refused', () => {
  const cache = new SegmentCache(250, 100);
  cache.put('/a', new Uint8Array(100), 1);
  cache.put('/b', new Uint8Array(100), 1);
  assert.ok(cache.get('/a', 100, 1)); // a is now most recent
  cache.put('/c', new Uint8Array(100), 1); // evicts b
  assert.equal(cache.get('/b', 100, 1), undefined);
  assert.ok(cache.get('/a', 100, 1));
  assert.equal(cache.get('/a', 100, 2), undefined, 'mtime changed');
  cache.put('/huge', new Uint8Array(101), 1);
  assert.equal(cache.count, 2);
  assert.ok(cache.sizeBytes <= 250);
});

test('content types', () => {
  assert.equal(contentTypeFor('/x/manifest.mpd'), 'application/dash+xml');
  assert.equal(contentTypeFor('/x/init.mp4'), 'video/mp4');
  assert.equal(contentTypeFor('/x/seg-1.m4s'), 'video/iso.segment');
  assert.equal(contentTypeFor('/x/blob'), 'application/octet-stream');
});
