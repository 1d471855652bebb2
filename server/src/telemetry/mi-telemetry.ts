// Per-monitor-interval telemetry of one session: a JSONL file in the log directory and live subscribers
// (the `/.pcc/telemetry` stream, PROTOCOL.md §2.5).
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { ControllerTelemetry } from '@pcc-stream/controller';
import { nowUs } from '../clock.ts';
import { PlayerStateRecord } from './player-state.ts';
import { PrefetchCounters } from './prefetch-counters.ts';

export interface SenderCounters {
  sentBytes: number;
  sentDatagramBytes: number;
  retransmittedBytes: number;
  packetsLost: number;
}

export type TelemetryRecord = Record<string, number | string>;

const PERIODIC_LINE_US = 100_000;

export class MiTelemetry {
  private lastMi = -1;
  private lastEmitUs = -Infinity;
  /** The JSONL file, opened with the first line: a session that never sends (a hostile one) costs no file. */
  private file: WriteStream | null = null;
  private readonly path: string | null;
  /** Set by close(): the file's end, which every later close() returns; no file is opened after it. */
  private closing: Promise<void> | null = null;
  private readonly subscribers = new Set<(line: string) => void>();
  linesWritten = 0;
  /** The player's latest CMCD; every line carries it as `cmcd_*` fields (PROTOCOL.md §2.5, §2.6). */
  readonly player = new PlayerStateRecord();
  /** The player's early requests; lines carry `prefetch_*` once there was one. */
  readonly prefetch = new PrefetchCounters();

  constructor(readonly sessionId: number, algorithm: string, logDir: string | null, private readonly startUs: number) {
    this.path = logDir ? join(logDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-session-${sessionId}-${algorithm}.jsonl`) : null;
  }

  private openFile(): WriteStream | null {
    if (this.file === null && this.path !== null && this.closing === null) {
      this.file = createWriteStream(this.path, { flags: 'a' });
      this.file.on('error', () => {
        /* a full disk must not take the session down; lines are best effort */
      });
    }
    return this.file;
  }

  /** Emits a line when the controller has completed a new monitor interval since the last call. */
  sample(t: ControllerTelemetry, counters: SenderCounters, nowUs: number): void {
    // A line per completed MI; algorithms without MIs (cubic, bbr, fixed) get one every 100 ms.
    if (t.miCompleted === this.lastMi && nowUs - this.lastEmitUs < PERIODIC_LINE_US) return;
    this.lastMi = t.miCompleted;
    this.lastEmitUs = nowUs;
    this.emit({
      t_ms: Math.round((nowUs - this.startUs) / 100) / 10,
      t_us: nowUs - this.startUs,
      session: this.sessionId,
      algorithm: t.algorithm,
      state: t.state,
      mi: t.miCompleted,
      rate_bps: Math.round(t.pacingRateBps),
      mi_rate_bps: Math.round(t.lastMiRateBps),
      utility: t.lastMiUtility,
      throughput_bps: Math.round(t.lastMiThroughputBps),
      loss_rate: t.lastMiLossRate,
      rtt_gradient: t.lastMiRttGradient,
      srtt_us: Math.round(t.srttUs),
      min_rtt_us: Math.round(t.minRttUs),
      latest_rtt_us: Math.round(t.latestRttUs),
      cwnd_bytes: t.cwndBytes,
      bytes_in_flight: t.bytesInFlight,
      sent_bytes: counters.sentBytes,
      sent_datagram_bytes: counters.sentDatagramBytes,
      retransmitted_bytes: counters.retransmittedBytes,
      packets_lost: counters.packetsLost,
    }, nowUs);
  }

  emit(record: TelemetryRecord, atUs = nowUs()): void {
    const line = JSON.stringify({ ...record, ...this.player.fields(atUs), ...this.prefetch.telemetryFields() }) + '\n';
    this.linesWritten++;
    this.openFile()?.write(line);
    for (const s of this.subscribers) s(line);
  }

  subscribe(listener: (line: string) => void): () => void {
    this.subscribers.add(listener);
    return () => this.subscribers.delete(listener);
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Ends the file; resolves once every line written is on disk and the file is closed (at once when there is none).
   *  A stopping origin waits for it: a process that exits before would lose the session's last lines. Repeatable:
   *  every call returns the same promise. */
  close(): Promise<void> {
    if (this.closing !== null) return this.closing;
    this.subscribers.clear();
    const file = this.file;
    this.closing = file === null || file.closed ? Promise.resolve() : new Promise((resolve) => {
      // 'close' follows both the last write and a failed one (autoClose): either way nothing more will be written.
      file.once('close', () => resolve());
      file.end();
    });
    return this.closing;
  }
}
