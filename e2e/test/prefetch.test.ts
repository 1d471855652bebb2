// Client-side early requests (issue 18 item 5, player `prefetch=1`) end to end in Chromium: dash.js's segments are
// served from requests the loader made ahead (CMCD nor), over WebTransport datagrams and over HTTP/1.1 on kernel TCP, and every such
// segment still feeds dash.js's throughput model (a segment handed over microseconds after dash.js asked would be
// dropped as "from a cache" without its real arrival timing).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { CmsdReport, SessionReport } from '@pcc-stream/player';
import type { OriginProcess } from '@pcc-stream/server/process';
import { originPortsQuery, startOriginAndChromium } from '../src/origin-and-chromium.ts';

const playS = 20;
/** The pinned 4000 kbit/s rung's video segments are ~1 MB, its audio ~24 KB: a stored sample above this is video's. */
const VIDEO_SAMPLE_MIN_BYTES = 200_000;

let origin: OriginProcess;
let browser: Browser;


before(async () => {
  ({ origin, browser } = await startOriginAndChromium());
});

after(async () => {
  await browser?.close();
  await origin?.stop();
});

async function play(query: string): Promise<{ report: SessionReport; cmsd: CmsdReport }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(`${origin.httpBase}/?${query}&content=abr&abr=off&bitrate=4000&${originPortsQuery(origin)}`);
    await page.waitForFunction(() => (window.pccPlayer.metrics()?.startupDelayS ?? null) !== null || window.pccPlayer.errors().length > 0, undefined, { timeout: 30_000 });
    assert.deepEqual(await page.evaluate(() => window.pccPlayer.errors()), []);
    await page.waitForTimeout(playS * 1000);
    const report = (await page.evaluate(() => window.pccPlayer.metrics()))!;
    const cmsd = (await page.evaluate(() => window.pccPlayer.cmsd()))!;
    return { report, cmsd };
  } finally {
    await context.close();
  }
}

function check(label: string, report: SessionReport, cmsd: CmsdReport): void {
  assert.deepEqual(report.errors, []);
  assert.equal(report.prefetch, true);
  process.stderr.write(`${JSON.stringify({
    component: 'e2e', test: 'prefetch', transport: label, segments: report.segmentsLoaded, hits: report.prefetchHits, issued: report.prefetchIssued,
    cancelled: report.prefetchCancelled, prefetch_bytes: report.prefetchBytes, waste_bytes: report.prefetchWasteBytes, bytes: report.bytesReceived,
    samples: cmsd.samples.length, gap_mean_ms: report.segmentGapMeanMs, gaps: report.segmentGapCount,
  })}\n`);
  assert.ok(report.segmentsLoaded >= 6, `${label}: only ${report.segmentsLoaded} video segments in ${playS} s`);
  assert.ok(report.prefetchHits >= report.segmentsLoaded / 2, `${label}: ${report.prefetchHits} of ${report.segmentsLoaded} segments served from early requests`);
  assert.ok(report.prefetchWasteBytes <= report.prefetchBytes && report.prefetchBytes <= report.bytesReceived);
}

/** dash.js stored a throughput sample for every video segment, those served from early requests included. */
function checkSamples(label: string, report: SessionReport, cmsd: CmsdReport, sampleBytes: number[], minShare: number): void {
  const video = sampleBytes.filter((b) => b >= VIDEO_SAMPLE_MIN_BYTES).length;
  assert.ok(video >= Math.floor(report.segmentsLoaded * minShare), `${label}: dash.js kept ${video} video throughput samples for ${report.segmentsLoaded} segments `
    + `(${report.prefetchHits} served from early requests): samples of served segments were dropped`);
  assert.ok(cmsd.samples.every((s) => Number.isFinite(s.rawKbps)));
}

test('datagrams: dash.js is served from early requests and keeps a throughput sample for every video segment', { timeout: 120_000 }, async () => {
  const { report, cmsd } = await play('cc=vivace&prefetch=1');
  check('datagram', report, cmsd);
  checkSamples('datagram', report, cmsd, cmsd.samples.map((s) => s.downloadedBytes), 0.9);
});

test('HTTP/1.1 over kernel TCP with the same aid, in a Chromium without certificate flags', { timeout: 120_000 }, async () => {
  const { report, cmsd } = await play('transport=tcp&cc=cubic&prefetch=1');
  check('tcp', report, cmsd);
  // On loopback fetch() often hands over a 1 MB body in one read: the response head goes to dash.js as its own
  // zero-byte first event (http-fetcher.ts, transport-loader.ts), so the body's bytes still count as a sample.
  checkSamples('tcp', report, cmsd, cmsd.samples.map((s) => s.downloadedBytes), 0.9);
});
