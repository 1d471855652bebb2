// What dash.js's own throughput model stores for a segment served from an early request (issue 18, the prefetch aid's
// bitrate cost to the TCP baseline, bench/published/2026-11-25/prefetch-tcp-abr): dash.js 5's real HTTPLoader loads
// through our loader (transport-loader.ts, installed as its XHRLoader) and PrefetchingFetcher, and dash.js's real
// ThroughputModel computes the sample from the trace HTTPLoader built. The bytes arrive from an in-memory server on a
// clock the test moves, and every progress event of a prefetched segment carries its duration on that clock, so the
// sample is exact. The sample must be the segment's bytes over the time its bytes were on their way; the time dash.js
// took to ask for it after the prefix had arrived, and the rest's time to first byte, are no download time (dash.js
// counts neither for a request of its own: its first trace entry is latency, ThroughputModel useDeadTimeLatency).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PrefetchingFetcher } from '../src/transport/prefetching-fetcher.ts';
import { dashLoader } from './dash-throughput-harness.ts';
import { ManualServer, file, segmentPath } from './prefetch-test-server.ts';

test("dash.js's sample for a segment served from an early request counts the time its bytes were on their way, not dash.js's wait before asking nor the rest's time to first byte", async () => {
  const server = new ManualServer({ '/abr/seg-a-1.m4s': file(400_000, 1), '/abr/seg-a-2.m4s': file(400_000, 2) });
  // A buffer well below the target: the early request goes out.
  const fetcher = new PrefetchingFetcher(server, { enabled: true, nowMs: () => server.clockMs });
  const { load } = await dashLoader(fetcher);
  // Segment 1, dash.js's own request: head after 100 ms, then 40 pieces of 10 kB 10 ms apart (8 Mbit/s).
  const first = load(segmentPath('a', 1, true, 'bl=2000'));
  await new Promise((r) => setImmediate(r));
  const cur = server.requests[0]!;
  await server.head(cur, 100);
  for (let i = 0; i < 40 && server.requests.length === 1; i++) await server.deliver(cur, 10_000, 10);
  assert.equal(server.requests.length, 2, 'the early request went out before segment 1 ended');
  const early = server.requests[1]!;
  const prefixBytes = early.body.byteLength;
  // The rest of segment 1 and the whole prefix arrive (head 100 ms after its request, 10 kB per 10 ms).
  while (cur.sent < cur.body.byteLength) await server.deliver(cur, 10_000, 10);
  // Segment 1's events carry no duration (bytes arriving now): dash.js times them on its own wall clock.
  assert.equal((await first).downloadedBytes, 400_000);
  await server.head(early, 0);
  let prefixMs = 0;
  while (early.sent < prefixBytes) {
    await server.deliver(early, 10_000, 10);
    prefixMs += 10;
  }
  // dash.js waits 2 s (its buffer at target) before it asks for segment 2; the rest's head comes 150 ms after that.
  server.clockMs += 2000;
  const second = load(segmentPath('a', 2, false, 'bl=2000'));
  await new Promise((r) => setImmediate(r));
  assert.equal(server.requests.length, 3, 'the rest was asked for');
  const rest = server.requests[2]!;
  assert.deepEqual(rest.range, { firstByte: prefixBytes, lastByte: null });
  await server.head(rest, 150);
  let restMs = 0;
  while (rest.sent < rest.body.byteLength) {
    await server.deliver(rest, 10_000, 10);
    restMs += 10;
  }
  const s2 = await second;
  assert.equal(s2.downloadedBytes, 400_000, 'every byte of the segment counted');
  // The rest's head is handed as a piece of MIN_PIECE_MS (transport-loader.ts: dash.js reads 0 as "no time given").
  assert.ok(Math.abs(s2.downloadTimeInMs - (prefixMs + restMs)) < 0.01,
    `download time ${s2.downloadTimeInMs} ms: the prefix's and the rest's bytes on their way (${prefixMs} + ${restMs} ms), no wait, no time to first byte`);
  // 10 kB per 10 ms but for each transfer's last, partial piece: 8·bytes/ms of the time the path carried it.
  assert.equal(s2.value, Math.round((8 * 400_000) / s2.downloadTimeInMs));
  assert.ok(s2.value > 7500, `sample ${s2.value} kbit/s, the path's rate (a sample with the 2.15 s of waiting in it: ~1250)`);
});
