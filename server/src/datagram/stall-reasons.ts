// Why a datagram session's sender paused (issue 17: sender stalls the monitor intervals count as idle). A stall is
// a gap of at least STALL_MIN_US between two sends while the session had data; it is charged to what held the
// turns inside it (the most frequent reason), or to 'not-scheduled' when no turn ran at all (event loop blocked,
// process not scheduled). Cheap: a few counters per turn.

/** Gaps between sends at least this long count as stalls (the replay analysis's threshold). */
export const STALL_MIN_US = 5000;

export const STALL_REASONS = [
  'tokens', 'cwnd', 'receiver-window', 'silent-peer', 'session-memory', 'backpressure', 'app-limited', 'not-scheduled',
] as const;
export type StallReason = (typeof STALL_REASONS)[number];
/** What ended a turn that sent nothing (every reason but 'not-scheduled', which no turn reports). */
export type TurnReason = Exclude<StallReason, 'not-scheduled'>;

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
  }

  /**
   * A send at `sentUs`: a long enough gap since the previous one is a stall, charged to 'not-scheduled' when turns
   * began late for at least half of it (or none ended in it), else to what ended most of its turns.
   */
  sent(sentUs: number): void {
    const gapUs = sentUs - this.lastSendUs;
    if (gapUs >= STALL_MIN_US) {
      let reason: StallReason = 'not-scheduled';
      if (this.lateSinceSendUs * 2 < gapUs) {
        let most = 0;
        for (const [r, n] of this.turnsSinceSend) if (n > most) { most = n; reason = r; }
      }
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
      if (r !== 'not-scheduled') out[`empty_turns_${key}`] = this.emptyTurns.get(r) ?? 0;
    }
    return out;
  }
}
