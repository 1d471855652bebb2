// The page's end of a run in Chromium (issue 19 item 3): Stop freezes every pane and shows its summary card, whose
// buffering ratio is window.pccPlayer.metrics()'s; "Download this run" saves the series as JSON and the charts as PNG.
// WebTransport sessions only (they trust the origin through the certificate hash): no certificate flag, no
// certificate-error override.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Download, Page } from 'playwright-core';
import type { SessionReport } from '@pcc-stream/player';
import type { OriginProcess } from '@pcc-stream/server/process';
import { startOriginAndChromium } from '../src/origin-and-chromium.ts';

/** Long enough for startup, a few rendition switches and the charts' first points on a loaded 2-core machine. */
const PLAY_S = 12;

let origin: OriginProcess;
let browser: Browser;
let downloadsDir: string;

before(async () => {
  ({ origin, browser } = await startOriginAndChromium());
  downloadsDir = mkdtempSync(join(tmpdir(), 'pcc-run-download-'));
});

after(async () => {
  await browser?.close();
  await origin?.stop();
  if (downloadsDir) rmSync(downloadsDir, { recursive: true, force: true });
});

async function openPlaying(query: string, panes: number): Promise<{ page: Page; pageErrors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(`pageerror: ${err.message}`));
  await page.goto(`${origin.httpBase}/?${query}&port=${origin.webTransportPort}`);
  await page.waitForFunction((n) => {
    const all = window.pccPlayer.allMetrics();
    return (all.length === n && all.every((m) => m.startupDelayS !== null)) || window.pccPlayer.errors().length > 0;
  }, panes, { timeout: 30_000 });
  assert.deepEqual(await page.evaluate(() => window.pccPlayer.errors()), [], 'the page reported errors before playback');
  await page.waitForTimeout(PLAY_S * 1000);
  return { page, pageErrors, close: () => context.close() };
}

/** The card's unrounded values (data-value), by figure name; absent figures (no emulated link) are null. */
async function cardValues(page: Page, pane: number): Promise<Record<string, number | null>> {
  return page.evaluate((i) => {
    const card = document.querySelector(`section.pane[data-session="${i}"] .summary-card`);
    if (!card) throw new Error(`pane ${i} shows no summary card`);
    const out: Record<string, number | null> = {};
    for (const dd of card.querySelectorAll<HTMLElement>('dd[data-qoe]')) out[dd.dataset.qoe!] = dd.dataset.value === undefined ? null : Number(dd.dataset.value);
    return out;
  }, pane);
}

function assertCardMatches(card: Record<string, number | null>, m: SessionReport): void {
  assert.equal(card.bufferingRatio, m.bufferingRatio, 'card buffering ratio = window.pccPlayer.metrics().bufferingRatio');
  assert.equal(card.stallCount, m.stallCount);
  assert.equal(card.stallTimeS, m.totalStallS);
  assert.equal(card.startupDelayS, m.startupDelayS);
  assert.equal(card.playedBitrateMbps, m.timeWeightedBitrateKbps / 1000);
  assert.equal(card.downloadedBitrateMbps, m.averageBitrateKbps / 1000);
  assert.ok(m.averageBitrateKbps > 0, 'no video segment was counted');
  assert.ok(m.timeWeightedBitrateKbps > 0, 'no playing time was credited');
  // The test origin has no emulated link: /network answers loopback (or is absent), so there is no link figure.
  assert.equal(card.queueDelayP95Ms, null);
  assert.equal(card.linkUtilization, null);
}

test('Stop: each pane\'s card shows the bench\'s figures, its buffering ratio equal to window.pccPlayer.metrics()', async () => {
  const { page, pageErrors, close } = await openPlaying('compare=vivace,allegro', 2);
  try {
    const canvases = await page.locator('section.pane .chart canvas').count();
    assert.equal(canvases, 6, 'three charts per pane');
    // Points each series drew (data-points): the page's own series fill in; on loopback the link's are left out.
    const drawn = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('section.pane[data-session="0"] .chart')]
      .map((c) => JSON.parse(c.dataset.points ?? '{}') as Record<string, number>));
    const rates = drawn[0] ?? {};
    assert.ok((rates['goodput'] ?? 0) >= PLAY_S - 3 && (rates['sending rate (controller)'] ?? 0) >= PLAY_S - 3, `rates chart: ${JSON.stringify(rates)}`);
    assert.equal(rates['link capacity'], 0, 'no link capacity on loopback');
    assert.equal(drawn[1]?.['link queueing delay p95 (ms)'], 0, 'no link queueing delay on loopback');
    assert.equal(await page.locator('section.pane .u-legend .u-series:has-text("link capacity")').first().isVisible(), false, 'no legend entry for a link that is not there');
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.summary-card').length === 2, undefined, { timeout: 5000 });
    for (const i of [0, 1]) {
      const m = await page.evaluate((n) => window.pccPlayer.metrics(n), i);
      assert.ok(m, `no metrics for pane ${i}`);
      assert.ok(m.playingS >= PLAY_S - 2, `pane ${i} played only ${m.playingS.toFixed(1)} s`);
      assertCardMatches(await cardValues(page, i), m);
    }
    // Frozen: a second later the metrics have not moved (the card stays true).
    const first = await page.evaluate(() => window.pccPlayer.allMetrics().map((m) => [m.bufferingRatio, m.playingS, m.totalStallS]));
    await page.waitForTimeout(1500);
    assert.deepEqual(await page.evaluate(() => window.pccPlayer.allMetrics().map((m) => [m.bufferingRatio, m.playingS, m.totalStallS])), first);
    assert.equal(await page.getByRole('button', { name: 'Stop' }).isDisabled(), true);
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(await page.evaluate(() => window.pccPlayer.errors()), []);
  } finally {
    await close();
  }
});

test('Download this run: a JSON of the series, network and summary, and a PNG of the charts, both readable', async () => {
  const { page, pageErrors, close } = await openPlaying('cc=vivace', 1);
  try {
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.locator('.summary-card').waitFor({ timeout: 5000 });
    const downloads: Download[] = [];
    const two = new Promise<void>((resolve) => page.on('download', (d) => { downloads.push(d); if (downloads.length === 2) resolve(); }));
    await page.getByRole('button', { name: 'Download this run' }).click();
    await Promise.race([two, page.waitForTimeout(10_000).then(() => { throw new Error(`${downloads.length} of 2 downloads started`); })]);
    const byExt = new Map(downloads.map((d) => [d.suggestedFilename().split('.').pop(), d]));
    const jsonDownload = byExt.get('json');
    const pngDownload = byExt.get('png');
    assert.ok(jsonDownload && pngDownload, `downloads: ${downloads.map((d) => d.suggestedFilename()).join(', ')}`);
    assert.match(jsonDownload.suggestedFilename(), /^pcc-stream-run-.+\.json$/);

    const jsonPath = join(downloadsDir, jsonDownload.suggestedFilename());
    await jsonDownload.saveAs(jsonPath);
    const run = JSON.parse(readFileSync(jsonPath, 'utf8')) as {
      version: number; network: { mode: string; links: unknown[] } | null;
      panes: Array<{ metrics: SessionReport; summary: { bufferingRatio: number } | null; linkId: string | null }>;
    };
    const m = await page.evaluate(() => window.pccPlayer.metrics());
    assert.ok(m);
    assert.equal(run.version, 1);
    assert.equal(run.panes.length, 1);
    const pane = run.panes[0]!;
    assert.equal(pane.summary?.bufferingRatio, m.bufferingRatio);
    assert.equal(pane.metrics.bufferingRatio, m.bufferingRatio);
    assert.ok(pane.metrics.series.length >= PLAY_S - 2, `only ${pane.metrics.series.length} per-second samples saved`);
    assert.equal(pane.linkId, null);
    // The test origin answers /network on loopback: no links (or, before it served /network, nothing).
    if (run.network !== null) assert.deepEqual([run.network.mode, run.network.links.length], ['loopback', 0]);

    const pngPath = join(downloadsDir, pngDownload.suggestedFilename());
    await pngDownload.saveAs(pngPath);
    const png = readFileSync(pngPath);
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
    assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    assert.ok(width >= 300 && height >= 400, `image ${width}×${height}`);
    // The image is the charts, not a blank canvas: it decodes in the page and has more than one colour.
    const colours = await page.evaluate(async (b64) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length && seen.size < 50; i += 4 * 97) seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
      return seen.size;
    }, png.toString('base64'));
    assert.ok(colours >= 5, `the PNG has ${colours} colours: nothing drawn`);
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(await page.evaluate(() => window.pccPlayer.errors()), []);
  } finally {
    await close();
  }
});
