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
      // As dash.js's HTTPLoader does: it reads the event's fields for its message (a missing event threw in a page).
      ontimeout: (e: { loaded: number; total: number; lengthComputable: boolean }) => events.push(`timeout ${e.loaded}/${e.total} ${e.lengthComputable}`),
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
  assert.deepEqual(r.events, ['timeout 0/0 false', 'loadend']);
  assert.equal(r.res.status, 0);
});

test('a timed-out request that had part of its body tells the page how much (onTimeout: a starved pane, not a dead origin)', async () => {
  const fetcher = new MemoryFetcher((_path, onProgress) => {
    onProgress(0, 2000);
    onProgress(700, 2000);
    return new Promise(() => {});
  });
  const timeouts: Array<[string, number, number]> = [];
  const loader = createTransportLoader(fetcher, { onTimeout: (url, loaded, ms) => timeouts.push([url, loaded, ms]) })();
  const r = request('https://h/abr/seg.m4s', { timeout: 30 });
  loader.load(r.req as never, r.res as never);
  await r.ended;
  assert.deepEqual(timeouts, [['https://h/abr/seg.m4s', 700, 30]]);
  assert.deepEqual(r.events, ['timeout 700/2000 true', 'loadend']);
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

/** dash.js's throughput arithmetic on a trace (ThroughputModel, XHR case): the first event is the latency and its bytes
 *  are not counted; NaN when it has no bytes after the first (no sample). */
function countedBytes(loadedSeries: number[]): number {
  if (loadedSeries.length <= 1) return Number.NaN;
  return loadedSeries.at(-1)! - loadedSeries[0]!;
}

test('a body that arrives in one piece still leaves dash.js all its bytes to count (its first event carries none)', async () => {
  // No head reported (the WebTransport worker): the loader puts a zero-byte head before the piece.
  const onePiece = new MemoryFetcher(async (_path, onProgress) => {
    onProgress(200_000, 200_000);
    return { status: 200, statusText: 'OK', contentType: 'video/mp4', body: bytes(200_000) };
  });
  const r1 = request('https://h/abr/seg-1-00001.m4s');
  createTransportLoader(onePiece)().load(r1.req as never, r1.res as never);
  await r1.ended;
  assert.deepEqual(r1.progress, [0, 200_000]);
  assert.equal(countedBytes(r1.progress), 200_000);
  // A head reported (fetch() on TCP: HttpFetcher), then the body in one read: nothing inserted, nothing lost.
  const headThenPiece = new MemoryFetcher(async (_path, onProgress) => {
    onProgress(0, 200_000);
    onProgress(200_000, 200_000);
    return { status: 200, statusText: 'OK', contentType: 'video/mp4', body: bytes(200_000) };
  });
  const r2 = request('https://h/abr/seg-1-00002.m4s');
  createTransportLoader(headThenPiece)().load(r2.req as never, r2.res as never);
  await r2.ended;
  assert.deepEqual(r2.progress, [0, 200_000]);
  // Reported nothing at all: the body still counts once the response is in.
  const silent = new MemoryFetcher(async () => ({ status: 200, statusText: 'OK', contentType: 'video/mp4', body: bytes(5000) }));
  const r3 = request('https://h/abr/seg-1-00003.m4s');
  createTransportLoader(silent)().load(r3.req as never, r3.res as never);
  await r3.ended;
  assert.equal(countedBytes(r3.progress), 5000);
});

test('an early piece keeps its arrival time as its duration; the inserted head gets a duration dash.js does not read as absent', async () => {
  const times: Array<number | undefined> = [];
  const replayed = new MemoryFetcher(async (_path, onProgress) => {
    onProgress(50_000, 100_000, 40);
    onProgress(100_000, 100_000, 0);
    return { status: 200, statusText: 'OK', contentType: 'video/mp4', body: bytes(100_000) };
  });
  const r = request('https://h/abr/seg-1-00004.m4s');
  (r.req.customData as Record<string, unknown>).onprogress = (e: { loaded: number; time?: number }) => { r.progress.push(e.loaded); times.push(e.time); };
  createTransportLoader(replayed)().load(r.req as never, r.res as never);
  await r.ended;
  assert.deepEqual(r.progress, [0, 50_000, 100_000]);
  // dash.js drops the head as latency and counts 100,000 B over the pieces' 40 ms (+ the 0.001 ms floor of the last).
  assert.deepEqual(times, [0.001, 40, 0.001]);
});
