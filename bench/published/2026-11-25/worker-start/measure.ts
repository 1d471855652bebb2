// Issue 18's worker-start A/B, one page per run: the page's start-up timeline (window.pccPlayer.metrics().startup,
// player/src/session/playback-session.ts StartupTimeline), its first video request and first video byte
// (pccPlayer.abrSegments()) and its start-up delay, which the bench's results do not all keep. Arms are page
// parameters (`workerScript=fetched`, `sessionStart=serial`, `default` for none); each repetition runs every arm back
// to back, the order rotating by one per repetition. NETWORK `loopback`: one origin on loopback and Debian's
// Chromium, a fresh browser context per run. NETWORK a trace of the lte suite (att-lte-driving-2016): per run a fresh
// link, origin and browser as the bench opens them (bench/harness), the page relayed through the link.
// usage (repository root, under the heavy lock):
//   node --import tsx bench/published/2026-11-25/worker-start/measure.ts NETWORK OUT_DIR REPS ARM... >> runs.jsonl
// e.g. loopback /tmp/ws 5 default workerScript=fetched sessionStart=serial
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '@pcc-stream/e2e/chromium';
import { startOriginProcess, type OriginProcess } from '@pcc-stream/server/process';
import { startLink } from '../../../harness/link.ts';
import { openPlayers } from '../../../harness/run-browser.ts';
import { PORTS } from '../../../harness/runner.ts';
import { suiteScenarios } from '../../../harness/suites.ts';

const [network, outDir, repsRaw, ...arms] = process.argv.slice(2);
const reps = Number(repsRaw);
if (!network || !outDir || !(reps >= 1) || arms.length === 0) throw new Error('usage: measure.ts NETWORK OUT_DIR REPS ARM...');
const mediaDir = join(process.cwd(), '.cache', 'media');
const staticDir = join(process.cwd(), 'player', 'dist');
const WAIT_FOR_START_MS = 25_000;

function armParams(arm: string): Record<string, string> {
  return arm === 'default' ? {} : Object.fromEntries(arm.split('&').map((kv) => kv.split('=', 2) as [string, string]));
}

interface Segment { kind: string; dashRequestMs: number | null; dashFirstByteMs: number | null; transfer: { firstByteMs: number | null } | null }

/** The page's figures once it plays (or WAIT_FOR_START_MS passed): its start-up timeline and first video request and
 *  byte (session clock, s). */
async function readPage(page: Page): Promise<Record<string, unknown>> {
  await page.waitForFunction(() => (window.pccPlayer.metrics()?.startupDelayS ?? null) !== null || window.pccPlayer.errors().length > 0, undefined, { timeout: WAIT_FOR_START_MS }).catch(() => undefined);
  const { report, segments, errors } = await page.evaluate(() => ({ report: window.pccPlayer.metrics(), segments: window.pccPlayer.abrSegments(), errors: window.pccPlayer.errors() }));
  const video = (segments as unknown as Segment[]).filter((r) => r.kind === 'segment');
  const min = (xs: Array<number | null | undefined>): number | null => {
    const v = xs.filter((x): x is number => typeof x === 'number');
    return v.length > 0 ? Math.min(...v) / 1000 : null;
  };
  return {
    startup_delay_s: report?.startupDelayS ?? null,
    first_video_request_s: min(video.map((r) => r.dashRequestMs)),
    first_video_byte_s: min(video.map((r) => r.transfer?.firstByteMs ?? r.dashFirstByteMs)),
    errors, startup: report?.startup ?? null,
  };
}

async function onLoopback(origin: OriginProcess, params: Record<string, string>): Promise<Record<string, unknown>> {
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const query = new URLSearchParams({ cc: 'vivace', content: 'abr', port: String(origin.webTransportPort), tcpPort: String(origin.tcpPort), ...params });
    await page.goto(`${origin.httpBase}/?${query.toString()}`);
    return await readPage(page);
  } finally {
    await browser.close();
  }
}

async function throughLink(trace: string, params: Record<string, string>, runDir: string): Promise<Record<string, unknown>> {
  const scenario = suiteScenarios('lte').find((s) => s.name === `lte-${trace}`);
  if (!scenario) throw new Error(`no lte scenario for trace ${trace}`);
  const shell = await startLink(scenario, 1, runDir);
  try {
    const ports = { host: shell.baseAddress, ...PORTS };
    const origin = await startOriginProcess({ ...ports, mediaDir, staticDir });
    try {
      const players = await openPlayers(shell, ports, 'vivace-video', { ...scenario, playerParams: params }, runDir);
      try {
        return await readPage(players.pages[0]!);
      } finally {
        await players.close();
      }
    } finally {
      await origin.stop();
    }
  } finally {
    await shell.stop();
  }
}

const loopbackOrigin = network === 'loopback' ? await startOriginProcess({ mediaDir, staticDir, cc: 'vivace' }) : null;
try {
  for (let rep = 1; rep <= reps; rep += 1) {
    for (let i = 0; i < arms.length; i += 1) {
      const arm = arms[(i + rep - 1) % arms.length]!;
      const runDir = join(outDir, `${rep}-${arm.replace(/[^a-zA-Z0-9=-]/g, '_')}`);
      mkdirSync(runDir, { recursive: true });
      const load1 = loadavg()[0];
      const figures = loopbackOrigin ? await onLoopback(loopbackOrigin, armParams(arm)) : await throughLink(network, armParams(arm), runDir);
      console.log(JSON.stringify({ network, arm, rep, order: i + 1, at: new Date().toISOString(), load1, ...figures }));
    }
  }
} finally {
  await loopbackOrigin?.stop();
}
