// The one pacing loop of the process. Every datagram session registers here; each turn services the sessions
// that are due and waits until the earliest next due time. Timers fire about 1 ms late, which would cost rate
// (the bucket holds max(2 packets, 1 ms) of rate), so waits under 5 ms are slept precisely (below) and
// longer ones use a timer set ~2 ms early. With nothing to do nothing is armed at all: idle costs no CPU.
import { nowUs } from '../clock.ts';

export interface Paced {
  /** Sends what is allowed now; returns the next time (µs) it wants to run, or Infinity. */
  service(nowUs: number): number;
  /** A service() threw: the member is removed and told, so one broken session cannot stop the others. */
  onServiceError(err: unknown): void;
}

// Node timers fire 1–2 ms late (more on a busy machine): waits below this are slept precisely instead.
const TIMER_ABOVE_US = 5000;
// Waits shorter than a timer's precision are slept with Atomics.wait in slices of at most SLEEP_SLICE_US,
// each followed by one event-loop turn (ACKs are processed at least that often): a sleeping pacer costs no
// CPU, where a setImmediate spin would hold a core at mid rates.
const SLEEP_SLICE_US = 500;
const SLEEP_ABOVE_US = 60;
const sleepCell = new Int32Array(new SharedArrayBuffer(4));

export class Pacer {
  private readonly members = new Map<Paced, number>();
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private scheduledForUs = Infinity;
  turns = 0;
  sleeps = 0;

  add(member: Paced): void {
    this.members.set(member, 0);
    this.wake(member);
  }

  remove(member: Paced): void {
    this.members.delete(member);
  }

  get size(): number {
    return this.members.size;
  }

  /** Asks for `member` to be serviced as soon as possible (new data, an ACK opened the window...). */
  wake(member: Paced): void {
    if (!this.members.has(member)) return;
    this.members.set(member, 0);
    this.scheduleAt(nowUs());
  }

  private scheduleAt(dueUs: number, maySleep = false): void {
    if (dueUs >= this.scheduledForUs) return;
    this.cancel();
    this.scheduledForUs = dueUs;
    const waitUs = dueUs - nowUs();
    if (waitUs < TIMER_ABOVE_US) {
      if (maySleep && waitUs > SLEEP_ABOVE_US) {
        this.sleeps++;
        Atomics.wait(sleepCell, 0, 0, Math.min(waitUs - SLEEP_ABOVE_US / 2, SLEEP_SLICE_US) / 1000);
      }
      this.immediate = setImmediate(this.run);
    } else {
      this.timer = setTimeout(this.run, Math.floor(waitUs / 1000) - 2);
    }
  }

  private cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    this.scheduledForUs = Infinity;
  }

  private readonly run = (): void => {
    this.timer = null;
    this.immediate = null;
    this.scheduledForUs = Infinity;
    this.turns++;
    const now = nowUs();
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
