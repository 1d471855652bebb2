// The controller playground (/playground, issue 19 item 5) in a plain Chromium on http://127.0.0.1: its
// window.pccPlayground.run(config) gives the report `npm run -s sim -- ARGS --json` prints for the same
// configuration, bit for bit (one run on an LTE trace shipped with the page, one with three flows), and a link with
// the settings in its query runs them and draws the charts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { simulationArgs } from '@pcc-stream/controller';
import type { OriginProcess } from '@pcc-stream/server/process';
import type { PlaygroundConfig } from '@pcc-stream/player/playground';
import { startOriginAndChromium } from '../src/origin-and-chromium.ts';
import { repoRoot } from '../src/repo-root.ts';

let origin: OriginProcess;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

before(async () => {
  const build = spawnSync('npm', ['run', '-s', 'build:sim', '-w', 'controller-wasm'], { cwd: repoRoot, stdio: 'inherit' });
  assert.equal(build.status, 0, 'pcc-sim builds');
  ({ origin, browser } = await startOriginAndChromium());
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

after(async () => {
  await browser?.close();
  await origin?.stop();
});

const pageUrl = (query = ''): string => `http://127.0.0.1:${origin.httpPort}/playground${query}`;

/** What the user types: npm run -s sim -- ARGS --json, with the trace by its path in the repository. */
function cliReport(config: PlaygroundConfig): string {
  const { trace, ...rest } = config;
  const args = [...simulationArgs(rest), ...(trace ? ['--trace', `bench/traces/${trace}`] : [])];
  const run = spawnSync('npm', ['run', '-s', 'sim', '--', ...args], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(run.status, 0, `npm run -s sim -- ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
}

const configs: Array<{ name: string; config: PlaygroundConfig }> = [
  { name: 'vivace on the TMobile LTE trace', config: { cc: 'vivace', trace: 'TMobile-LTE-short.down', rttMs: 40, bufferKb: 300, durationS: 6, seed: 2 } },
  { name: 'three flows (vivace, cubic, bbr), staggered, random loss', config: { cc: ['vivace', 'cubic', 'bbr'], flows: 3, rateMbps: 24, rttMs: 30, bufferKb: 75, loss: 0.001, durationS: 6, startGapS: 1, seed: 5 } },
  { name: 'allegro under an RTT schedule', config: { cc: 'allegro', rateMbps: 10, rttMs: 50, rttSchedule: { minMs: 10, maxMs: 100, periodS: 2 }, bufferKb: 300, loss: 0.0001, durationS: 6, seed: 3 } },
];

test('window.pccPlayground.run gives the same JSON as npm run -s sim -- … --json', async () => {
  await page.goto(pageUrl());
  await page.waitForFunction(() => window.pccPlayground !== undefined);
  for (const { name, config } of configs) {
    const ours = await page.evaluate((c) => window.pccPlayground.run(c), config);
    const cli = JSON.parse(cliReport(config)) as unknown;
    assert.equal(JSON.stringify(ours), JSON.stringify(cli), `${name}: the page's report differs from the CLI's`);
    assert.ok((ours.flows[0]?.packets_received ?? 0) > 100, `${name}: packets delivered`);
  }
  assert.deepEqual(pageErrors, []);
});

test('a playground link runs its settings and draws rate, queue and RTT charts', async () => {
  const query = '?cc=vivace,cubic&flows=2&rate=12&rtt=40&buffer=100&loss=0&duration=5&gap=0&seed=4';
  await page.goto(pageUrl(query));
  await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('done'), undefined, { timeout: 60_000 });
  assert.equal(await page.locator('.chart canvas').count(), 3, 'rate, queue and RTT charts');
  assert.equal(await page.locator('#report tr').count(), 3, 'a header and one row per flow');
  // The form shows the link's settings, and running them again keeps the same URL.
  assert.equal(await page.locator('select[name=cc1]').inputValue(), 'cubic');
  await page.click('#run');
  await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('done'), undefined, { timeout: 60_000 });
  assert.equal(new URL(page.url()).search, query);
  const shown = await page.evaluate(() => window.pccPlayground.lastReport());
  const direct = await page.evaluate((c) => window.pccPlayground.run(c), await page.evaluate(() => window.pccPlayground.config()));
  assert.deepEqual(shown, direct, 'the page run and run(config()) agree');
  assert.deepEqual(pageErrors, []);
});

// The cheapest figure of sim:paper (10 runs on the Verizon LTE trace, a few seconds natively).
const CHEAP_FIGURE = 'fig4.9-lte';

test(`the ${CHEAP_FIGURE} button shows the numbers npm run -s sim:paper -- --only ${CHEAP_FIGURE} prints`, async () => {
  const out = mkdtempSync(join(tmpdir(), 'pcc-playground-paper-'));
  let cliVerdicts: string[];
  try {
    const run = spawnSync('npm', ['run', '-s', 'sim:paper', '--', '--only', CHEAP_FIGURE, '--out', out], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    assert.equal(run.status, 0, `sim:paper failed: ${run.stderr}`);
    cliVerdicts = run.stdout.split('\n').filter((line) => line.startsWith('ours: ')).map((line) => line.slice('ours: '.length));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  assert.ok(cliVerdicts.length >= 2, 'sim:paper prints the figure\'s verdicts');
  await page.goto(pageUrl());
  await page.click(`#figure-buttons button[data-figure="${CHEAP_FIGURE}"]`);
  await page.waitForFunction(() => /^run \d+ of \d+/.test(document.getElementById('figure-status')?.textContent?.split(': ')[1] ?? ''), undefined, { timeout: 60_000 });
  await page.waitForFunction(() => document.getElementById('figure-status')?.textContent?.startsWith('done'), undefined, { timeout: 180_000 });
  const shown = await page.locator('#figure-verdicts li').allTextContents();
  assert.deepEqual(shown, cliVerdicts, 'the page shows the same numbers beside the paper\'s');
  assert.match(shown[0] ?? '', /\(paper \d+(\.\d)?%\)/);
  assert.ok(await page.locator('#figure-table tr').count() > 1, 'the figure\'s table');
  assert.deepEqual(pageErrors, []);
});
