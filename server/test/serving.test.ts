// Serving rules over every transport: hostile paths get 404 (over WebTransport, a path no player asks for closes its
// session) and nothing outside the root is read; ranges,
// content types, CORS; the HTTPS/TCP baseline with per-connection congestion control; the control port.
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { PccClient } from '../src/client/pcc-client.ts';
import { tcpFetch } from '../src/client/tcp-fetch.ts';
import { CLOSE_PROTOCOL_VIOLATION } from '@pcc-stream/protocol';
import { makeMedia, startOrigin, waitFor, type MediaFixture, type RunningOrigin } from './helpers.ts';

let media: MediaFixture;
let origin: RunningOrigin;

before(async () => {
  media = makeMedia({ 'abr/manifest.mpd': 3000, 'abr/v1/seg-1.m4s': 200_000, 'abr/v1/init.mp4': 900, 'big.bin': 3_000_000 });
  const base = dirname(media.dir);
  writeFileSync(join(base, 'secret.txt'), 'SECRET outside the media root');
  mkdirSync(join(base, 'other'));
  writeFileSync(join(base, 'other', 'x.m4s'), 'SECRET 2');
  symlinkSync(join(base, 'secret.txt'), join(media.dir, 'abr', 'link-out.mpd'));
  symlinkSync(join(base, 'other'), join(media.dir, 'dir-out'));
  origin = await startOrigin(media.dir);
});

after(async () => {
  await origin?.stop();
  media?.cleanup();
});

const hostilePaths = [
  '/../secret.txt', '/abr/../../secret.txt', '/%2e%2e/secret.txt', '/%2E%2E%2Fsecret.txt', '/abr/%2e%2e/%2e%2e/secret.txt',
  '/..%2fsecret.txt', '/..%5csecret.txt', '/abr%2f..%2f..%2fsecret.txt', '/abr/link-out.mpd', '/dir-out/x.m4s',
  '/abr/manifest.mpd%00.m4s', '/abr/manifest.mpd%00', '/%00', '/./../secret.txt', '/abr/v1/..', '/abr', '/', '/%', '/%zz',
  '//etc/passwd', '/abr/\\..\\..\\secret.txt',
];

/** Of hostilePaths, those that are plain paths (a symlink out, a folder, nothing named, a missing file): 404. The rest
 *  (dot segments, encoded separators or NULs, backslashes, broken encoding) are paths no player asks for. */
const notFoundPaths = new Set(['/abr/link-out.mpd', '/dir-out/x.m4s', '/abr', '/', '//etc/passwd']);

test('hostile paths over WebTransport: a forbidden one closes its session at once with the reason, the others get 404; no file outside the root is opened', async () => {
  const before = (await origin.status()).files_opened;
  const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash });
  try {
    for (const path of hostilePaths.filter((p) => notFoundPaths.has(p))) {
      const r = await client.fetch(path);
      assert.equal(r.status, 404, path);
      assert.equal(r.bytes, 0, path);
    }
    for (const path of hostilePaths.filter((p) => !notFoundPaths.has(p))) {
      const hostile = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash });
      try {
        await assert.rejects(hostile.fetch(path), Error, path);
        await waitFor(() => hostile.closeInfo !== null, 5000, `the session of ${path} to close`);
        assert.equal(hostile.closeInfo?.code, CLOSE_PROTOCOL_VIOLATION, path);
        assert.match(hostile.closeInfo?.reason ?? '', /^forbidden request path \((dot segment|encoded separator or NUL|forbidden character|malformed percent-encoding)/, path);
      } finally {
        hostile.close();
      }
    }
    // The hostile sessions' closes left this one alone.
    assert.equal((await client.fetch('/abr/v1/init.mp4')).status, 200);
  } finally {
    client.close();
  }
  assert.equal((await origin.status()).files_opened, before + 1, 'no file was opened for a hostile path');
});

function rawHttps(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    // `path` goes out verbatim (no URL normalisation), as a hostile client would send it.
    const req = request({ host: '127.0.0.1', port: origin.httpsPort, path, headers, rejectUnauthorized: false, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('hostile paths over HTTPS get 404 and never the secret', async () => {
  const before = (await origin.status()).files_opened;
  for (const path of hostilePaths) {
    if (path.includes('\\')) continue; // not a valid HTTP request target
    const r = await rawHttps(path);
    assert.equal(r.status, 404, path);
    assert.ok(!r.body.toString().includes('SECRET'), path);
  }
  assert.equal((await origin.status()).files_opened, before);
});

test('ranges, content types and errors over WebTransport', async () => {
  const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash });
  try {
    const mpd = await client.fetch('/abr/manifest.mpd');
    assert.equal(mpd.status, 200);
    assert.equal(mpd.contentType, 'application/dash+xml');
    assert.deepEqual(Buffer.from(mpd.body!), media.files.get('abr/manifest.mpd')!.bytes);
    const init = await client.fetch('/abr/v1/init.mp4');
    assert.equal(init.contentType, 'video/mp4');
    const part = await client.fetch('/abr/v1/seg-1.m4s', { range: { start: 100, end: 50_099 } });
    assert.equal(part.status, 206);
    assert.equal(part.contentType, 'video/iso.segment');
    assert.equal(part.totalSize, 200_000);
    assert.deepEqual(Buffer.from(part.body!), media.files.get('abr/v1/seg-1.m4s')!.bytes.subarray(100, 50_100));
    const tail = await client.fetch('/abr/v1/seg-1.m4s', { range: { start: 199_990 } });
    assert.equal(tail.bytes, 10);
    const beyond = await client.fetch('/abr/v1/seg-1.m4s', { range: { start: 200_000 } });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.totalSize, 200_000);
  } finally {
    client.close();
  }
});

test('HTTPS baseline: ranges, 416, CORS, content types', async () => {
  const full = await rawHttps('/abr/manifest.mpd');
  assert.equal(full.status, 200);
  assert.equal(full.headers['content-type'], 'application/dash+xml');
  assert.equal(full.headers['access-control-allow-origin'], '*');
  assert.equal(full.headers['timing-allow-origin'], '*'); // Resource Timing for dash.js's TCP throughput estimate
  assert.deepEqual(full.body, media.files.get('abr/manifest.mpd')!.bytes);
  const part = await rawHttps('/abr/v1/seg-1.m4s', { range: 'bytes=10-19' });
  assert.equal(part.status, 206);
  assert.equal(part.headers['content-range'], 'bytes 10-19/200000');
  assert.deepEqual(part.body, media.files.get('abr/v1/seg-1.m4s')!.bytes.subarray(10, 20));
  const suffix = await rawHttps('/abr/v1/seg-1.m4s', { range: 'bytes=-5' });
  assert.deepEqual(suffix.body, media.files.get('abr/v1/seg-1.m4s')!.bytes.subarray(199_995));
  const beyond = await rawHttps('/abr/v1/seg-1.m4s', { range: 'bytes=300000-' });
  assert.equal(beyond.status, 416);
  assert.equal(beyond.headers['content-range'], 'bytes */200000');
  const bad = await rawHttps('/abr/v1/seg-1.m4s', { range: 'bytes=9-1' });
  assert.equal(bad.status, 400);
});

test('HTTPS baseline: kernel congestion control per connection, read back from the socket', async () => {
  for (const cc of ['cubic', 'bbr']) {
    let bytes = 0;
    const r = await tcpFetch(`https://127.0.0.1:${origin.httpsPort}/big.bin?cc=${cc}`, origin.certHash, (c) => { bytes += c.byteLength; });
    assert.equal(r.status, 200, cc);
    assert.equal(r.tcpCongestion, cc, `the socket reports ${r.tcpCongestion}`);
    assert.equal(bytes, 3_000_000);
  }
  const refused = await rawHttps('/big.bin?cc=nosuchcc');
  assert.equal(refused.status, 400);
  assert.match(refused.body.toString(), /kernel refused TCP congestion control "nosuchcc"/);
  const malformed = await rawHttps('/big.bin?cc=../../x');
  assert.equal(malformed.status, 400);
  await assert.rejects(tcpFetch(`https://127.0.0.1:${origin.httpsPort}/big.bin`, '00'.repeat(32), () => undefined), /does not match/);
});

test('control port: cert hash, status, CORS', async () => {
  const res = await fetch(`http://127.0.0.1:${origin.httpPort}/cert-hash`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  const hash = await res.text();
  assert.match(hash, /^[0-9a-f]{64}$/);
  assert.equal(hash, origin.certHash);
  const status = await (await fetch(`http://127.0.0.1:${origin.httpPort}/status`)).json() as Record<string, unknown>;
  assert.ok(Array.isArray(status.algorithms) && (status.algorithms as string[]).includes('vivace'));
  assert.equal((await fetch(`http://127.0.0.1:${origin.httpPort}/nothing`)).status, 404);
});
