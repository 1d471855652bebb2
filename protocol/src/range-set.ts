// A set of integers stored as sorted, disjoint, non-adjacent half-open intervals [start, end).
// Used for received packet numbers (ACK ranges), received body bytes (reassembly) and acknowledged
// body bytes (sender side, so retransmissions skip what already arrived).

export interface Interval {
  start: number;
  end: number;
}

export class RangeSet {
  private starts: number[] = [];
  private ends: number[] = [];
  private coveredCount = 0;

  /** Total number of integers in the set. */
  get size(): number {
    return this.coveredCount;
  }

  get intervalCount(): number {
    return this.starts.length;
  }

  /** Index of the first interval whose end ≥ x (the only one that can contain or touch x from the left). */
  private firstEndingAtOrAfter(x: number): number {
    let lo = 0;
    let hi = this.ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ends[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Adds [start, end); returns how many integers were new. */
  add(start: number, end: number): number {
    if (!(end > start)) return 0;
    let i = this.firstEndingAtOrAfter(start);
    let newStart = start;
    let newEnd = end;
    let alreadyCovered = 0;
    let j = i;
    // Merge every interval overlapping or touching [start, end).
    while (j < this.starts.length && this.starts[j]! <= end) {
      const s = this.starts[j]!;
      const e = this.ends[j]!;
      alreadyCovered += Math.max(0, Math.min(e, end) - Math.max(s, start));
      if (s < newStart) newStart = s;
      if (e > newEnd) newEnd = e;
      j++;
    }
    const removedCount = j - i;
    const added = end - start - alreadyCovered;
    this.starts.splice(i, removedCount, newStart);
    this.ends.splice(i, removedCount, newEnd);
    this.coveredCount += added;
    return added;
  }

  has(x: number): boolean {
    const i = this.firstEndingAtOrAfter(x + 1);
    return i < this.starts.length && this.starts[i]! <= x;
  }

  /** True when every integer in [start, end) is in the set. */
  covers(start: number, end: number): boolean {
    if (!(end > start)) return true;
    const i = this.firstEndingAtOrAfter(start + 1);
    return i < this.starts.length && this.starts[i]! <= start && this.ends[i]! >= end;
  }

  /** The first sub-interval of [start, end) that is NOT in the set, or null when it is fully covered. */
  firstGap(start: number, end: number): Interval | null {
    let cursor = start;
    let i = this.firstEndingAtOrAfter(start + 1);
    while (cursor < end) {
      if (i >= this.starts.length || this.starts[i]! >= end) return { start: cursor, end };
      const s = this.starts[i]!;
      if (s > cursor) return { start: cursor, end: Math.min(s, end) };
      cursor = Math.max(cursor, this.ends[i]!);
      i++;
    }
    return null;
  }

  /** Smallest element, or undefined when empty. */
  min(): number | undefined {
    return this.starts[0];
  }

  /** Largest element, or undefined when empty. */
  max(): number | undefined {
    const n = this.ends.length;
    return n === 0 ? undefined : this.ends[n - 1]! - 1;
  }

  /** Drops the lowest intervals so at most `maxIntervals` remain. */
  keepHighest(maxIntervals: number): void {
    const drop = this.starts.length - maxIntervals;
    if (drop <= 0) return;
    for (let k = 0; k < drop; k++) this.coveredCount -= this.ends[k]! - this.starts[k]!;
    this.starts.splice(0, drop);
    this.ends.splice(0, drop);
  }

  /** Intervals from the highest down, at most `limit` of them. */
  highestIntervals(limit: number): Interval[] {
    const out: Interval[] = [];
    for (let k = this.starts.length - 1; k >= 0 && out.length < limit; k--) out.push({ start: this.starts[k]!, end: this.ends[k]! });
    return out;
  }

  clear(): void {
    this.starts = [];
    this.ends = [];
    this.coveredCount = 0;
  }
}
