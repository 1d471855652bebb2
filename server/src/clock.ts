// One monotonic microsecond clock for the whole process (pacing, RTT, telemetry). Whole microseconds:
// the controller library takes exact integers.
const originNs = process.hrtime.bigint();
const originNsNumber = Number(originNs);

/**
 * A CLOCK_MONOTONIC reading in nanoseconds (the native addon's receive timestamps) on this clock, never later
 * than now: the addon reads the same clock as process.hrtime.
 */
export function usFromMonotonicNs(monotonicNs: number, now: number = nowUs()): number {
  const us = Math.floor((monotonicNs - originNsNumber) / 1000);
  return Number.isFinite(us) ? Math.max(0, Math.min(now, us)) : now;
}

/** A time on this clock (µs) as a CLOCK_MONOTONIC reading in nanoseconds (the addon's pacer's due times). */
export function monotonicNsFromUs(us: number): number {
  return originNsNumber + us * 1000;
}

/** Whole microseconds since process start, monotonic. */
export function nowUs(): number {
  return Number((process.hrtime.bigint() - originNs) / 1000n);
}
