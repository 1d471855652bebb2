// One emulated link's live figures for GET /network: capacity over time from the trace (or rate) the emulator follows,
// and the viewer's downlink queue from linkem's mm-link log of that direction, which the forwarder flushes every
// 100 ms (MMLOG_FLUSH_INTERVAL_US) and this module follows as it grows.
import { closeSync, openSync, readSync } from 'node:fs';
import { capacityMbps, type CapacityMbps } from '@pcc-stream/bench/harness/link';
import { parseMmLogEvent, type MmLogEvent } from '@pcc-stream/bench/linkem';
import type { Scenario } from '@pcc-stream/bench/harness/scenario';
import { queueDelayPercentileMs, type CapacityBin, type QueueBin } from '@pcc-stream/protocol';

/** Width of a chart bin, s: fine enough to show a 5 s RTT step or an LTE fade, coarse enough to poll cheaply. */
export const NETWORK_BIN_S = 0.5;
/** Bins kept per link (an hour): older ones are dropped so a demo left running does not grow without bound. */
const MAX_BINS = 7200;
const READ_CHUNK_BYTES = 1 << 20;

interface OpenBin {
  /** Packets that left in the bin, by their logged queueing delay (whole ms). */
  delaysMs: Map<number, number>;
  departedBytes: number;
  maxQueueBytes: number;
}

export class LinkMonitor {
  private readonly down: CapacityMbps;
  private readonly up: CapacityMbps;
  private readonly queue: QueueBin[] = [];
  private fd: number | null = null;
  private offset = 0;
  private partial = '';
  private queuedBytes = 0;
  private open = new Map<number, OpenBin>();
  /** Index of the first bin not yet closed (bins before it are in `queue`). */
  private nextBin = 0;
  private firstKeptBin = 0;
  private lastLineBin = -1;

  /**
   * @param linkStartS when the link's schedule (trace time 0, log time 0) started, on the demo clock
   * @param logPath the mm-link log of the viewer's downlink
   */
  constructor(scenario: Scenario, private readonly linkStartS: number, private readonly logPath: string) {
    this.down = capacityMbps(scenario.link.down);
    this.up = capacityMbps(scenario.link.up);
  }

  /** Reads what the forwarder has flushed since the last call, closing every bin that ends before `nowS`. */
  poll(nowS: number): void {
    if (this.fd === null) {
      try {
        this.fd = openSync(this.logPath, 'r');
      } catch {
        return; // not created yet
      }
    }
    const buffer = Buffer.alloc(READ_CHUNK_BYTES);
    for (;;) {
      const n = readSync(this.fd, buffer, 0, buffer.length, this.offset);
      if (n <= 0) break;
      this.offset += n;
      const lines = (this.partial + buffer.subarray(0, n).toString('latin1')).split('\n');
      this.partial = lines.pop() ?? '';
      for (const line of lines) this.line(line);
      if (n < buffer.length) break;
    }
    // The log is at most one flush interval behind: a bin is closed once it ended a second ago.
    const closeBefore = Math.floor((nowS - this.linkStartS - 1) / NETWORK_BIN_S);
    while (this.nextBin < closeBefore) this.closeBin(this.nextBin++);
  }

  private line(line: string): void {
    let event: MmLogEvent | null;
    try {
      event = parseMmLogEvent(line);
    } catch {
      return; // an unreadable line costs its own bin figure, not the live charts
    }
    if (!event) return;
    const bin = Math.floor(event.tMs / 1000 / NETWORK_BIN_S);
    if (bin < this.nextBin) return; // late line for a closed bin (cannot happen with a time-ordered log)
    // Bins the log skipped (nothing arrived, left or was dropped) held the queue as it was.
    for (let quiet = Math.max(this.lastLineBin + 1, bin - MAX_BINS); quiet < bin; quiet++) {
      if (!this.open.has(quiet)) this.open.set(quiet, { delaysMs: new Map(), departedBytes: 0, maxQueueBytes: this.queuedBytes });
    }
    this.lastLineBin = Math.max(this.lastLineBin, bin);
    let open = this.open.get(bin);
    if (!open) {
      open = { delaysMs: new Map(), departedBytes: 0, maxQueueBytes: this.queuedBytes };
      this.open.set(bin, open);
    }
    switch (event.kind) {
      case 'arrival':
        this.queuedBytes += event.bytes;
        break;
      case 'departure':
        this.queuedBytes -= event.bytes;
        open.departedBytes += event.bytes;
        open.delaysMs.set(event.delayMs, (open.delaysMs.get(event.delayMs) ?? 0) + 1);
        break;
      case 'drop':
        this.queuedBytes -= event.bytes;
        break;
      case 'opportunity':
        return; // capacity comes from the schedule itself
    }
    if (this.queuedBytes > open.maxQueueBytes) open.maxQueueBytes = this.queuedBytes;
  }

  private closeBin(bin: number): void {
    const open = this.open.get(bin);
    this.open.delete(bin);
    const tS = this.linkStartS + bin * NETWORK_BIN_S;
    // Every packet's delay goes out with the bin, so the card ranks a run's packets as the bench does; the bin's own
    // p95 by the same rule (protocol qoe.ts) for the chart.
    const delays: QueueBin[4] = open ? [...open.delaysMs].sort((a, b) => a[0] - b[0]) : [];
    const delayP95Ms = queueDelayPercentileMs(delays.map(([delayMs, count]) => ({ delayMs, count })));
    this.queue.push([tS, delayP95Ms, open ? open.maxQueueBytes : Math.max(0, this.queuedBytes),
      open ? (open.departedBytes * 8) / NETWORK_BIN_S / 1e6 : 0, delays]);
    if (this.queue.length > MAX_BINS) {
      this.queue.splice(0, this.queue.length - MAX_BINS);
      this.firstKeptBin = bin - MAX_BINS + 1;
    }
  }

  /** Closed bins starting at or after `sinceS` (demo clock). */
  queueSince(sinceS: number): QueueBin[] {
    return this.queue.filter(([tS]) => tS >= sinceS);
  }

  /** Capacity bins over the same span as the queue bins closed so far, from `sinceS`. */
  capacitySince(sinceS: number): CapacityBin[] {
    const bins: CapacityBin[] = [];
    const first = Math.max(this.firstKeptBin, Math.ceil((sinceS - this.linkStartS) / NETWORK_BIN_S - 1e-9));
    for (let bin = first; bin < this.nextBin; bin++) {
      const fromMs = bin * NETWORK_BIN_S * 1000;
      const toMs = fromMs + NETWORK_BIN_S * 1000;
      bins.push([this.linkStartS + bin * NETWORK_BIN_S, this.down(fromMs, toMs), this.up(fromMs, toMs)]);
    }
    return bins;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
