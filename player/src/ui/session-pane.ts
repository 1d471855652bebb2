// DOM of one session: title, state badge, video, error overlay, stats grid and charts.
import type { SessionParams } from '../config/session-params.ts';
import type { RunSummary } from '../metrics/run-summary.ts';
import { LiveCharts } from './live-charts.ts';
import { StatsPanel } from './stats-panel.ts';
import { renderSummaryCard } from './summary-card.ts';

export type PaneState = 'connecting' | 'loading' | 'playing' | 'stalled' | 'ended' | 'error';

export class SessionPane {
  readonly root: HTMLElement;
  readonly video: HTMLVideoElement;
  readonly stats: StatsPanel;
  readonly charts: LiveCharts;
  /** Title line of the pane (scheme and transport), for the exported image. */
  readonly title: string;
  private readonly summarySlot: HTMLElement;
  private readonly badge: HTMLElement;
  private readonly errorBox: HTMLElement;
  private readonly events: HTMLOListElement;
  private readonly startedMs = performance.now();

  constructor(parent: HTMLElement, params: SessionParams, index: number) {
    this.root = document.createElement('section');
    this.root.className = 'pane';
    this.root.dataset.session = String(index);
    const head = document.createElement('div');
    head.className = 'pane-head';
    const title = document.createElement('div');
    title.className = 'pane-title';
    const cc = document.createElement('span');
    cc.className = 'cc';
    cc.textContent = params.cc;
    const transport = document.createElement('span');
    transport.className = 'transport';
    const via = params.transport === 'datagram' ? 'WebTransport datagrams, paced by the controller'
      : params.transport === 'quic-stream' ? "WebTransport stream, quinn's controller"
        : params.server.tcpScheme === 'https' ? 'HTTPS over kernel TCP' : 'HTTP/1.1 over kernel TCP';
    transport.textContent = `${via} · ${params.content}${params.abr ? '' : ` · pinned ${params.pinnedBitrateKbps ?? ''} kbit/s`}`;
    title.append(cc, transport);
    this.title = `${params.cc} · ${transport.textContent}`;
    this.badge = document.createElement('span');
    this.badge.className = 'badge';
    head.append(title, this.badge);

    const wrap = document.createElement('div');
    wrap.className = 'video-wrap';
    this.video = document.createElement('video');
    this.video.muted = true; // autoplay without a user gesture
    this.video.playsInline = true;
    this.video.controls = false;
    this.errorBox = document.createElement('div');
    this.errorBox.className = 'session-error';
    this.errorBox.setAttribute('role', 'alert');
    this.errorBox.hidden = true;
    wrap.append(this.video, this.errorBox);

    const statsBox = document.createElement('div');
    const chartsBox = document.createElement('div');
    chartsBox.className = 'charts';
    // Video and numbers on the left, charts on the right; the grid stacks them when the pane is narrow.
    const body = document.createElement('div');
    body.className = 'pane-body';
    const left = document.createElement('div');
    left.className = 'pane-left';
    this.events = document.createElement('ol');
    this.events.className = 'events';
    this.events.setAttribute('aria-label', 'playback events');
    this.summarySlot = document.createElement('div');
    this.summarySlot.className = 'summary-slot';
    left.append(wrap, this.summarySlot, statsBox, this.events);
    body.append(left, chartsBox);
    this.root.append(head, body);
    parent.append(this.root);
    this.stats = new StatsPanel(statsBox);
    this.charts = new LiveCharts(chartsBox, params.transport === 'tcp' ? 'Delay (no sender RTT or loss over kernel TCP)' : null);
    this.setState('connecting');
  }

  setState(state: PaneState): void {
    this.badge.textContent = state;
    this.badge.className = `badge ${state}`;
    this.root.dataset.state = state;
  }

  /** Adds a line to the pane's event list (newest first, the last few kept). */
  logEvent(text: string, kind: 'info' | 'switch' | 'stall' | 'error' = 'info'): void {
    const item = document.createElement('li');
    item.className = `event ${kind}`;
    const time = document.createElement('span');
    time.className = 'event-time';
    time.textContent = `${((performance.now() - this.startedMs) / 1000).toFixed(1)} s`;
    item.append(time, document.createTextNode(text));
    this.events.prepend(item);
    while (this.events.children.length > 6) this.events.lastElementChild?.remove();
  }

  showSummary(summary: RunSummary, reason: 'ended' | 'stopped'): void {
    renderSummaryCard(this.summarySlot, summary, reason);
  }

  showError(message: string): void {
    this.errorBox.textContent = message;
    this.errorBox.hidden = false;
    this.setState('error');
  }
}
