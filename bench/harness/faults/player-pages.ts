// Real players for fault cases: Chromium inside the emulated namespace, one page per player, sampled several times a
// second on the link's clock, so a case can say what the player did during and after the fault it caused.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PccPlayerApi, SessionReport } from '@pcc-stream/player';
import type { Page } from 'playwright-core';
import type { LinkemShell } from '../../linkem/src/driver/index.ts';
import type { PlayerResult } from '../results.ts';
import { openPlayers, toPlayerResult, type OriginPorts, type PlayerBrowser } from '../run-browser.ts';
import type { Scenario, Scheme } from '../scenario.ts';

/** How often fault cases read the players: fine enough for stall and recovery times in tenths of a second. */
export const PLAYER_SAMPLE_INTERVAL_MS = 250;

/** One player at one instant. */
export interface PlayerProbe {
  /** Seconds since the link started (linkem's schedule clock, shell.startMonotonicNs). */
  linkS: number;
  state: string;
  totalStallS: number;
  playingS: number;
  positionS: number;
  bufferS: number;
  /** The controller's rate the player last heard of (the origin's telemetry, 1 s mean), bit/s. */
  sendRateBps: number | null;
  bytesReceived: number;
  /** WebTransport sessions the player has opened so far (1 when it never reconnected); null for TCP. */
  transportSessions: number | null;
  errors: string[];
}

interface PageApi {
  pccPlayer?: PccPlayerApi;
}

/** Seconds since the link started, on the same monotonic clock linkem's schedules use. */
export function linkSeconds(shell: LinkemShell): number {
  return Number(process.hrtime.bigint() - shell.startMonotonicNs) / 1e9;
}

export class PlayerPages {
  readonly timeline: PlayerProbe[][] = [];

  private constructor(private readonly shell: LinkemShell, private readonly players: PlayerBrowser) {}

  private get pages(): Page[] {
    return this.players.pages;
  }

  /** Opens `scenario.players` pages of the player in Chromium inside the shell, each page's console kept in runDir;
   *  close() (or the case's cleanup) ends it. */
  static async open(shell: LinkemShell, ports: OriginPorts, scheme: Scheme, scenario: Scenario, runDir: string): Promise<PlayerPages> {
    return new PlayerPages(shell, await openPlayers(shell, ports, scheme, scenario, runDir, { keepConsole: true }));
  }

  /** Reads every player once and appends the readings to the timeline. */
  async sample(): Promise<PlayerProbe[]> {
    const probes: PlayerProbe[] = [];
    for (const page of this.pages) {
      const linkS = linkSeconds(this.shell);
      const reading = await page.evaluate(() => {
        const api = (window as unknown as PageApi).pccPlayer;
        const m = api?.metrics(0);
        if (!api || !m) return null;
        const last = m.series.at(-1);
        return {
          state: m.state, totalStallS: m.totalStallS, playingS: m.playingS, positionS: m.playbackPositionS, bufferS: last?.bufferS ?? 0,
          sendRateBps: last?.sendRateBps ?? null, bytesReceived: m.bytesReceived,
          transportSessions: (m as { transportSessions?: number | null }).transportSessions ?? null, errors: api.errors(),
        };
      });
      if (!reading) throw new Error('a player page has no window.pccPlayer (the player did not load)');
      probes.push({ linkS, ...reading });
    }
    if (this.players.pageErrors.length > 0) {
      // The players' own notes (dash.js errors, video element errors, failed requests) name what led up to it: an
      // uncaught error inside dash.js is often the echo of an earlier one it recovered from.
      const notes = probes.flatMap((p, i) => p.errors.map((e) => `player ${i}: ${e}`));
      throw new Error(`page error: ${this.players.pageErrors.join('; ')}${notes.length > 0 ? `; player notes before it: ${notes.join('; ')}` : ''}`);
    }
    this.timeline.push(probes);
    return probes;
  }

  /** Samples every PLAYER_SAMPLE_INTERVAL_MS until the link clock reaches `untilLinkS`; `atLinkS` events run once
   *  each, in time order, as the clock passes them (the fault itself: a kill, a restart...). */
  async sampleUntil(untilLinkS: number, events: Array<{ atLinkS: number; run: () => Promise<void> | void }> = []): Promise<void> {
    const pending = [...events].sort((a, b) => a.atLinkS - b.atLinkS);
    while (linkSeconds(this.shell) < untilLinkS) {
      while (pending.length > 0 && linkSeconds(this.shell) >= (pending[0]?.atLinkS ?? Infinity)) await pending.shift()?.run();
      await this.sample();
      const nextEventS = pending[0]?.atLinkS ?? Infinity;
      const waitMs = Math.max(0, Math.min(PLAYER_SAMPLE_INTERVAL_MS, (nextEventS - linkSeconds(this.shell)) * 1000));
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }

  /** Each player's full report (window.pccPlayer.metrics()). */
  async reports(): Promise<SessionReport[]> {
    const reports: SessionReport[] = [];
    for (const [i, page] of this.pages.entries()) {
      const report = await page.evaluate(() => (window as unknown as PageApi).pccPlayer?.metrics(0) ?? null);
      if (!report) throw new Error(`player ${i} has no metrics (window.pccPlayer missing)`);
      reports.push(report);
    }
    return reports;
  }

  async results(): Promise<PlayerResult[]> {
    return (await this.reports()).map(toPlayerResult);
  }

  /** Writes the sampled timeline and each player's final report (JSON; its `errors` hold the page's notes, such as
   *  failed requests) and a screenshot of the first player into runDir. */
  async save(runDir: string): Promise<string> {
    const file = join(runDir, 'player-timeline.json');
    writeFileSync(file, JSON.stringify(this.timeline));
    writeFileSync(join(runDir, 'player-reports.json'), JSON.stringify(await this.reports().catch(() => [])));
    await this.pages[0]?.screenshot({ path: join(runDir, 'player.png') }).catch(() => undefined);
    return file;
  }

  async close(): Promise<void> {
    await this.players.close();
  }
}
