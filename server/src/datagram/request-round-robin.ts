// Scheduling across the requests of one session: each packet goes to the next request in turn that has data,
// so parallel requests (a video and an audio segment) share the session's rate packet by packet.

/** What the rotation needs to know about a request. */
export interface Rotating {
  hasDataToSend(): boolean;
}

export class RequestRoundRobin<T extends Rotating> {
  private members: T[] = [];
  private nextIndex = 0;

  add(member: T): void {
    this.members.push(member);
  }

  remove(member: T): void {
    this.members = this.members.filter((m) => m !== member);
  }

  get size(): number {
    return this.members.length;
  }

  hasDataToSend(): boolean {
    for (const m of this.members) if (m.hasDataToSend()) return true;
    return false;
  }

  /** The next member with data to send, after the one served last; null when none has any. */
  next(): T | null {
    const n = this.members.length;
    for (let k = 0; k < n; k++) {
      const m = this.members[(this.nextIndex + k) % n]!;
      if (m.hasDataToSend()) {
        this.nextIndex = (this.nextIndex + k + 1) % n;
        return m;
      }
    }
    return null;
  }
}
