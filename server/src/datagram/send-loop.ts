// The one send loop of the process: schedules every datagram session's sender on the event loop. Each turn
// services the sessions that are due, in the order they joined, and waits until the earliest next due time.
// Timers fire about 1 ms late, which would cost rate (a session's bucket holds max(2 packets, 1 ms) of its
// rate), so waits under TIMER_ABOVE_US are slept precisely (below) and longer ones use a timer set
// TIMER_EARLY_MS early. With nothing to do nothing is armed at all: idle costs no CPU.
import { nowUs as processNowUs } from '../clock.ts';
import { log } from '../log.ts';

export interface SendLoopMember {
  /** Sends what is allowed now; returns the next time (µs) it wants to run, or Infinity. */
  service(nowUs: number): number;
  /** A service() threw: the member is removed and told, so one broken session cannot stop the others. */
  onServiceError(err: unknown): void;
}

// Node timers fire 1–2 ms late (more on a busy machine): waits below this are slept precisely instead.
export const TIMER_ABOVE_US = 5000;
// Longer waits arm a timer this much early: it fires about on time and the rest is slept precisely.
const TIMER_EARLY_MS = 2;
// Waits shorter than a timer's precision are slept with Atomics.wait in slices of at most SLEEP_SLICE_US,
// each followed by one event-loop turn (ACKs are processed at least that often; the addon stamps their arrival,
// so the wait is not in RTT samples): a sleeping loop costs no CPU, where a setImmediate spin would hold a core
// at mid rates. A slice as long as a burst (token-bucket.ts) makes a high-rate sender's wait for tokens one sleep
// and one turn, where 0.5 ms slices made it two.
export const SLEEP_SLICE_US = 1000;
// Waits this short are not worth a sleep (waking up takes tens of µs); a sleep ends half of it early.
const SLEEP_ABOVE_US = 60;
const sleepCell = new Int32Array(new SharedArrayBuffer(4));
// Turn lateness (how long after its planned time a paced turn began) in buckets this wide, the last open-ended.
const LATENESS_BUCKET_US = 25;
const LATENESS_BUCKETS = 400;

/** Percentile `p` (0–100) of a lateness histogram, in µs: the upper edge of the bucket it falls in. */
export function latenessPercentileUs(counts: Uint32Array, p: number): number {
  let total = 0;
  for (const c of counts) total += c;
  if (total === 0) return 0;
  const rank = Math.ceil((p / 100) * total);
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i]!;
    if (seen >= rank) return (i + 1) * LATENESS_BUCKET_US;
  }
  return counts.length * LATENESS_BUCKET_US;
}

export class SendLoop {
  /** Each member and the time (µs) it next wants to run (0: as soon as possible). */
  private readonly members = new Map<SendLoopMember, number>();
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private scheduledForUs = Infinity;
  /** The pending turn was asked for by wake() (new data, ACKs), not planned by a member's due time. */
  private scheduledByWake = false;
  turns = 0;
  sleeps = 0;
  /** Turns that wake() asked for (the rest were planned: pacing, timeouts, or a sleep slice that ended early). */
  wokenTurns = 0;
  /** Planned turns that were due when they began, by how late (LATENESS_BUCKET_US wide buckets). */
  readonly plannedLateness = new Uint32Array(LATENESS_BUCKETS);
  /** Send-loop figures since the loop last became busy, logged when it goes idle (the CPU-per-datagram work). */
  private busySinceUs = NaN;
  private turnsAtBusy = 0;
  private wokenAtBusy = 0;

  /** `clock`: the time in µs (the process clock; tests pass their own). */
  constructor(private readonly clock: () => number = processNowUs) {}

  add(member: SendLoopMember): void {
    if (this.members.size === 0) this.startBusyPeriod();
    this.members.set(member, 0);
    this.wake(member);
  }

  /** Forgets `member`; with no member left the pending wake-up is cancelled as well. */
  remove(member: SendLoopMember): void {
    if (!this.members.delete(member)) return;
    if (this.members.size === 0) {
      this.cancel();
      log('info', 'send_loop.idle', this.busyPeriodFields());
    }
  }

  private startBusyPeriod(): void {
    this.busySinceUs = this.clock();
    this.turnsAtBusy = this.turns;
    this.wokenAtBusy = this.wokenTurns;
    this.plannedLateness.fill(0);
  }

  /** Turns, woken turns and planned turns' lateness since the loop last had no member. */
  busyPeriodFields(): Record<string, number> {
    return {
      busy_ms: Math.round((this.clock() - this.busySinceUs) / 1000), turns: this.turns - this.turnsAtBusy,
      woken_turns: this.wokenTurns - this.wokenAtBusy,
      planned_late_p50_us: latenessPercentileUs(this.plannedLateness, 50), planned_late_p99_us: latenessPercentileUs(this.plannedLateness, 99),
    };
  }

  get size(): number {
    return this.members.size;
  }

  /** Whether a timer or an immediate is pending (false when idle). */
  get armed(): boolean {
    return this.timer !== null || this.immediate !== null;
  }

  /** Asks for `member` to be serviced as soon as possible (new data, an ACK opened the window...). */
  wake(member: SendLoopMember): void {
    if (!this.members.has(member)) return;
    this.members.set(member, 0);
    this.scheduleAt(this.clock());
  }

  /** `planned`: the turn a member's due time asks for (it may sleep until then); otherwise wake() asked for it. */
  private scheduleAt(dueUs: number, planned = false): void {
    if (dueUs >= this.scheduledForUs) return;
    this.cancel();
    this.scheduledByWake = !planned;
    this.scheduledForUs = dueUs;
    const waitUs = dueUs - this.clock();
    if (waitUs < TIMER_ABOVE_US) {
      if (planned && waitUs > SLEEP_ABOVE_US) {
        this.sleeps++;
        Atomics.wait(sleepCell, 0, 0, Math.min(waitUs - SLEEP_ABOVE_US / 2, SLEEP_SLICE_US) / 1000);
      }
      this.immediate = setImmediate(this.run);
    } else {
      this.timer = setTimeout(this.run, Math.floor(waitUs / 1000) - TIMER_EARLY_MS);
    }
  }

  private cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    this.scheduledForUs = Infinity;
    this.scheduledByWake = false;
  }

  private readonly run = (): void => {
    const plannedUs = this.scheduledForUs;
    const byWake = this.scheduledByWake;
    this.timer = null;
    this.immediate = null;
    this.scheduledForUs = Infinity;
    this.scheduledByWake = false;
    this.turns++;
    const now = this.clock();
    if (byWake) this.wokenTurns++;
    else if (now >= plannedUs) this.plannedLateness[Math.min(LATENESS_BUCKETS - 1, Math.floor((now - plannedUs) / LATENESS_BUCKET_US))]!++;
    let earliest = Infinity;
    for (const [member, dueUs] of this.members) {
      let next = dueUs;
      if (dueUs <= now) {
        try {
          next = member.service(now);
        } catch (err) {
          this.members.delete(member);
          member.onServiceError(err);
          continue;
        }
        // A member that left during its own turn (its session closed) is not brought back.
        if (!this.members.has(member)) continue;
        this.members.set(member, next);
      }
      if (next < earliest) earliest = next;
    }
    if (earliest !== Infinity) this.scheduleAt(earliest, true);
  };

  stop(): void {
    this.cancel();
    this.members.clear();
  }
}
