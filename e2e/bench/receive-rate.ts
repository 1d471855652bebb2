// Benchmark: how fast the player page receives paced datagrams, and whether any are lost on the way.
//   npm run -s bench:receive -w e2e -- [--rates-mbps 25,50,100] [--seconds 10]
// For each rate, the origin's `fixed` controller paces at that rate while the page plays the 30 Mbit/s stream (so
// dash.js keeps requesting while its buffer fills); the page's metrics give goodput per second and the datagrams the
// sender sent that never arrived. Prints JSON lines and writes e2e/test-results/receive-rate.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../src/chromium.ts';
import { startOriginProcess } from '@pcc-stream/server/process';
import { repoRoot } from '../src/repo-root.ts';
import { mediaDir, playerDist, preparePlayerAndMedia } from '../src/player-fixture.ts';
import type {} from '@pcc-stream/player';

const targetMbps = 50;
const args = process.argv.slice(2);
function option(name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? (args[i + 1] as string) : fallback;
}
const ratesMbps = option('rates-mbps', '25,50,100').split(',').map(Number);
const seconds = Number(option('seconds', '10'));
if (ratesMbps.some((r) => !Number.isFinite(r) || r <= 0 || r > 1000) || !Number.isInteger(seconds) || seconds < 3 || seconds > 60) {
  console.error('usage: receive-rate.ts [--rates-mbps 25,50,100] [--seconds 3..60]');
  process.exit(2);
}
const log = (event: string, detail: Record<string, unknown>): void => {
  process.stderr.write(`${JSON.stringify({ t: new Date().toISOString(), component: 'bench-receive', event, ...detail })}\n`);
};

preparePlayerAndMedia();
const origin = await startOriginProcess({ mediaDir, staticDir: playerDist, cc: 'vivace' });
const browser = await launchChromium();
const results: Record<string, unknown>[] = [];
try {
  for (const rateMbps of ratesMbps) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${origin.httpBase}/?cc=fixed&rateBps=${rateMbps * 1e6}&content=fixed-30000k&port=${origin.webTransportPort}`);
    // Skip the first second (session setup, manifest), then average `seconds` full seconds of buffering.
    await page.waitForFunction((n) => (window.pccPlayer.metrics()?.series.length ?? 0) >= n + 2 || window.pccPlayer.errors().length > 0, seconds, { timeout: (seconds + 30) * 1000, polling: 500 });
    const m = await page.evaluate(() => window.pccPlayer.metrics());
    const errors = await page.evaluate(() => window.pccPlayer.errors());
    await context.close();
    if (!m || errors.length > 0) throw new Error(`page failed at ${rateMbps} Mbit/s: ${errors.join('; ')}`);
    const perSecondMbps = m.series.slice(1, seconds + 1).map((s) => +(s.goodputBps / 1e6).toFixed(1));
    const meanGoodputMbps = perSecondMbps.reduce((a, b) => a + b, 0) / perSecondMbps.length;
    const result = {
      rateMbps, seconds, meanGoodputMbps: +meanGoodputMbps.toFixed(1), perSecondMbps,
      datagramsReceived: m.datagramsReceived, datagramsDropped: m.datagramsDropped, datagramsDeclaredLost: m.datagramsDeclaredLost,
      dropRate: m.datagramsReceived > 0 ? +(m.datagramsDropped / (m.datagramsReceived + m.datagramsDropped)).toFixed(5) : null,
      loadAverage1m: +(loadavg()[0] ?? 0).toFixed(1),
    };
    results.push(result);
    log('rate-done', result);
  }
} finally {
  await browser.close();
  await origin.stop();
}
const at50 = results.find((r) => r.rateMbps === targetMbps);
const summary = {
  target: `${targetMbps} Mbit/s without drops`,
  targetMet: at50 ? (at50.datagramsDropped === 0 && (at50.meanGoodputMbps as number) >= 0.8 * targetMbps) : null,
  results,
};
const outDir = join(repoRoot, 'e2e', 'test-results');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'receive-rate.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary));
