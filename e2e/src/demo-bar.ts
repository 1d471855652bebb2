// node --import tsx e2e/src/demo-bar.ts --network NAME [--pages KEY,...] [--play-s N] [--out FILE]: issue 19's bar for
// the demo pages. Starts `npm start -- --network NAME` as a user would, opens each page it prints in Debian's Chromium
// (no certificate flags), plays it N s (default 30) from the last pane's first frame, and writes one JSON line per page:
// each pane's scheme, transport and the QoE figures of window.pccPlayer, the page's errors, and the machine's load.
// Needs root (linkem's namespaces) and, beside other heavy work, the shared lock. Logs are JSON lines on stderr.
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { userPath } from '@pcc-stream/protocol/node/user-path';
import { launchChromium } from './chromium.ts';
import { freeTcpPort } from './free-port.ts';
import { interrupt, npmStart } from './npm-start.ts';
import { preparePlayerAndMedia } from './player-fixture.ts';

/** The pages npm start prints with --network, by a short key (what in the printed query identifies it). */
export const DEMO_PAGES = {
  vivace: (q: URLSearchParams) => q.get('cc') === 'vivace' && !q.has('transport') && !q.has('compare'),
  competing: (q: URLSearchParams) => q.has('compare') && q.get('mode') === 'competing',
  'side-by-side': (q: URLSearchParams) => q.has('compare') && q.get('mode') === 'side-by-side',
  'quic-stream-bbr': (q: URLSearchParams) => q.get('transport') === 'quic-stream',
  'tcp-cubic': (q: URLSearchParams) => q.get('transport') === 'tcp',
} as const;
export type DemoPage = keyof typeof DEMO_PAGES;
const PAGE_KEYS = Object.keys(DEMO_PAGES) as DemoPage[];

/** How long every pane may take to show its first frame before the page is played and reported anyway. */
const STARTUP_WAIT_MS = 60_000;

const log = (event: Record<string, unknown>): void => {
  process.stderr.write(JSON.stringify({ t: new Date().toISOString(), component: 'demo-bar', ...event }) + '\n');
};

async function playPage(browser: Browser, url: string, playS: number): Promise<Record<string, unknown>> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  try {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(url);
    const panes = new URL(url).searchParams.get('compare')?.split(',').length ?? 1;
    const started = await page.waitForFunction((n) => {
      const all = window.pccPlayer.allMetrics();
      return window.pccPlayer.errors().length > 0 || (all.length === n && all.every((m) => m.startupDelayS !== null));
    }, panes, { timeout: STARTUP_WAIT_MS }).then(() => true, () => false);
    await page.waitForTimeout(playS * 1000);
    const metrics = await page.evaluate(() => window.pccPlayer.allMetrics());
    const errors = await page.evaluate(() => window.pccPlayer.errors());
    const cc = await page.locator('.pane .cc').allTextContents();
    const transport = await page.locator('.pane .transport').allTextContents();
    return {
      all_started_within_s: started ? true : STARTUP_WAIT_MS / 1000, errors: [...errors, ...pageErrors],
      panes: metrics.map((m, i) => ({
        cc: cc[i] ?? null, transport: transport[i] ?? null, buffering_ratio: m.bufferingRatio, stalls: m.stallCount,
        startup_s: m.startupDelayS, played_bitrate_kbps: m.timeWeightedBitrateKbps, avg_bitrate_kbps: m.averageBitrateKbps, bytes: m.bytesReceived,
      })),
    };
  } finally {
    await context.close();
  }
}

const USAGE = `usage: node --import tsx e2e/src/demo-bar.ts --network NAME|FILE [--pages ${PAGE_KEYS.join(',')}] [--play-s 30] [--out FILE]
  Starts npm start -- --network NAME (needs root; run it under flock /tmp/pcc-heavy.lock beside other heavy work),
  plays each chosen page it prints for --play-s seconds after every pane's first frame (waiting up to
  ${STARTUP_WAIT_MS / 1000} s for them), and writes one JSON line per page to stdout and, with --out, appends it to FILE.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { network: { type: 'string' }, pages: { type: 'string' }, 'play-s': { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (!values.network) throw new Error('--network NAME is required (a preset: npm start -- --network list)');
  const pages = (values.pages?.split(',') ?? PAGE_KEYS) as DemoPage[];
  const unknown = pages.filter((p) => !PAGE_KEYS.includes(p));
  if (unknown.length) throw new Error(`unknown page(s) ${unknown.join(', ')}; choose from ${PAGE_KEYS.join(', ')}`);
  const playS = values['play-s'] === undefined ? 30 : Number(values['play-s']);
  if (!Number.isFinite(playS) || playS < 1) throw new Error('--play-s must be a number of seconds >= 1');
  const out = values.out === undefined ? null : userPath(values.out);

  preparePlayerAndMedia();
  const browser = await launchChromium();
  const port = await freeTcpPort();
  const demo = await npmStart(['--network', values.network, '--http-port', String(port)]);
  try {
    for (const [i, key] of pages.entries()) {
      const url = demo.urls.find((u) => DEMO_PAGES[key](new URL(u).searchParams));
      if (!url) throw new Error(`npm start printed no ${key} page: ${demo.urls.join(' ')}`);
      const startedAt = new Date().toISOString();
      const load1 = loadavg()[0];
      log({ event: 'page_start', network: values.network, page: key, progress: `${i + 1}/${pages.length}`, eta_s: Math.round((pages.length - i) * (playS + 6)), eta_at_most_s: Math.round((pages.length - i) * (playS + 6 + STARTUP_WAIT_MS / 1000)) });
      const figures = await playPage(browser, url, playS);
      const line = JSON.stringify({ network: values.network, page: key, query: new URL(url).search, play_s: playS, started_at: startedAt,
        load1_start: load1, load1_end: loadavg()[0], ...figures });
      process.stdout.write(line + '\n');
      if (out) appendFileSync(out, line + '\n');
    }
  } finally {
    await interrupt(demo);
    await browser.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`demo-bar: ${error instanceof Error ? error.message : String(error)} (see --help)\n`);
  process.exit(1);
});
