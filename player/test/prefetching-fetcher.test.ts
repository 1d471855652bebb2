// The early-request bookkeeping (prefetching-fetcher.ts) against an in-memory file server whose bytes arrive when the
// test says, on a clock the test moves: what is under test is which requests go out, what dash.js is served and what
// is counted, not a transport (the browser path is e2e/).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTransportLoader } from '../src/dash/transport-loader.ts';
import { isPrefetchRequest } from '@pcc-stream/protocol';
import type { MediaFetcher, MediaResponse, ProgressCallback } from '../src/transport/media-fetcher.ts';
import { ManualServer, file, segmentPath, type Pending } from './prefetch-test-server.ts';
import { PREFETCH_LEAD, PREFETCH_MIN_BYTES, PrefetchingFetcher } from '../src/transport/prefetching-fetcher.ts';

function collect(): { events: Array<{ loaded: number; durationMs: number | undefined }>; cb: ProgressCallback } {
  const events: Array<{ loaded: number; durationMs: number | undefined }> = [];
  return { events, cb: (loaded, _total, durationMs) => events.push({ loaded, durationMs }) };
}

test('the next segment is asked for one time-to-first-byte before the current ends, at most one ahead, and served from it with its real timing', async () => {
  const server = new ManualServer({ '/abr/seg-a-1.m4s': file(10_000, 1), '/abr/seg-a-2.m4s': file(10_000, 2), '/abr/seg-a-3.m4s': file(10_000, 3) });
  const fetcher = new PrefetchingFetcher(server, { enabled: true, nowMs: () => server.clockMs });
  const first = fetcher.fetch(segmentPath('a', 1, true), null, () => {}, new AbortController().signal);
  const cur = server.requests[0]!;
  // First byte after 100 ms (the gap to hide), then 1000 B per 50 ms: the early request goes out once the rest would
  // take ≤ 1.5 × 100 ms at that rate, i.e. with 7000 B in (3000 B left ≈ 129 ms), not before (6000 B: 167 ms).
  await server.deliver(cur, 1000, 100);
  for (let k = 2; k <= 6; k++) {
    await server.deliver(cur, 1000, 50);
    assert.equal(server.requests.length, 1, `no early request with ${k}000 B in`);
  }
  await server.deliver(cur, 1000, 50);
  assert.equal(PREFETCH_LEAD, 1.5);
  assert.equal(server.requests.length, 2);
  const early = server.requests[1]!;
  assert.equal(early.path.split('?', 1)[0], '/abr/seg-a-2.m4s');
  assert.ok(isPrefetchRequest(early.path), 'the early request is marked for the origin');
  // Sized to the gap: 1.5 × (7000 B / 300 ms) × 100 ms = 3500 B, raised to the floor.
  assert.deepEqual(early.range, { firstByte: 0, lastByte: PREFETCH_MIN_BYTES - 1 });
  await server.deliver(cur, 1000, 50);
  assert.equal(server.requests.length, 2, 'still one segment ahead');
  // The early request's first bytes arrive 60 ms later, then 3 × 2500 B 20 ms apart, before the current one ends
  // (the server shares the rate between them); dash.js asks for the next segment as soon as the current one is in.
  await server.deliver(early, 2500, 60);
  for (let i = 0; i < 3; i++) await server.deliver(early, 2500, 20);
  await server.deliver(cur, 1000, 10);
  await server.deliver(cur, 1000, 10);
  assert.equal((await first).body.byteLength, 10_000);
  assert.equal(fetcher.prefetchedPath, '/abr/seg-a-2.m4s');
  const seen = collect();
  const second = await fetcher.fetch(segmentPath('a', 2, false), null, seen.cb, new AbortController().signal);
  assert.deepEqual(new Uint8Array(second.body), file(10_000, 2));
  assert.equal(second.status, 200);
  assert.equal(server.requests.length, 2, 'served without a new request');
  assert.equal(fetcher.counters.prefetchHits, 1);
  assert.equal(fetcher.counters.prefetchWasteBytes, 0);
  // dash.js's throughput trace: every piece with the time it really took (the first holds the time to first byte).
  assert.deepEqual(seen.events.map((e) => e.durationMs), [50 + 60, 20, 20, 20]);
  assert.deepEqual(seen.events.map((e) => e.loaded), [2500, 5000, 7500, 10_000]);
  // The gap: the early bytes began before the current segment ended, so the back-to-back request saw none.
  assert.deepEqual(fetcher.counters.segmentGapsMs, [0]);
});

test('a rendition switch cancels the early request, counts its bytes as waste and serves the new URL from the network', async () => {
  const server = new ManualServer({ '/abr/seg-lo-1.m4s': file(4000, 1), '/abr/seg-lo-2.m4s': file(4000, 2), '/abr/seg-hi-2.m4s': file(9000, 3) });
  const fetcher = new PrefetchingFetcher(server, { enabled: true, nowMs: () => server.clockMs });
  const first = fetcher.fetch(segmentPath('lo', 1, true), null, () => {}, new AbortController().signal);
  await server.deliver(server.requests[0]!, 4000, 50); // done at once: the early request goes out at the end
  await first;
  const early = server.requests[1]!;
  assert.equal(early.path.split('?', 1)[0], '/abr/seg-lo-2.m4s');
  await server.deliver(early, 1500, 40);
  const switched = fetcher.fetch(segmentPath('hi', 2, false), null, () => {}, new AbortController().signal);
  assert.ok(early.signal.aborted, 'the early request was cancelled');
  assert.equal(fetcher.prefetchedPath, null);
  assert.equal(fetcher.counters.prefetchCancelled, 1);
  assert.equal(fetcher.counters.prefetchWasteBytes, 1500);
  const fresh = server.requests[2]!;
  assert.equal(fresh.path.split('?', 1)[0], '/abr/seg-hi-2.m4s');
  await server.deliver(fresh, 9000, 30);
  assert.deepEqual(new Uint8Array((await switched).body), file(9000, 3), 'no stale bytes of the old rendition');
});

test('the byte cap: only a prefix is fetched ahead, the rest when dash.js asks, joined in order', async () => {
  const server = new ManualServer({ '/abr/seg-a-1.m4s': file(3000, 1), '/abr/seg-a-2.m4s': file(2500, 2) });
  const fetcher = new PrefetchingFetcher(server, { enabled: true, maxBytes: 1000, nowMs: () => server.clockMs });
  const first = fetcher.fetch(segmentPath('a', 1, true), null, () => {}, new AbortController().signal);
  await server.deliver(server.requests[0]!, 3000, 20);
  await first;
  const early = server.requests[1]!;
  assert.deepEqual(early.range, { firstByte: 0, lastByte: 999 });
  await server.deliver(early, 1000, 20);
  const seen = collect();
  const served = fetcher.fetch(segmentPath('a', 2, false), null, seen.cb, new AbortController().signal);
  await new Promise((r) => setImmediate(r));
  const rest = server.requests[2]!;
  assert.deepEqual(rest.range, { firstByte: 1000, lastByte: null });
  await server.deliver(rest, 1500, 15);
  const response = await served;
  assert.equal(response.status, 200);
  assert.deepEqual(new Uint8Array(response.body), file(2500, 2));
  assert.deepEqual(seen.events.map((e) => e.loaded), [1000, 2500]);
  assert.equal(fetcher.counters.prefetchBytes, 1000);
});

test('off: no early request, and the request gap is measured (the baseline of the comparison)', async () => {
  const server = new ManualServer({ '/abr/seg-a-1.m4s': file(2000, 1), '/abr/seg-a-2.m4s': file(2000, 2) });
  const fetcher = new PrefetchingFetcher(server, { enabled: false, nowMs: () => server.clockMs });
  const first = fetcher.fetch(segmentPath('a', 1, true), null, () => {}, new AbortController().signal);
  await server.deliver(server.requests[0]!, 2000, 30);
  await first;
  assert.equal(server.requests.length, 1);
  const second = fetcher.fetch(segmentPath('a', 2, false), null, () => {}, new AbortController().signal);
  await server.deliver(server.requests[1]!, 1000, 120);
  await server.deliver(server.requests[1]!, 1000, 10);
  await second;
  assert.deepEqual(fetcher.counters.segmentGapsMs, [120]);
  assert.equal(fetcher.counters.prefetchIssued, 0);
});

function initPath(rep: string): string {
  return `/abr/init-${rep}.m4s?CMCD=${encodeURIComponent('bl=4000,ot=i')}`;
}

test('a rendition switch: the new init segment asked at once is part of the request gap, a wait after it is not', async () => {
  const server = new ManualServer({
    '/abr/seg-lo-1.m4s': file(2000, 1), '/abr/init-hi.m4s': file(300, 2), '/abr/seg-hi-2.m4s': file(2000, 3), '/abr/seg-hi-3.m4s': file(2000, 4),
    '/abr/init-lo.m4s': file(300, 5), '/abr/seg-lo-4.m4s': file(2000, 6),
  });
  const fetcher = new PrefetchingFetcher(server, { enabled: false, nowMs: () => server.clockMs });
  const first = fetcher.fetch(segmentPath('lo', 1, false), null, () => {}, new AbortController().signal);
  await server.deliver(server.requests[0]!, 2000, 30);
  await first;
  // dash.js switches up at once: the new rendition's init segment (one round trip), then its media segment.
  const init = fetcher.fetch(initPath('hi'), null, () => {}, new AbortController().signal);
  await server.deliver(server.requests[1]!, 300, 60);
  await init;
  const second = fetcher.fetch(segmentPath('hi', 2, false), null, () => {}, new AbortController().signal);
  await server.deliver(server.requests[2]!, 1000, 70);
  await server.deliver(server.requests[2]!, 1000, 10);
  await second;
  assert.deepEqual(fetcher.counters.segmentGapsMs, [60 + 70], 'from the last byte of seg-lo-1 to the first of seg-hi-2');
  // The next segment of the same rendition, back to back: counted as before.
  const third = fetcher.fetch(segmentPath('hi', 3, false), null, () => {}, new AbortController().signal);
  await server.deliver(server.requests[3]!, 2000, 55);
  await third;
  assert.deepEqual(fetcher.counters.segmentGapsMs, [130, 55]);
  // A switch whose media request comes only after dash.js waited (a full buffer): no gap counted.
  const init2 = fetcher.fetch(initPath('lo'), null, () => {}, new AbortController().signal);
  await server.deliver(server.requests[4]!, 300, 40);
  await init2;
  server.clockMs += 400;
  const fourth = fetcher.fetch(segmentPath('lo', 4, false), null, () => {}, new AbortController().signal);
  await server.deliver(server.requests[5]!, 2000, 50);
  await fourth;
  assert.deepEqual(fetcher.counters.segmentGapsMs, [130, 55]);
});

test('through the dash.js loader: a segment served from arrived bytes hands dash.js their real durations as progress `time`', async () => {
  const server = new ManualServer({ '/abr/seg-a-1.m4s': file(2000, 1), '/abr/seg-a-2.m4s': file(6000, 2) });
  const fetcher = new PrefetchingFetcher(server, { enabled: true, nowMs: () => server.clockMs });
  const loader = createTransportLoader(fetcher)();
  const load = (url: string) => {
    const times: Array<number | undefined> = [];
    let end: () => void = () => {};
    const ended = new Promise<void>((r) => { end = r; });
    const res: Record<string, unknown> = {};
    loader.load({ url, responseType: 'arraybuffer', customData: { onprogress: (e: { time?: number }) => times.push(e.time), onloadend: () => end() } } as never, res as never);
    return { times, ended, res };
  };
  const one = load(`https://h${segmentPath('a', 1, true)}`);
  await server.deliver(server.requests[0]!, 2000, 10);
  await one.ended;
  const early = server.requests[1]!;
  for (let i = 0; i < 3; i++) await server.deliver(early, 2000, 25);
  const two = load(`https://h${segmentPath('a', 2, false)}`);
  await two.ended;
  assert.equal(two.res.status, 200);
  // The loader adds a zero-byte head (dash.js drops it as latency) and every piece keeps its real duration: all
  // 6000 B counted over the 75 ms they took.
  assert.deepEqual(two.times, [0.001, 25, 25, 25]);
});

/**
 * seg-REP-1 (400,000 B) asked with `buffer` (CMCD bl, d) and `nor` = seg-REP-2: first byte after 100 ms (1000 B), then
 * 10,000 B per 5 ms until the early request goes out or the segment is in. With 101,000 B in after 50 ms the rest
 * would take 299,000 / 2020 = 148 ms ≤ 1.5 × 100 ms (with 91,000 B, 153 ms): the prefix is 1.5 × 2020 B/ms × 100 ms.
 */
async function currentAtLead(server: ManualServer, fetcher: PrefetchingFetcher, rep: string, buffer: string): Promise<{ first: Promise<MediaResponse>; cur: Pending }> {
  const first = fetcher.fetch(segmentPath(rep, 1, true, buffer), null, () => {}, new AbortController().signal);
  const cur = server.requests.at(-1)!;
  await server.deliver(cur, 1000, 100);
  while (cur.sent < cur.body.byteLength && server.requests.at(-1) === cur) await server.deliver(cur, 10_000, 5);
  return { first, cur };
}
const GAP_PREFIX_BYTES = 1.5 * 2020 * 100;

test('the prefix fetched ahead is rate × time to first byte (× PREFETCH_LEAD), the rest is asked for as soon as dash.js asks, and the next early request waits for the rest', async () => {
  const server = new ManualServer({ '/abr/seg-a-1.m4s': file(400_000, 1), '/abr/seg-a-2.m4s': file(500_000, 2), '/abr/seg-a-3.m4s': file(500_000, 3) });
  const fetcher = new PrefetchingFetcher(server, { enabled: true, nowMs: () => server.clockMs });
  const { first, cur } = await currentAtLead(server, fetcher, 'a', 'bl=4000,d=2000');
  assert.equal(cur.sent, 101_000);
  const early = server.requests[1]!;
  assert.equal(early.path.split('?', 1)[0], '/abr/seg-a-2.m4s');
  assert.deepEqual(early.range, { firstByte: 0, lastByte: GAP_PREFIX_BYTES - 1 });
  await server.deliver(early, 100_000, 100);
  await server.deliver(cur, 299_000, 10);
  await first;
  const seen = collect();
  const served = fetcher.fetch(segmentPath('a', 2, true), null, seen.cb, new AbortController().signal);
  await new Promise((r) => setImmediate(r));
  // The prefix is still arriving: the rest goes out now, so its time to first byte overlaps the prefix's arrival.
  assert.equal(server.requests.length, 3);
  const rest = server.requests[2]!;
  assert.deepEqual(rest.range, { firstByte: GAP_PREFIX_BYTES, lastByte: null });
  assert.ok(!isPrefetchRequest(rest.path), 'dash.js asked for it: not an early request');
  await server.deliver(early, GAP_PREFIX_BYTES - 100_000, 50);
  // The prefix is in but most of the segment is not: seg-a-3 is not asked for yet (the rest is watched, not the prefix).
  await server.deliver(rest, 1000, 50);
  assert.equal(server.requests.length, 3);
  await server.deliver(rest, 500_000 - GAP_PREFIX_BYTES - 1000, 50);
  const response = await served;
  assert.equal(response.status, 200);
  assert.deepEqual(new Uint8Array(response.body), file(500_000, 2));
  assert.deepEqual(seen.events.map((e) => e.loaded), [100_000, GAP_PREFIX_BYTES, GAP_PREFIX_BYTES + 1000, 500_000]);
  assert.equal(fetcher.counters.prefetchWasteBytes, 0);
  assert.equal(server.requests[3]?.path.split('?', 1)[0], '/abr/seg-a-3.m4s', 'asked when the rest ended');
});

test('a rendition switch wastes at most the prefix, not the segment', async () => {
  const server = new ManualServer({ '/abr/seg-lo-1.m4s': file(400_000, 1), '/abr/seg-lo-2.m4s': file(2_000_000, 2), '/abr/seg-hi-2.m4s': file(3000, 3) });
  const fetcher = new PrefetchingFetcher(server, { enabled: true, nowMs: () => server.clockMs });
  const { first, cur } = await currentAtLead(server, fetcher, 'lo', 'bl=4000,d=2000');
  const early = server.requests[1]!;
  // Everything the server was asked for ahead arrives before dash.js decides.
  await server.deliver(early, 2_000_000, 100);
  await server.deliver(cur, 299_000, 10);
  await first;
  const switched = fetcher.fetch(segmentPath('hi', 2, false), null, () => {}, new AbortController().signal);
  assert.equal(fetcher.counters.prefetchCancelled, 1);
  assert.equal(fetcher.counters.prefetchWasteBytes, GAP_PREFIX_BYTES);
  assert.ok(GAP_PREFIX_BYTES < 2_000_000 / 6);
  await server.deliver(server.requests[2]!, 3000, 20);
  assert.deepEqual(new Uint8Array((await switched).body), file(3000, 3));
});

test('no early request while the buffer will be at or above its target when the current segment is in', async () => {
  const files = { '/abr/seg-a-1.m4s': file(400_000, 1), '/abr/seg-a-2.m4s': file(400_000, 2) };
  // bl 17 s + d 2 s - 150 ms since the request = 18.85 s ≥ 18 s: dash.js will wait before it asks (no gap to hide).
  const full = new ManualServer(files);
  const atTarget = new PrefetchingFetcher(full, { enabled: true, bufferTargetMs: 18_000, nowMs: () => full.clockMs });
  const { first } = await currentAtLead(full, atTarget, 'a', 'bl=17000,d=2000');
  await first;
  assert.equal(full.requests.length, 1, 'no early request');
  assert.equal(atTarget.counters.prefetchIssued, 0);
  // The same transfer with bl 15 s (16.85 s at the lead): below the target, the early request goes out.
  const below = new ManualServer(files);
  const belowTarget = new PrefetchingFetcher(below, { enabled: true, bufferTargetMs: 18_000, nowMs: () => below.clockMs });
  await currentAtLead(below, belowTarget, 'a', 'bl=15000,d=2000');
  assert.equal(below.requests.length, 2);
  assert.equal(belowTarget.counters.prefetchIssued, 1);
});

test('a server that ignores the early request\'s range (200, the whole segment): served as is, the rest dropped, nothing joined', async () => {
  const server = new ManualServer({ '/abr/seg-a-1.m4s': file(400_000, 1), '/abr/seg-a-2.m4s': file(500_000, 2) });
  const noRanges: MediaFetcher = { fetch: (path, range, cb, signal) => server.fetch(path, isPrefetchRequest(path) ? null : range, cb, signal) };
  const fetcher = new PrefetchingFetcher(noRanges, { enabled: true, nowMs: () => server.clockMs });
  const { first, cur } = await currentAtLead(server, fetcher, 'a', 'bl=4000,d=2000');
  const early = server.requests[1]!;
  await server.deliver(cur, 299_000, 10);
  await first;
  const served = fetcher.fetch(segmentPath('a', 2, false), null, () => {}, new AbortController().signal);
  await new Promise((r) => setImmediate(r));
  const rest = server.requests[2]!;
  await server.deliver(early, 500_000, 100);
  const response = await served;
  assert.deepEqual(new Uint8Array(response.body), file(500_000, 2));
  assert.ok(rest.signal.aborted, 'the rest is no longer needed');
});
