// The page's run controls and what ties the panes to the network: a Stop button (every pane's summary card), a
// "Download this run" button (JSON + PNG), the /network feed drawn on each pane's charts, and the cards themselves.
import type { NetworkMode } from '@pcc-stream/protocol';
import { NetworkFeed, type PaneLink } from '../metrics/network-feed.ts';
import { runSummary, type RunSummary } from '../metrics/run-summary.ts';
import type { PlaybackSession } from '../session/playback-session.ts';
import type { NetworkPoint } from './live-charts.ts';
import { RUN_EXPORT_VERSION, downloadRun, type RunExport } from './run-export.ts';
import type { SessionPane } from './session-pane.ts';

interface Entry {
  session: PlaybackSession;
  pane: SessionPane;
  summary: RunSummary | null;
  finishReason: 'ended' | 'stopped' | null;
}

/** The link's bins on the pane's clock, for its charts: capacity and p95 queueing delay at each bin's start. */
export function networkPoints(paneLink: PaneLink): NetworkPoint[] {
  const { link, demoToPaneOffsetS: offset } = paneLink;
  const byT = new Map<number, NetworkPoint>();
  const at = (demoS: number): NetworkPoint => {
    const tS = demoS - offset;
    let p = byT.get(tS);
    if (!p) byT.set(tS, (p = { tS, capacityMbps: null, queueDelayMs: null }));
    return p;
  };
  for (const [tS, downMbps] of link.capacity) at(tS).capacityMbps = downMbps;
  for (const [tS, delayMs] of link.queue) at(tS).queueDelayMs = delayMs;
  // Bins from before the session started are another session's story.
  return [...byT.values()].filter((p) => p.tS >= 0).sort((a, b) => a.tS - b.tS);
}

export class RunView {
  private readonly entries: Entry[] = [];
  private feed: NetworkFeed | null = null;
  private readonly stopButton: HTMLButtonElement;
  private readonly downloadButton: HTMLButtonElement;
  private readonly networkLine: HTMLElement;
  private readonly downloadNote: HTMLElement;

  constructor(before: HTMLElement, private readonly onError: (message: string) => void) {
    const bar = document.createElement('div');
    bar.className = 'run-controls';
    this.networkLine = document.createElement('span');
    this.networkLine.className = 'network-line';
    this.networkLine.textContent = 'network: asking the page server…';
    this.stopButton = document.createElement('button');
    this.stopButton.type = 'button';
    this.stopButton.className = 'run-stop';
    this.stopButton.textContent = 'Stop';
    this.stopButton.addEventListener('click', () => this.stopAll());
    this.downloadButton = document.createElement('button');
    this.downloadButton.type = 'button';
    this.downloadButton.className = 'run-download';
    this.downloadButton.textContent = 'Download this run';
    this.downloadButton.addEventListener('click', () => void this.download());
    this.downloadNote = document.createElement('span');
    this.downloadNote.className = 'download-note';
    bar.append(this.networkLine, this.downloadNote, this.stopButton, this.downloadButton);
    before.before(bar);
  }

  add(session: PlaybackSession, pane: SessionPane): void {
    const entry: Entry = { session, pane, summary: null, finishReason: null };
    this.entries.push(entry);
    session.onFinished = (reason) => {
      entry.finishReason = reason;
      this.showSummary(this.entries.indexOf(entry));
    };
  }

  /** Starts polling /network once every pane is added; `mode`: the page's (PageParams.networkMode). */
  start(pageOrigin: string, mode: NetworkMode): void {
    const feed = new NetworkFeed(pageOrigin, mode, this.entries.map((e) => ({
      cc: e.session.params.cc, transport: e.session.params.transport, startedMs: e.session.clockStartMs,
    })));
    this.feed = feed;
    feed.onUpdate(() => this.onNetwork());
    feed.start();
    // A plain origin answers /network with 404 and the feed stops; say so instead of "asking" forever.
    setTimeout(() => { if (!feed.snapshot()) this.networkLine.textContent = `network: loopback (${feed.problem ?? 'no answer from /network'})`; }, 3000);
  }

  stopAll(): void {
    for (const e of this.entries) e.session.finish();
    this.stopButton.disabled = true;
  }

  private onNetwork(): void {
    const feed = this.feed;
    const status = feed?.snapshot();
    if (!feed || !status) return;
    this.networkLine.textContent = status.links.length === 0
      ? `network: ${status.preset} (no emulated link)`
      : `network: ${status.preset} · ${status.mode} · ${status.description}`;
    this.entries.forEach((e, i) => {
      const link = feed.paneLink(i);
      if (link) e.pane.charts.setNetwork(networkPoints(link));
      // Bins of a run's last seconds arrive after it stopped: the card's link figures catch up.
      if (e.finishReason !== null) this.showSummary(i);
    });
  }

  private showSummary(index: number): void {
    const e = this.entries[index];
    if (!e || e.finishReason === null) return;
    const toS = e.session.finishedAtS ?? 0;
    e.summary = runSummary(e.session.report(), this.feed?.paneLink(index) ?? null, 0, toS);
    e.pane.showSummary(e.summary, e.finishReason);
    if (this.entries.every((x) => x.finishReason !== null)) this.stopButton.disabled = true;
  }

  /** What "Download this run" saves as JSON (also handy from a console). */
  runExport(): RunExport {
    return {
      version: RUN_EXPORT_VERSION,
      page: location.href,
      savedAt: new Date().toISOString(),
      network: this.feed?.snapshot() ?? null,
      panes: this.entries.map((e, index) => {
        const link = this.feed?.paneLink(index) ?? null;
        return { index, metrics: e.session.report(), summary: e.summary, linkId: link?.link.id ?? null, demoToPaneOffsetS: link?.demoToPaneOffsetS ?? null };
      }),
    };
  }

  private async download(): Promise<void> {
    try {
      const names = await downloadRun(this.runExport(), this.entries.map((e) => ({ title: e.pane.title, charts: e.pane.charts.canvases() })));
      this.downloadNote.textContent = `saved ${names.join(' and ')}`;
    } catch (err) {
      this.onError(`Download failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
