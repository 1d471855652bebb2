// Why a datagram session's sender paused (issue 17: sender stalls the monitor intervals count as idle). A stall is
// a gap of at least STALL_MIN_US between two sends while the session had data; it is charged to what held the
// turns inside it (the most frequent reason), or, when turns began late for half of it or none ran, to the process:
// 'event-loop-busy' when the process used at least half the gap's time in CPU (JavaScript of other sessions, GC,
// the addon's threads), else 'descheduled' (it was runnable or blocked but not running: on a small machine, CPU
// contention). Cheap: a few counters per turn and a getrusage at most every CPU_READ_INTERVAL_US of sending.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** Gaps between sends at least this long count as stalls (the replay analysis's threshold). */
export const STALL_MIN_US = 5000;

/** A late stall is charged to the event loop when the process's CPU time over the gap reached this share of it. */
export const BUSY_CPU_SHARE = 0.5;
/** The CPU clock is read at most this often (µs of sending): process.cpuUsage per sending turn was the send path's
 * largest single cost in a profile (17 % of its samples). A reading up to this stale at a gap's start counts at most
 * that much extra CPU into the gap: the split is approximate for gaps near STALL_MIN_US. */
export const CPU_READ_INTERVAL_US = 2000;

export const STALL_REASONS = [
  'tokens', 'cwnd', 'receiver-window', 'silent-peer', 'session-memory', 'backpressure', 'app-limited',
  'event-loop-busy', 'descheduled',
] as const;
export type StallReason = (typeof STALL_REASONS)[number];
/** What ended a turn that sent nothing (every reason but the process's own, which no turn reports). */
export type TurnReason = Exclude<StallReason, 'event-loop-busy' | 'descheduled'>;

/** CPU time the whole process has used (user + system, µs). */
export function processCpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

let loopDelay: IntervalHistogram | null = null;

/** The process's event-loop delay histogram, started by the first datagram session. */
function loopDelayHistogram(): IntervalHistogram {
  if (loopDelay === null) {
    loopDelay = monitorEventLoopDelay({ resolution: 1 });
    loopDelay.enable();
  }
  return loopDelay;
}

/**
 * How late the event loop ran its 1 ms timer, process-wide since the first datagram session (perf_hooks
 * monitorEventLoopDelay), in ms: a busy loop and a descheduled process both show here; the stall reasons tell them apart.
 */
export function eventLoopDelayFields(): Record<string, number> {
  const h = loopDelayHistogram();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  return {
    event_loop_delay_p50_ms: ms(h.percentile(50)), event_loop_delay_p99_ms: ms(h.percentile(99)), event_loop_delay_max_ms: ms(h.max),
  };
}

export class StallReasons {
  /** Turns that sent nothing, by what stopped them. */
  readonly emptyTurns = new Map<TurnReason, number>();
  /** Stalls and their total duration (µs), by the reason charged. */
  readonly stalls = new Map<StallReason, number>();
  readonly stallUs = new Map<StallReason, number>();
  maxStallUs = 0;
  private lastSendUs = NaN;
  /** When the sender asked to run next (its own wake time, or an ACK's arrival). */
  private plannedWakeUs = Infinity;
  /** Since the last send: how late turns began after their planned time (µs), and what ended each turn. */
  private lateSinceSendUs = 0;
  private readonly turnsSinceSend = new Map<TurnReason, number>();
  /** The process's CPU time at the end of the last turn that sent (µs). */
  private cpuAtLastSendUs = NaN;
  private cpuReadAtUs = -Infinity;
  private sentThisTurn = false;

  /** `cpuUs`: the process's CPU clock (µs), injectable for tests. */
  constructor(private readonly cpuUs: () => number = processCpuUs) {
    loopDelayHistogram();
  }

  /** A turn begins at `nowUs`: time past its planned start is time the process did not run the sender. */
  turnStarted(nowUs: number): void {
    if (nowUs > this.plannedWakeUs) this.lateSinceSendUs += nowUs - this.plannedWakeUs;
    this.plannedWakeUs = Infinity;
  }

  /** Something (an ACK at `nowUs`) asked for a turn now. */
  woken(nowUs: number): void {
    if (nowUs < this.plannedWakeUs) this.plannedWakeUs = nowUs;
  }

  /**
   * A turn ended, held by `reason` (null: nothing held it), wanting to run again at `wakeUs`; `sentNothing`: it
   * sent no packet.
   */
  turnEnded(reason: TurnReason | null, wakeUs: number, sentNothing: boolean): void {
    if (reason !== null) {
      if (sentNothing) this.emptyTurns.set(reason, (this.emptyTurns.get(reason) ?? 0) + 1);
      this.turnsSinceSend.set(reason, (this.turnsSinceSend.get(reason) ?? 0) + 1);
    }
    if (wakeUs < this.plannedWakeUs) this.plannedWakeUs = wakeUs;
    if (this.sentThisTurn && this.lastSendUs - this.cpuReadAtUs >= CPU_READ_INTERVAL_US) {
      this.cpuAtLastSendUs = this.cpuUs();
      this.cpuReadAtUs = this.lastSendUs;
    }
    this.sentThisTurn = false;
  }

  /**
   * A send at `sentUs`: a long enough gap since the previous one is a stall, charged to the process (busy event loop
   * or descheduled, by its CPU time over the gap) when turns began late for at least half of it (or none ended in
   * it), else to what ended most of its turns.
   */
  sent(sentUs: number): void {
    const gapUs = sentUs - this.lastSendUs;
    this.sentThisTurn = true;
    if (gapUs >= STALL_MIN_US) {
      let reason: StallReason | null = null;
      if (this.lateSinceSendUs * 2 < gapUs) {
        let most = 0;
        for (const [r, n] of this.turnsSinceSend) if (n > most) { most = n; reason = r; }
      }
      if (reason === null) reason = this.cpuUs() - this.cpuAtLastSendUs >= BUSY_CPU_SHARE * gapUs ? 'event-loop-busy' : 'descheduled';
      this.stalls.set(reason, (this.stalls.get(reason) ?? 0) + 1);
      this.stallUs.set(reason, (this.stallUs.get(reason) ?? 0) + gapUs);
      if (gapUs > this.maxStallUs) this.maxStallUs = gapUs;
    }
    this.lastSendUs = sentUs;
    this.lateSinceSendUs = 0;
    this.turnsSinceSend.clear();
  }

  /** Flat counters for /status and logs: stall_<reason>, stall_<reason>_ms, empty_turns_<reason>. */
  fields(): Record<string, number> {
    const out: Record<string, number> = { stall_max_ms: Math.round(this.maxStallUs / 1000) };
    for (const r of STALL_REASONS) {
      const key = r.replace(/-/g, '_');
      out[`stall_${key}`] = this.stalls.get(r) ?? 0;
      out[`stall_${key}_ms`] = Math.round((this.stallUs.get(r) ?? 0) / 1000);
      if (r !== 'event-loop-busy' && r !== 'descheduled') out[`empty_turns_${key}`] = this.emptyTurns.get(r) ?? 0;
    }
    return { ...out, ...eventLoopDelayFields() };
  }
}
