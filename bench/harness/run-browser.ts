// One browser run: Chromium inside the emulated namespace plays the scenario's media from the origin on the
// host side for duration_s, one page per player, then reports window.pccPlayer.metrics() per page.
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumPath, launchChromium } from '@pcc-stream/e2e/chromium';
import type { PccPlayerApi, SessionReport } from '@pcc-stream/player';
import { kbpsToMbps } from '@pcc-stream/protocol';
import type { Browser, Page } from 'playwright-core';
import type { LinkemShell } from '../linkem/src/driver/index.ts';
import { servePageInNamespace } from './page-in-namespace.ts';
import type { CountedBytes } from './wire-overhead.ts';
import { contentFor } from './media.ts';
import type { PlayerResult } from './results.ts';
import { redownloads, type Redownloads } from './redownloads.ts';
import type { Scenario, Scheme } from './scenario.ts';
import { controllerParamsFor, schemeTransport } from './schemes.ts';
import { aidPlayerParams } from './aids.ts';

/** Each player's per-segment ABR record in the run's folder: abr-segments-player-<n>.jsonl. */
export const ABR_SEGMENTS_FILE_PREFIX = 'abr-segments-player-';

/** What window.pccPlayer.metrics() returns (the player's own type); the page may lack the API if it failed to load. */
type PlayerReport = SessionReport;
interface PagePlayerApi {
  pccPlayer?: PccPlayerApi;
}

export interface BrowserRunOutput {
  players: PlayerResult[];
  /** Per-second series of the first player. */
  series: Array<{ t_s: number; sending_rate_mbps?: number; goodput_mbps?: number; bitrate_mbps?: number; buffer_s?: number }>;
  bytesReceived: number;
  /** Each player's byte count and the instant it stands for: the link's bytes for the same media are counted to
   *  then (wire-overhead.ts), while the link goes on carrying what the pages still fetch until they close. */
  mediaCounts: CountedBytes[];
  /** Wall clock (epoch ms) at which the first player's session clock starts (the series' t_s = 0). */
  seriesStartEpochMs: number;
  /** Payload bytes of the page itself (HTML, scripts, /cert-hash) that crossed the downlink by the report: no media. */
  pageBytes: number;
}

export interface OriginPorts {
  host: string;
  webTransportPort: number;
  httpPort: number;
  httpsPort: number;
  /** The plain HTTP/1.1 kernel-TCP baseline: the TCP schemes' default (no certificate step in the browser). */
  tcpPort: number;
}

/** `pageOrigin`: where the browser loads the page from (servePageInNamespace: the namespace's loopback). */
export function playerUrl(ports: OriginPorts, scheme: Scheme, scenario: Scenario, pageOrigin = `http://${ports.host}:${ports.httpPort}`): string {
  const { transport, cc } = schemeTransport(scheme);
  const media = contentFor(scenario);
  const query = new URLSearchParams({
    host: ports.host, port: String(ports.webTransportPort), httpPort: String(ports.httpPort), httpsPort: String(ports.httpsPort), tcpPort: String(ports.tcpPort),
    transport, cc, content: media.content, abr: media.abr, ...(media.bitrateKbps ? { bitrate: String(media.bitrateKbps) } : {}),
    ...aidPlayerParams(scheme),
  });
  for (const [name, value] of Object.entries(controllerParamsFor(scenario, scheme))) query.set(`cc.${name}`, String(value));
  for (const [name, value] of Object.entries(scenario.playerParams ?? {})) {
    if (query.has(name)) throw new Error(`player parameter ${name}: the harness sets it itself`);
    query.set(name, value);
  }
  return `${pageOrigin}/?${query.toString()}`;
}

export function toPlayerResult(r: PlayerReport): PlayerResult {
  return {
    startup_delay_s: r.startupDelayS ?? Number.NaN,
    stall_count: r.stallCount,
    stall_time_s: r.totalStallS,
    playing_time_s: r.playingS,
    buffering_ratio: r.bufferingRatio,
    buffering_ratio_with_startup: r.bufferingRatioWithStartup,
    avg_bitrate_mbps: kbpsToMbps(r.averageBitrateKbps),
    time_weighted_bitrate_mbps: kbpsToMbps(r.timeWeightedBitrateKbps),
    switch_count: r.switchCount,
    bytes_received: r.bytesReceived,
    datagrams_received: r.datagramsReceived,
    datagrams_dropped: r.datagramsDropped,
    prefetch_bytes: r.prefetchBytes,
    prefetch_waste_bytes: r.prefetchWasteBytes,
    prefetch_hits: r.prefetchHits,
    prefetch_cancelled: r.prefetchCancelled,
    segment_gap_count: r.segmentGapCount,
    segment_gap_mean_ms: r.segmentGapMeanMs,
    segment_gap_p50_ms: r.segmentGapP50Ms,
    segment_gap_p95_ms: r.segmentGapP95Ms,
  };
}

/** Chromium in the namespace with the scenario's players loaded; close() ends the browser and the page relay. */
export interface PlayerBrowser {
  browser: Browser;
  pages: Page[];
  /** Uncaught errors of the pages ("player i: message (at its innermost frame)"), as they happen; each one's whole
   *  stack goes to PAGE_ERRORS_FILE in the run directory. */
  pageErrors: string[];
  /** Payload bytes the page relay carried to the pages so far (page-in-namespace.ts). */
  pageBytes(): number;
  close(): Promise<void>;
}

/** Where a run keeps the stack of every uncaught page error (the bundle's frames map back through its .map files). */
export const PAGE_ERRORS_FILE = 'page-errors.txt';

/** Appends the error's whole stack to the run's PAGE_ERRORS_FILE and returns the one-line form a failed run reports:
 *  the message and its innermost frame, so a failure seen only in a log still says where it came from. */
export function recordPageError(runDir: string, playerIndex: number, error: Error): string {
  const stack = error.stack ?? `${error.name}: ${error.message}`;
  appendFileSync(join(runDir, PAGE_ERRORS_FILE), `${new Date().toISOString()} player ${playerIndex}\n${stack}\n\n`);
  const frame = stack.split('\n').map((line) => line.trim()).find((line) => line.startsWith('at '));
  return `player ${playerIndex}: ${error.message}${frame ? ` (${frame}; stack in ${PAGE_ERRORS_FILE})` : ''}`;
}

/** Opens `scenario.players` pages of the player in Chromium inside the shell. The page comes from the namespace's own
 *  loopback (page-in-namespace.ts), a secure context: no browser flags, and the session is trusted by
 *  serverCertificateHashes alone. `keepConsole`: each page's console goes to player-N-console.log in runDir. */
export async function openPlayers(shell: LinkemShell, ports: OriginPorts, scheme: Scheme, scenario: Scenario, runDir: string, options: { keepConsole?: boolean } = {}): Promise<PlayerBrowser> {
  mkdirSync(runDir, { recursive: true });
  const wrapper = await shell.writeExecWrapper(join(runDir, 'chromium-in-netns.sh'), chromiumPath);
  const relay = await servePageInNamespace(shell, ports.host, ports.httpPort);
  let browser: Browser | null = null;
  const close = async () => {
    await browser?.close().catch(() => undefined);
    relay.close();
  };
  try {
    browser = await launchChromium({ executablePath: wrapper });
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const url = playerUrl(ports, scheme, scenario, relay.pageOrigin);
    const pageErrors: string[] = [];
    const pages: Page[] = [];
    for (let i = 0; i < scenario.players; i += 1) {
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(recordPageError(runDir, i, error)));
      if (options.keepConsole) {
        page.on('console', (message) => appendFileSync(join(runDir, `player-${i + 1}-console.log`), `${new Date().toISOString()} ${message.type()} ${message.text()}\n`));
      }
      await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
      pages.push(page);
    }
    return { browser, pages, pageErrors, pageBytes: () => relay.downBytes(), close };
  } catch (error) {
    await close();
    throw error;
  }
}

export async function runBrowser(shell: LinkemShell, ports: OriginPorts, scheme: Scheme, scenario: Scenario, runDir: string, onTick?: (elapsedS: number) => void): Promise<BrowserRunOutput> {
  const players = await openPlayers(shell, ports, scheme, scenario, runDir);
  try {
    const { pages, pageErrors } = players;
    const started = Date.now();
    const durationMs = scenario.durationS * 1000;
    while (Date.now() - started < durationMs) {
      await new Promise((r) => setTimeout(r, 1000));
      onTick?.((Date.now() - started) / 1000);
      for (const [i, page] of pages.entries()) {
        const errors = await page.evaluate(() => (window as unknown as PagePlayerApi).pccPlayer?.errors() ?? []);
        if (errors.length > 0) throw new Error(`player ${i} reported: ${errors.join('; ')}`);
      }
      if (pageErrors.length > 0) throw new Error(`page error: ${pageErrors.join('; ')}`);
    }
    const reports: PlayerReport[] = [];
    const redownloaded: Redownloads[] = [];
    for (const [i, page] of pages.entries()) {
      const report = await page.evaluate(() => (window as unknown as PagePlayerApi).pccPlayer?.metrics(0) ?? null);
      if (!report) throw new Error(`player ${i} has no metrics (window.pccPlayer missing)`);
      if (report.startupDelayS === null) throw new Error(`player ${i} never started playing`);
      reports.push(report);
      // Per-segment ABR record (player/src/metrics/abr-segment-log.ts), one JSON object a line, per player.
      const abr = await page.evaluate(() => (window as unknown as PagePlayerApi).pccPlayer?.abrSegments?.(0) ?? []);
      if (existsSync(runDir)) writeFileSync(join(runDir, `${ABR_SEGMENTS_FILE_PREFIX}${i + 1}.jsonl`), abr.map((r) => JSON.stringify(r)).join('\n') + (abr.length > 0 ? '\n' : ''));
      redownloaded.push(redownloads(abr));
    }
    const pageBytes = players.pageBytes();
    if (existsSync(runDir)) await pages[0]?.screenshot({ path: join(runDir, 'player.png') });
    const first = reports[0] as PlayerReport;
    return {
      players: reports.map((r, i) => ({
        ...toPlayerResult(r), redownloaded_bytes: redownloaded[i]!.redownloadedBytes, video_segment_bytes: redownloaded[i]!.videoSegmentBytes,
      })),
      series: (first.series ?? []).map((s) => ({
        t_s: s.tS, buffer_s: s.bufferS, bitrate_mbps: s.bitrateKbps / 1000, goodput_mbps: s.goodputBps / 1e6,
        ...(s.sendRateBps !== null ? { sending_rate_mbps: s.sendRateBps / 1e6 } : {}),
      })),
      bytesReceived: reports.reduce((sum, r) => sum + r.bytesReceived, 0),
      mediaCounts: reports.map((r) => ({ bytesReceived: r.bytesReceived, bytesReceivedAtEpochMs: r.bytesReceivedAtEpochMs })),
      seriesStartEpochMs: first.clockStartEpochMs,
      pageBytes,
    };
  } finally {
    await players.close();
  }
}
