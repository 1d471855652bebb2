// The demo's charts and summary cards on an emulated network (issue 19 'Done when'): npm start -- --network NAME, the
// printed pages in Chromium with no certificate flag and no certificate-error override; every pane's charts carry the link's
// capacity and queueing delay, and after Stop its card's buffering ratio is window.pccPlayer.metrics()'s, with the
// link's p95 queueing delay and utilization. Needs root (namespaces).
// PCC_DEMO_PLAY_S sets each play's length (default 12 s; the bar: 30), PCC_DEMO_PRESETS the networks
// (default changing-rtt; the bar: lte,changing-rtt).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../src/chromium.ts';
import { chartPoints, stopForCards, summaryCard } from '../src/demo-pane.ts';
import { freeTcpPort } from '../src/free-port.ts';
import { interrupt, npmStart } from '../src/npm-start.ts';

const PLAY_S = Number(process.env.PCC_DEMO_PLAY_S ?? 12);
const PRESETS = (process.env.PCC_DEMO_PRESETS ?? 'changing-rtt').split(',');
/** The pages of the bar, as npm start prints them (each URL also names the preset's media set). */
const PAGES: Array<{ name: string; panes: number; pick: (url: string) => boolean }> = [
  { name: 'cc=vivace', panes: 1, pick: (u) => u.includes('?cc=vivace&') },
  { name: 'transport=tcp&cc=cubic', panes: 1, pick: (u) => u.includes('?transport=tcp&cc=cubic&') },
  // Side by side: each pane on its own copy of the link. Not competing: there vivace shares a link sized for two
  // streams with CUBIC, which fills its 30 s buffer first, and how long vivace waits for its first frame and how
  // much it stalls varies from run to run (a figure for demo-bar.ts, not a test).
  { name: 'compare=vivace,cubic@tcp side by side', panes: 2, pick: (u) => u.includes('?compare=vivace,cubic@tcp&mode=side-by-side') },
];

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

async function playAndStop(page: Page, url: string, panes: number): Promise<void> {
  await page.goto(url);
  await page.waitForFunction((n) => {
    const all = window.pccPlayer.allMetrics();
    return (all.length === n && all.every((m) => m.startupDelayS !== null)) || window.pccPlayer.errors().length > 0;
  }, panes, { timeout: 60_000 });
  assert.deepEqual(await page.evaluate(() => window.pccPlayer.errors()), [], `${url}: errors before playback`);
  await page.waitForTimeout(PLAY_S * 1000);
  await stopForCards(page, panes);
}

for (const preset of PRESETS) {
  test(`npm start -- --network ${preset}: capacity and queueing delay on every pane's charts; the cards agree with window.pccPlayer.metrics()`, async (t) => {
    const demo = await npmStart(['--network', preset, '--http-port', String(await freeTcpPort())]);
    try {
      for (const spec of PAGES) {
        await t.test(spec.name, async () => {
          const url = demo.urls.find(spec.pick);
          assert.ok(url, `npm start printed no ${spec.name} page: ${demo.urls.join(' ')}`);
          const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
          const page = await context.newPage();
          const pageErrors: string[] = [];
          page.on('pageerror', (err) => pageErrors.push(err.message));
          try {
            await playAndStop(page, url, spec.panes);
            const line = await page.locator('.network-line').textContent();
            assert.match(line ?? '', new RegExp(`network: ${preset} `), 'the page names the network');
            for (let i = 0; i < spec.panes; i += 1) {
              const points = await chartPoints(page, i);
              assert.ok((points[0]?.['link capacity'] ?? 0) >= PLAY_S - 2, `pane ${i}: capacity points ${JSON.stringify(points[0])}`);
              assert.ok((points[1]?.['link queueing delay p95 (ms)'] ?? 0) >= 1, `pane ${i}: queue points ${JSON.stringify(points[1])}`);
              const m = await page.evaluate((n) => window.pccPlayer.metrics(n), i);
              assert.ok(m && m.playingS >= PLAY_S * 0.5, `pane ${i} (${m?.label}) played ${m?.playingS.toFixed(1)} s of ${PLAY_S}`);
              const card = await summaryCard(page, i);
              assert.equal(card.bufferingRatio, m.bufferingRatio, `pane ${i}: card buffering ratio = metrics().bufferingRatio`);
              assert.equal(card.stallCount, m.stallCount);
              assert.equal(card.startupDelayS, m.startupDelayS);
              assert.equal(card.playedBitrateMbps, m.timeWeightedBitrateKbps / 1000);
              assert.equal(card.downloadedBitrateMbps, m.averageBitrateKbps / 1000);
              assert.ok(card.linkUtilization !== null && card.linkUtilization! > 0.02 && card.linkUtilization! <= 1.1, `pane ${i}: link utilization ${card.linkUtilization}`);
              assert.ok(card.queueDelayP95Ms !== null && card.queueDelayP95Ms! >= 0, `pane ${i}: p95 queueing delay ${card.queueDelayP95Ms}`);
              process.stderr.write(`${JSON.stringify({ component: 'e2e', preset, page: spec.name, pane: m.label, ...card })}\n`);
            }
            assert.deepEqual(await page.evaluate(() => window.pccPlayer.errors()), []);
            assert.deepEqual(pageErrors, []);
          } finally {
            await context.close();
          }
        });
      }
    } finally {
      await interrupt(demo);
    }
  });
}
