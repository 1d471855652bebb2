// The continuous-stream bookkeeping (continuous-stream-fetcher.ts) against a stream source whose bytes arrive when the
// test says, on a clock the test moves: what is under test is which requests go out, what dash.js is served, the
// arrival timing it is told and what is counted, not a transport (the real path is bench/test/continuous-stream.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ByteRange, MediaFetcher, MediaResponse, ProgressCallback } from '../src/transport/media-fetcher.ts';
import { ContinuousStreamFetcher, type StreamSource } from '../src/transport/continuous-stream-fetcher.ts';
import { PLAYER_STATE_PREFIX, PLAYER_STATE_STATUS, cmcdQueryArgument, requestPlayerState } from '@pcc-stream/protocol';

function file(n: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
}

/** The origin's framing: a 4-byte big-endian length before each segment. */
function framed(segments: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(segments.reduce((a, s) => a + 4 + s.byteLength, 0));
  let at = 0;
  for (const s of segments) {
    new DataView(out.buffer).setUint32(at, s.byteLength);
    out.set(s, at + 4);
    at += 4 + s.byteLength;
  }
  return out;
}

interface OpenedStream { path: string; body: Uint8Array; sent: number; signal: AbortSignal; onChunk: (b: Uint8Array) => void; resolve: (r: MediaResponse) => void }

class ManualStreams implements StreamSource, MediaFetcher {
  clockMs = 0;
  readonly streams: OpenedStream[] = [];
  readonly innerPaths: string[] = [];
  /** Player-state requests (PROTOCOL.md §2.9), answered as the origin does (204, or 400 with the parser's reason). */
  readonly statePaths: string[] = [];
  constructor(private readonly segments: Record<string, Uint8Array[]>) {}
  stream(path: string, onChunk: (b: Uint8Array) => void, signal: AbortSignal): Promise<MediaResponse> {
    return new Promise((resolve, reject) => {
      const m = /^(.*)\/stream\/seg-(\d+)-(\d+)\.m4s/.exec(path)!;
      const all = this.segments[`${m[1]}/${m[2]}`]!;
      const body = framed(all.slice(Number(m[3]) - 1));
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      this.streams.push({ path, body, sent: 0, signal, onChunk, resolve });
    });
  }
  fetch(path: string, _range: ByteRange | null, onProgress: ProgressCallback): Promise<MediaResponse> {
    if (path.startsWith(`${PLAYER_STATE_PREFIX}/`)) {
      this.statePaths.push(path);
      const read = requestPlayerState(path);
      const status = read.ok ? PLAYER_STATE_STATUS : 400;
      return Promise.resolve({ status, statusText: '', contentType: 'text/plain', body: new TextEncoder().encode(read.ok ? '' : read.error.message).buffer as ArrayBuffer });
    }
    this.innerPaths.push(path);
    onProgress(3, 3);
    return Promise.resolve({ status: 200, statusText: 'OK', contentType: 'video/mp4', body: new Uint8Array([1, 2, 3]).buffer });
  }
  async deliver(s: OpenedStream, bytes: number, afterMs: number): Promise<void> {
    this.clockMs += afterMs;
    const n = Math.min(bytes, s.body.byteLength - s.sent);
    s.onChunk(s.body.slice(s.sent, s.sent + n));
    s.sent += n;
    if (s.sent === s.body.byteLength) s.resolve({ status: 200, statusText: 'OK', contentType: 'application/vnd.pcc-stream.segments', body: new ArrayBuffer(0) });
    await new Promise((r) => setImmediate(r));
  }
}

const videoPath = (rep: number, n: number): string => `/set/seg-${rep}-${String(n).padStart(5, '0')}.m4s?CMCD=${encodeURIComponent('bl=4000,ot=v')}`;

test('one stream serves back-to-back segment requests, with their real arrival timing and no gap', async () => {
  const segs = [file(1000, 1), file(1500, 2), file(800, 3)];
  const server = new ManualStreams({ '/set/2': segs });
  const fetcher = new ContinuousStreamFetcher(server, server, { nowMs: () => server.clockMs });
  const progress: Array<[number, number, number | undefined]> = [];
  const first = fetcher.fetch(videoPath(2, 1), null, (l, t, d) => progress.push([l, t, d]), new AbortController().signal);
  assert.equal(server.streams.length, 1);
  assert.match(server.streams[0]!.path, /^\/set\/stream\/seg-2-00001\.m4s\?CMCD=/, 'the stream carries the request query (CMCD, cc)');
  const s = server.streams[0]!;
  await server.deliver(s, 504, 40); // prefix + 500 bytes
  await server.deliver(s, 500 + 1504 + 804, 10); // the rest of segment 1, then 2 and 3 in the same chunk, before dash.js asks
  const r1 = await first;
  assert.deepEqual(new Uint8Array(r1.body), segs[0]);
  assert.deepEqual(progress, [[500, 1000, 40], [1000, 1000, 10]], 'arrival marks with the time each took');
  const r2 = await fetcher.fetch(videoPath(2, 2), null, () => {}, new AbortController().signal);
  const r3 = await fetcher.fetch(videoPath(2, 3), null, () => {}, new AbortController().signal);
  assert.deepEqual(new Uint8Array(r2.body), segs[1]);
  assert.deepEqual(new Uint8Array(r3.body), segs[2]);
  assert.equal(server.streams.length, 1, 'no second request');
  assert.deepEqual(server.innerPaths, []);
  assert.deepEqual(server.statePaths, [2, 3].map((n) => `${PLAYER_STATE_PREFIX}${videoPath(2, n)}`), 'the CMCD of the segments the stream served');
  fetcher.close();
  assert.equal(fetcher.counters.segmentsServed, 3);
  assert.equal(fetcher.counters.wasteBytes, 0);
  assert.deepEqual(fetcher.counters.segmentGapsMs, [0, 0], 'segments flowed back to back');
});

test('a pause in the stream between segments is measured as a gap', async () => {
  const segs = [file(100, 1), file(100, 2)];
  const server = new ManualStreams({ '/set/0': segs });
  const fetcher = new ContinuousStreamFetcher(server, server, { nowMs: () => server.clockMs });
  const first = fetcher.fetch(videoPath(0, 1), null, () => {}, new AbortController().signal);
  const s = server.streams[0]!;
  await server.deliver(s, 104, 5);
  await first;
  await server.deliver(s, 104, 180); // the next segment's first byte 180 ms after the previous one's last
  await fetcher.fetch(videoPath(0, 2), null, () => {}, new AbortController().signal);
  assert.deepEqual(fetcher.counters.segmentGapsMs, [180]);
});

test('another rendition restarts the stream there; the old stream\'s unused bytes are waste', async () => {
  const server = new ManualStreams({ '/set/0': [file(100, 1), file(200, 2), file(300, 3)], '/set/1': [file(400, 4), file(500, 5), file(600, 6)] });
  const fetcher = new ContinuousStreamFetcher(server, server, { nowMs: () => server.clockMs });
  const first = fetcher.fetch(videoPath(0, 1), null, () => {}, new AbortController().signal);
  const s0 = server.streams[0]!;
  await server.deliver(s0, 104 + 204 + 50, 5); // segment 1, 2 and 50 bytes of 3
  await first;
  const switched = fetcher.fetch(videoPath(1, 2), null, () => {}, new AbortController().signal);
  assert.equal(server.streams.length, 2);
  assert.ok(s0.signal.aborted, 'the old stream is cancelled');
  assert.match(server.streams[1]!.path, /\/set\/stream\/seg-1-00002\.m4s/);
  await server.deliver(server.streams[1]!, 504, 5);
  assert.deepEqual(new Uint8Array((await switched).body), file(500, 5));
  assert.equal(fetcher.counters.streamsCancelled, 1);
  assert.equal(fetcher.counters.wasteBytes, 246, 'segment 2 (200) and the start of 3 (50 bytes, 4 of them its length)');
});

test('init segments, audio and byte ranges go to the inner fetcher; a retried segment restarts the stream', async () => {
  const server = new ManualStreams({ '/set/0': [file(10, 1), file(10, 2)] });
  const fetcher = new ContinuousStreamFetcher(server, server, { nowMs: () => server.clockMs });
  await fetcher.fetch('/set/init-0.m4s', null, () => {}, new AbortController().signal);
  await fetcher.fetch(`/set/seg-9-00001.m4s?CMCD=${encodeURIComponent('ot=a')}`, null, () => {}, new AbortController().signal);
  await fetcher.fetch(videoPath(0, 1), { firstByte: 0, lastByte: 4 }, () => {}, new AbortController().signal);
  assert.equal(server.innerPaths.length, 3);
  assert.equal(server.streams.length, 0);
  const first = fetcher.fetch(videoPath(0, 1), null, () => {}, new AbortController().signal);
  await server.deliver(server.streams[0]!, 14, 1);
  await first;
  const again = fetcher.fetch(videoPath(0, 1), null, () => {}, new AbortController().signal);
  assert.equal(server.streams.length, 2, 'a segment already handed over is asked for anew');
  await server.deliver(server.streams[1]!, 14, 1);
  assert.deepEqual(new Uint8Array((await again).body), file(10, 1));
});

test('each segment served from the stream tells the origin its CMCD; the one that opens a stream carries its own', async () => {
  const segs = [file(50, 1), file(60, 2), file(70, 3), file(80, 4)];
  const server = new ManualStreams({ '/set/1': segs });
  const failures: string[] = [];
  const fetcher = new ContinuousStreamFetcher(server, server, { nowMs: () => server.clockMs, onPlayerStateFailure: (m) => failures.push(m) });
  const withBl = (n: number, blMs: number): string => `/set/seg-1-${String(n).padStart(5, '0')}.m4s?${cmcdQueryArgument({ bl: blMs, ot: 'v', nor: `seg-1-0000${n + 1}.m4s` })}`;
  const first = fetcher.fetch(withBl(1, 0), null, () => {}, new AbortController().signal);
  assert.match(server.streams[0]!.path, /CMCD=bl%3D0%2C/, 'the stream request carries the first segment\'s CMCD');
  await server.deliver(server.streams[0]!, 54 + 64 + 74 + 84, 3);
  await first;
  const bufferMs = [2000, 4000, 6000];
  for (let n = 2; n <= 4; n++) await fetcher.fetch(withBl(n, bufferMs[n - 2]!), null, () => {}, new AbortController().signal);
  await new Promise((r) => setImmediate(r));
  assert.equal(server.streams.length, 1);
  const told = server.statePaths.map((p) => requestPlayerState(p));
  assert.deepEqual(told.map((r) => (r.ok ? r.value.state?.bufferLengthMs : r.error.message)), bufferMs, 'the origin reads each served segment\'s bl');
  assert.deepEqual(told.map((r) => (r.ok ? r.value.state?.nextObjectPath : '')), ['/set/seg-1-00003.m4s', '/set/seg-1-00004.m4s', '/set/seg-1-00005.m4s'],
    'nor resolves against the segment\'s folder');
  assert.equal(fetcher.counters.playerStatesSent, 3);
  assert.equal(fetcher.counters.playerStateFailures, 0);
  assert.deepEqual(failures, []);
  fetcher.close();
});

test('a player-state request the origin refuses is reported, and the segment is still served', async () => {
  const server = new ManualStreams({ '/set/1': [file(10, 1), file(10, 2), file(10, 3)] });
  const failures: string[] = [];
  const fetcher = new ContinuousStreamFetcher(server, server, { nowMs: () => server.clockMs, onPlayerStateFailure: (m) => failures.push(m) });
  const first = fetcher.fetch('/set/seg-1-00001.m4s', null, () => {}, new AbortController().signal);
  await server.deliver(server.streams[0]!, 42, 1);
  await first;
  const plain = await fetcher.fetch('/set/seg-1-00002.m4s', null, () => {}, new AbortController().signal);
  assert.deepEqual(new Uint8Array(plain.body), file(10, 2));
  assert.deepEqual(server.statePaths, [], 'no CMCD, no player-state request');
  const hostile = await fetcher.fetch(`/set/seg-1-00003.m4s?CMCD=${encodeURIComponent('bl=-5,ot=v')}`, null, () => {}, new AbortController().signal);
  assert.deepEqual(new Uint8Array(hostile.body), file(10, 3));
  await new Promise((r) => setImmediate(r));
  assert.equal(fetcher.counters.playerStateFailures, 1);
  assert.equal(failures.length, 1);
  assert.match(failures[0]!, /player state for \/set\/seg-1-00003\.m4s not accepted: 400 CMCD bl=-5 is negative/);
});

test('the loader\'s state names what dash.js waits for and how far the stream has come (a stalled stream\'s diagnosis)', async () => {
  const segs = [file(1000, 1), file(1500, 2), file(800, 3)];
  const server = new ManualStreams({ '/set/2': segs });
  const fetcher = new ContinuousStreamFetcher(server, server, { nowMs: () => server.clockMs });
  assert.deepEqual(fetcher.state(), { waiting: [], open: null, atMs: 0 });
  const first = fetcher.fetch(videoPath(2, 1), null, () => {}, new AbortController().signal);
  const s = server.streams[0]!;
  await server.deliver(s, 4 + 1000 + 4 + 600, 30); // segment 1 whole, 600 B of segment 2
  await first;
  const aborted = new AbortController();
  const second = fetcher.fetch(videoPath(2, 2), null, () => {}, aborted.signal);
  const third = fetcher.fetch(videoPath(2, 3), null, () => {}, new AbortController().signal);
  server.clockMs += 5;
  assert.deepEqual(fetcher.state(), {
    waiting: [2, 3],
    open: {
      path: '/set/seg-2-1', firstNumber: 1, nextNumber: 3, arriving: { number: 2, filledBytes: 600, sizeBytes: 1500 }, held: [],
      bodyBytes: 1608, lastChunkMs: 30, ended: false, failure: null,
    },
    atMs: 35,
  });
  aborted.abort();
  await assert.rejects(second, /aborted/);
  await server.deliver(s, 900 + 4 + 800, 10); // the rest: segment 2 whole (dash.js no longer asks for it), segment 3
  await third;
  const after = fetcher.state();
  assert.deepEqual(after.waiting, [], 'served and aborted requests no longer wait');
  assert.deepEqual(after.open?.held, [2], 'segment 2 arrived whole and was not taken');
  assert.equal(after.open?.ended, true);
});
