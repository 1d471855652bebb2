// npm run -s screenshots [-- --out DIR] [--only playground|compare-lte] [--play-s N]: the README's documentation
// images, made in Debian's Chromium as a user sees the pages (no certificate flags):
//  - playground.png: /playground running vivace against cubic on the TMobile LTE trace (the WASM simulator);
//  - compare-lte.png: `npm start -- --network lte` with ?compare=vivace,cubic@tcp after N s of play (needs root:
//    linkem's namespaces).
// Writes into docs/images/ unless --out says elsewhere; logs are JSON lines on stderr.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { startOriginProcess } from '@pcc-stream/server/process';
import { userPath } from '@pcc-stream/protocol/node/user-path';
import { launchChromium } from './chromium.ts';
import { freeTcpPort } from './free-port.ts';
import { interrupt, npmStart } from './npm-start.ts';
import { mediaDir, playerDist, preparePlayerAndMedia } from './player-fixture.ts';
import { repoRoot } from './repo-root.ts';

export const SHOTS = ['playground', 'compare-lte'] as const;
export type Shot = (typeof SHOTS)[number];

/** The playground run the README shows: two controllers sharing an LTE downlink. */
export const PLAYGROUND_SHOT_QUERY = '?cc=vivace,cubic&flows=2&trace=TMobile-LTE-short.down&rtt=40&buffer=300&loss=0&duration=30&gap=0&seed=1';
/** Long enough for startup and a few rendition switches on the emulated LTE link. */
const DEFAULT_PLAY_S = 30;
const VIEWPORT = { width: 1400, height: 1000 };

const log = (event: Record<string, unknown>): void => {
  process.stderr.write(JSON.stringify({ t: new Date().toISOString(), ...event }) + '\n');
};

async function playgroundShot(browser: Browser, file: string): Promise<Record<string, unknown>> {
  const origin = await startOriginProcess({ mediaDir, staticDir: playerDist, cc: 'vivace' });
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    await page.goto(`http://127.0.0.1:${origin.httpPort}/playground${PLAYGROUND_SHOT_QUERY}`);
    await page.waitForFunction(() => /^(done|failed)/.test(document.getElementById('status')?.textContent ?? ''), undefined, { timeout: 180_000 });
    const status = (await page.textContent('#status')) ?? '';
    if (!status.startsWith('done')) throw new Error(`the playground run failed: ${await page.textContent('#page-error')}`);
    await page.screenshot({ path: file, fullPage: true });
    const report = await page.evaluate(() => window.pccPlayground.lastReport());
    return { status, flows: report?.flows.map((f) => ({ cc: f.cc, throughput_mbps: f.throughput_mbps, p95_rtt_ms: f.p95_rtt_ms })) };
  } finally {
    await origin.stop();
  }
}

async function compareLteShot(browser: Browser, file: string, playS: number): Promise<Record<string, unknown>> {
  const port = await freeTcpPort();
  const demo = await npmStart(['--network', 'lte', '--http-port', String(port)]);
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    const printed = demo.urls.find((u) => u.includes('compare=vivace,cubic@tcp'));
    await page.goto(printed ?? `http://127.0.0.1:${port}/?compare=vivace,cubic@tcp`);
    await page.waitForFunction(() => {
      const all = window.pccPlayer.allMetrics();
      return window.pccPlayer.errors().length > 0 || (all.length === 2 && all.every((m) => m.startupDelayS !== null));
    }, undefined, { timeout: 90_000 });
    await page.waitForTimeout(playS * 1000);
    await page.screenshot({ path: file, fullPage: true });
    const metrics = await page.evaluate(() => window.pccPlayer.allMetrics());
    const errors = await page.evaluate(() => window.pccPlayer.errors());
    return { url: page.url(), play_s: playS, errors, panes: metrics.map((m) => ({ buffering_ratio: m.bufferingRatio, stalls: m.stallCount, startup_s: m.startupDelayS, played_bitrate_kbps: m.timeWeightedBitrateKbps, avg_bitrate_kbps: m.averageBitrateKbps })) };
  } finally {
    await interrupt(demo);
  }
}

export async function makeScreenshots(options: { out: string; only: readonly Shot[]; playS: number }): Promise<string[]> {
  mkdirSync(options.out, { recursive: true });
  preparePlayerAndMedia();
  const browser = await launchChromium();
  const written: string[] = [];
  try {
    for (const shot of options.only) {
      const file = join(options.out, `${shot}.png`);
      const started = Date.now();
      log({ event: 'shot_start', shot, ...(shot === 'compare-lte' ? { play_s: options.playS } : {}) });
      const figures = shot === 'playground' ? await playgroundShot(browser, file) : await compareLteShot(browser, file, options.playS);
      log({ event: 'shot_done', shot, file, seconds: (Date.now() - started) / 1000, ...figures });
      written.push(file);
    }
  } finally {
    await browser.close();
  }
  return written;
}

const usage = `usage: npm run -s screenshots [-- --out DIR] [--only ${SHOTS.join(',')}] [--play-s N]`;

function parseOptions(argv: string[]): { out: string; only: Shot[]; playS: number } {
  const { values } = parseArgs({
    args: argv, strict: true,
    options: { out: { type: 'string' }, only: { type: 'string' }, 'play-s': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(usage + '\n');
    process.exit(0);
  }
  const only = values.only?.split(',') ?? [...SHOTS];
  const unknown = only.filter((n) => !(SHOTS as readonly string[]).includes(n));
  if (unknown.length) throw new Error(`unknown screenshot(s) ${unknown.join(', ')}; choose from ${SHOTS.join(', ')}`);
  const playS = values['play-s'] === undefined ? DEFAULT_PLAY_S : Number(values['play-s']);
  if (!Number.isFinite(playS) || playS < 1) throw new Error('--play-s must be a number of seconds >= 1');
  return { out: values.out === undefined ? join(repoRoot, 'docs', 'images') : userPath(values.out), only: only as Shot[], playS };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`screenshots: ${(error as Error).message}\n${usage}\n`);
    process.exit(2);
  }
  makeScreenshots(options).then(
    (files) => process.stdout.write(files.map((f) => `${f}\n`).join('')),
    (error: unknown) => {
      process.stderr.write(`screenshots: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
