// The process clock and the addon's stamps: a CLOCK_MONOTONIC reading in ns (what the addon stamps datagrams with,
// the clock of process.hrtime) lands on nowUs()'s scale, whole µs, never after now.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nowUs, usFromMonotonicNs } from '../src/clock.ts';

test('a monotonic ns reading converts to the process clock, whole µs, never later than now', () => {
  const before = nowUs();
  const readingNs = Number(process.hrtime.bigint());
  const after = nowUs();
  const us = usFromMonotonicNs(readingNs, after);
  assert.ok(Number.isInteger(us));
  // Float64 rounding of a ~1e13-1e16 ns reading is under a µs; flooring costs at most one more.
  assert.ok(us >= before - 2 && us <= after, `${us} outside [${before}, ${after}]`);
  // Ordering is kept: 5 ms apart in ns are 5,000 µs apart.
  assert.equal(usFromMonotonicNs(readingNs + 5e6, after + 10_000) - us, 5000);
  // A stamp after `now` (another thread's clock read racing this one) is `now`; garbage is `now`; before the
  // process started is 0.
  assert.equal(usFromMonotonicNs(readingNs + 1e9, after), after);
  assert.equal(usFromMonotonicNs(Number.NaN, after), after);
  assert.equal(usFromMonotonicNs(0, after), 0);
});
