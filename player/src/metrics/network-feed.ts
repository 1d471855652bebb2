// The emulated network the page's media crosses, from `GET /network` on the page's own origin (npm start --network):
// polled incrementally, kept whole for the run's download, and handed to each pane on the pane's own clock.
// On loopback (no links) or when the page server has no /network (a plain origin), panes simply get no link.
import {
  NETWORK_STATUS_PATH, linkForPane, networkStatusQuery, paneKey, parseNetworkStatus,
  type CapacityBin, type NetworkLink, type NetworkMode, type NetworkStatus, type QueueBin,
} from '@pcc-stream/protocol';

/** How often the page asks for new bins. */
export const NETWORK_POLL_INTERVAL_MS = 1000;

/** What a pane needs of its link: the link and the offset from the demo clock to the pane's clock. */
export interface PaneLink {
  link: NetworkLink;
  binS: number;
  /** paneS = demoS − demoToPaneOffsetS. */
  demoToPaneOffsetS: number;
}

export interface NetworkFeedPane {
  cc: string;
  transport: string;
  /** performance.now() when the pane's session clock started. */
  startedMs: number;
}

/** Puts an answer's bins in place of those held from its first bin on: the server answers every bin from `since`
 *  (inclusive), and a bin still filling at the last poll comes again complete. */
export function appendBins<T extends CapacityBin | QueueBin>(held: T[], incoming: readonly T[]): void {
  const firstS = incoming[0]?.[0];
  if (firstS === undefined) return;
  let keep = held.length;
  while (keep > 0 && held[keep - 1]![0] >= firstS) keep -= 1;
  held.splice(keep, held.length - keep, ...incoming);
}

export class NetworkFeed {
  private status: NetworkStatus | null = null;
  private readonly keys: string[];
  /** demo clock − performance.now()/1000, from the first answer (page and server share the machine's clock rate). */
  private demoMinusPageS: number | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private unavailable: string | null = null;
  private readonly listeners: Array<() => void> = [];

  constructor(private readonly pageOrigin: string, private readonly mode: NetworkMode, private readonly panes: readonly NetworkFeedPane[]) {
    this.keys = panes.map((p) => paneKey(p.cc, p.transport));
  }

  start(): void {
    void this.poll();
    this.timer = setInterval(() => void this.poll(), NETWORK_POLL_INTERVAL_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  onUpdate(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Everything received so far (demo clock), or null before the first answer / without a /network. */
  snapshot(): NetworkStatus | null {
    return this.status ? JSON.parse(JSON.stringify(this.status)) as NetworkStatus : null;
  }

  /** Why there is no network series (no /network on this origin, a bad answer), or null. */
  get problem(): string | null {
    return this.unavailable;
  }

  paneLink(index: number): PaneLink | null {
    const status = this.status;
    const pane = this.panes[index];
    if (!status || !pane || this.demoMinusPageS === null) return null;
    const link = linkForPane(status, this.keys, index);
    if (!link) return null;
    return { link, binS: status.binS, demoToPaneOffsetS: this.demoMinusPageS + pane.startedMs / 1000 };
  }

  private async poll(): Promise<void> {
    // From the earliest series' last bin: the two series (and the links) need not end together; appendBins replaces from there.
    const lastBins = this.status?.links.flatMap((l) => [l.capacity.at(-1)?.[0] ?? 0, l.queue.at(-1)?.[0] ?? 0]) ?? [];
    const since = lastBins.length > 0 ? Math.min(...lastBins) : undefined;
    const url = `${this.pageOrigin}${NETWORK_STATUS_PATH}?${networkStatusQuery(this.mode, this.keys, since)}`;
    let body: unknown;
    try {
      const response = await fetch(url, { cache: 'no-store' });
      if (response.status === 404) {
        // A page server without an emulated network (e.g. the origin serving the page itself): nothing to show.
        this.unavailable = `${NETWORK_STATUS_PATH} not served by ${this.pageOrigin}`;
        this.stop();
        return;
      }
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      body = await response.json();
    } catch (err) {
      this.unavailable = `${url}: ${err instanceof Error ? err.message : String(err)}`;
      return;
    }
    const parsed = parseNetworkStatus(body);
    if (!parsed.ok) {
      this.unavailable = parsed.error.message;
      return;
    }
    this.unavailable = null;
    this.merge(parsed.value, performance.now());
    if (parsed.value.links.length === 0) this.stop(); // loopback: no link will appear later
    for (const listener of this.listeners) listener();
  }

  private merge(answer: NetworkStatus, receivedMs: number): void {
    if (this.demoMinusPageS === null) this.demoMinusPageS = answer.nowS - receivedMs / 1000;
    if (!this.status) {
      this.status = answer;
      return;
    }
    const held = this.status;
    for (const link of answer.links) {
      const mine = held.links.find((l) => l.id === link.id);
      if (!mine) {
        held.links.push(link);
        continue;
      }
      appendBins(mine.capacity, link.capacity);
      appendBins(mine.queue, link.queue);
      mine.panes = link.panes;
    }
    held.nowS = answer.nowS;
  }
}
