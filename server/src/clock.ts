// One monotonic microsecond clock for the whole process (pacing, RTT, telemetry). Whole microseconds:
// the controller library takes exact integers.
const originNs = process.hrtime.bigint();

/** Whole microseconds since process start, monotonic. */
export function nowUs(): number {
  return Number((process.hrtime.bigint() - originNs) / 1000n);
}
