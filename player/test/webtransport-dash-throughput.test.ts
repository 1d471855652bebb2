// What dash.js's own throughput model stores for a segment that came over WebTransport (issue 18's LTE target,
// bench/published/2026-11-25/webtransport-ttfb): dash.js 5's real HTTPLoader and ThroughputModel over our loader, with
// the body's progress reported as the WebTransport worker reports it (its ProgressPacer, webtransport-worker.ts), on a
// test clock that also moves dash.js's own clock (Date). The RESPONSE frame arrives on the request stream long before
// the body's first datagram (the sender's rate and queue); over HTTP the head and the first bytes come together. The
// sample must be the bytes over the time from the first byte to the last, as dash.js counts an HTTP fetch: the time to
// first byte is the request's latency (its first trace entry), never download time.
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { PrefetchingFetcher } from '../src/transport/prefetching-fetcher.ts';
import { dashLoader } from './dash-throughput-harness.ts';
import { ManualServer, file, segmentPath, type Pending } from './prefetch-test-server.ts';

/** Large enough that the early request (1.5 × rate × time to first byte, prefetching-fetcher.ts) is a prefix. */
const SEGMENT_BYTES = 1_000_000;
/** The RESPONSE frame's arrival after the request, and the first datagram's after the frame (ms). */
const FRAME_MS = 60;
const FRAME_TO_FIRST_BYTE_MS = 340;

/** The body from its first datagram: 10 kB per 10 ms (8 Mbit/s); the time from the first byte to the last (ms). */
async function body(server: ManualServer, p: Pending): Promise<number> {
  await server.deliver(p, 10_000, FRAME_TO_FIRST_BYTE_MS);
  let ms = 0;
  while (p.sent < p.body.byteLength) {
    await server.deliver(p, 10_000, 10);
    ms += 10;
  }
  return ms;
}

function wtServer(): ManualServer {
  mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
  return new ManualServer({ '/abr/seg-a-1.m4s': file(SEGMENT_BYTES, 1), '/abr/seg-a-2.m4s': file(SEGMENT_BYTES, 2) },
    { webTransport: true, onAdvance: (ms) => mock.timers.tick(ms) });
}

test("dash.js's sample for a segment over WebTransport leaves out the time from the RESPONSE frame to the first byte", async (t) => {
  t.after(() => mock.timers.reset());
  const server = wtServer();
  const { load } = await dashLoader(server);
  const sample = load(segmentPath('a', 1, false));
  await new Promise((r) => setImmediate(r));
  const p = server.requests[0]!;
  await server.head(p, FRAME_MS);
  const bodyMs = await body(server, p);
  const s = await sample;
  assert.equal(s.downloadedBytes, SEGMENT_BYTES);
  // With the head reported at the frame: 340 ms more (1330 ms for a body that took 990).
  assert.equal(s.downloadTimeInMs, bodyMs, `download time ${s.downloadTimeInMs} ms: first byte to last (${bodyMs} ms), no time to first byte`);
  assert.equal(s.value, Math.round((8 * SEGMENT_BYTES) / bodyMs));
});

test("dash.js's sample for a segment served from an early request over WebTransport leaves out both transfers' time from the RESPONSE frame to the first byte", async (t) => {
  t.after(() => mock.timers.reset());
  const server = wtServer();
  const fetcher = new PrefetchingFetcher(server, { enabled: true, nowMs: () => server.clockMs });
  const { load } = await dashLoader(fetcher);
  // Segment 1, dash.js's own request; its early request for segment 2 goes out while it arrives.
  const first = load(segmentPath('a', 1, true, 'bl=2000'));
  await new Promise((r) => setImmediate(r));
  const cur = server.requests[0]!;
  await server.head(cur, FRAME_MS);
  await body(server, cur);
  await first;
  assert.equal(server.requests.length, 2, 'the early request went out');
  const early = server.requests[1]!;
  await server.head(early, FRAME_MS);
  const prefixMs = await body(server, early);
  // dash.js asks for segment 2 a second later; the rest's RESPONSE frame and first byte come as the prefix's did.
  server.clockMs += 1000;
  mock.timers.tick(1000);
  const second = load(segmentPath('a', 2, false, 'bl=2000'));
  await new Promise((r) => setImmediate(r));
  assert.equal(server.requests.length, 3, 'the rest was asked for');
  const rest = server.requests[2]!;
  await server.head(rest, FRAME_MS);
  const restMs = await body(server, rest);
  const s = await second;
  assert.equal(s.downloadedBytes, SEGMENT_BYTES, 'every byte of the segment counted');
  // The heads are handed as pieces of MIN_PIECE_MS (transport-loader.ts: dash.js reads 0 as "no time given").
  // With the heads at the frames: 2 × 340 ms more.
  assert.ok(Math.abs(s.downloadTimeInMs - (prefixMs + restMs)) < 0.01,
    `download time ${s.downloadTimeInMs} ms: the prefix's and the rest's first byte to last (${prefixMs} + ${restMs} ms)`);
});
