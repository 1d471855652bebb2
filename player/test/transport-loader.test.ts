// The dash.js loader contract (FIELD-NOTES "dash.js 5.2.x"), checked against an in-memory MediaFetcher: what is under
// test is the adaptation to dash.js's callbacks, not a transport.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTransportLoader } from '../src/dash/transport-loader.ts';
import type { ByteRange, MediaFetcher, MediaResponse, ProgressCallback } from '../src/transport/media-fetcher.ts';

function bytes(n: number): ArrayBuffer {
  return new Uint8Array(n).fill(7).buffer;
}

class MemoryFetcher implements MediaFetcher {
  calls: { path: string; range: ByteRange | null }[] = [];
  constructor(private readonly answer: (path: string, onProgress: ProgressCallback, signal: AbortSignal) => Promise<MediaResponse>) {}
  fetch(path: string, range: ByteRange | null, onProgress: ProgressCallback, signal: AbortSignal): Promise<MediaResponse> {
    this.calls.push({ path, range });
    return this.answer(path, onProgress, signal);
  }
}

function request(url: string, extra: Record<string, unknown> = {}) {
  const events: string[] = [];
  const progress: number[] = [];
  let resolveEnd: () => void = () => {};
  const ended = new Promise<void>((r) => { resolveEnd = r; });
  const req = {
    url, responseType: 'arraybuffer', ...extra,
    customData: {
      onprogress: (e: { loaded: number }) => { progress.push(e.loaded); },
      onloadend: () => { events.push('loadend'); resolveEnd(); },
      onabort: () => events.push('abort'),
      ontimeout: () => events.push('timeout'),
    } as Record<string, unknown>,
  };
  return { req, res: {} as Record<string, unknown>, events, progress, ended };
}

test('a small body still yields two progress events, the path and query are sent, and data is an ArrayBuffer', async () => {
  const fetcher = new MemoryFetcher(async () => ({ status: 200, statusText: 'OK', contentType: 'video/mp4', body: bytes(100) }));
  const loader = createTransportLoader(fetcher)();
  const r = request('https://127.0.0.1:4433/abr/seg-1-00001.m4s?x=1');
  loader.load(r.req as never, r.res as never);
  await r.ended;
  assert.deepEqual(fetcher.calls, [{ path: '/abr/seg-1-00001.m4s?x=1', range: null }]);
  assert.ok(r.progress.length >= 2, `only ${r.progress.length} progress events`);
  assert.equal(r.res.status, 200);
  assert.ok(r.res.data instanceof ArrayBuffer);
  assert.equal((r.res.data as ArrayBuffer).byteLength, 100);
});

test('a manifest is returned as text, and a Range header becomes a byte range', async () => {
  const xml = new TextEncoder().encode('<MPD/>');
  const fetcher = new MemoryFetcher(async () => ({ status: 206, statusText: 'Partial', contentType: 'application/dash+xml', body: xml.buffer }));
  const loader = createTransportLoader(fetcher)();
  const r = request('https://h/abr/manifest.mpd', { responseType: 'text', headers: { Range: 'bytes=10-19' } });
  loader.load(r.req as never, r.res as never);
  await r.ended;
  assert.equal(r.res.data, '<MPD/>');
  assert.deepEqual(fetcher.calls[0]!.range, { firstByte: 10, lastByte: 19 });
});

test('errors end with a non-2xx status so dash.js retries, and are reported', async () => {
  const failures: string[] = [];
  const notFound = new MemoryFetcher(async () => ({ status: 404, statusText: 'not found', contentType: 'text/plain', body: bytes(0) }));
  const r1 = request('https://h/abr/missing.m4s');
  createTransportLoader(notFound, { onError: (_u, m) => failures.push(m) })().load(r1.req as never, r1.res as never);
  await r1.ended;
  assert.equal(r1.res.status, 404);
  assert.equal(r1.res.data, undefined);
  const broken = new MemoryFetcher(async () => { throw new Error('session lost'); });
  const r2 = request('https://h/abr/seg.m4s');
  createTransportLoader(broken, { onError: (_u, m) => failures.push(m) })().load(r2.req as never, r2.res as never);
  await r2.ended;
  assert.equal(r2.res.status, 0);
  assert.deepEqual(failures, ['404 not found', 'session lost']);
});

test('abort cancels the transfer, reports onabort, and never calls onloadend', async () => {
  let sawAbort = false;
  const fetcher = new MemoryFetcher((_p, _progress, signal) => new Promise((_, reject) => {
    signal.addEventListener('abort', () => { sawAbort = true; reject(new Error('aborted')); });
  }));
  const loader = createTransportLoader(fetcher)();
  const r = request('https://h/abr/seg.m4s');
  loader.load(r.req as never, r.res as never);
  loader.abort();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(sawAbort, true);
  assert.deepEqual(r.events, ['abort']);
});

test('a timeout ends the request with status 0 after ontimeout', async () => {
  const fetcher = new MemoryFetcher(() => new Promise(() => {}));
  const loader = createTransportLoader(fetcher)();
  const r = request('https://h/abr/seg.m4s', { timeout: 30 });
  loader.load(r.req as never, r.res as never);
  await r.ended;
  assert.deepEqual(r.events, ['timeout', 'loadend']);
  assert.equal(r.res.status, 0);
});

test('the CMCD query reaches the transport and CMSD comes back as the lower-case headers dash.js\'s CmsdModel reads', async () => {
  const cmsdDynamic = '"pcc-origin";etp=41000;rtt=12';
  const fetcher = new MemoryFetcher(async () => ({ status: 200, statusText: 'OK', contentType: 'video/mp4', body: bytes(10), cmsdStatic: 'sf=d', cmsdDynamic }));
  const seen: string[] = [];
  const loader = createTransportLoader(fetcher, { onCmsd: (_url, value) => seen.push(value) })();
  const r = request('https://h/abr/seg-1.m4s?CMCD=bl%3D8000%2Cbr%3D800');
  loader.load(r.req as never, r.res as never);
  await r.ended;
  assert.equal(fetcher.calls[0]!.path, '/abr/seg-1.m4s?CMCD=bl%3D8000%2Cbr%3D800');
  const headers = r.res.headers as Record<string, string>;
  assert.equal(headers['cmsd-dynamic'], cmsdDynamic);
  assert.equal(headers['cmsd-static'], 'sf=d');
  assert.deepEqual(seen, [cmsdDynamic]);
  const plain = new MemoryFetcher(async () => ({ status: 200, statusText: 'OK', contentType: 'video/mp4', body: bytes(10) }));
  const r2 = request('https://h/abr/seg-2.m4s');
  createTransportLoader(plain)().load(r2.req as never, r2.res as never);
  await r2.ended;
  assert.ok(!('cmsd-dynamic' in (r2.res.headers as Record<string, string>)), 'no CMSD header without CMSD');
});
