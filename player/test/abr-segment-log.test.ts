// The per-segment ABR record's path rate (metrics/abr-segment-log.ts): bytes over the time the path carried them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pathRateKbps } from '../src/metrics/abr-segment-log.ts';

test('the path rate counts the time either transfer was receiving, once, and not the idle time between them', () => {
  const t = (startedMs: number, firstByteMs: number, endMs: number, bytes: number) => ({ startedMs, firstByteMs, endMs, bytes });
  // A prefix that ended 2 s before the rest began: 200 kB in 100 + 100 ms.
  assert.equal(pathRateKbps(t(0, 50, 150, 100_000), t(2000, 2100, 2200, 100_000)), 8000);
  // Overlapping transfers: 300 kB between 0 and 300 ms.
  assert.equal(pathRateKbps(t(0, 0, 200, 150_000), t(50, 100, 300, 150_000)), 8000);
  // One transfer alone; nothing received yet.
  assert.equal(pathRateKbps(null, t(0, 100, 200, 100_000)), 8000);
  assert.equal(pathRateKbps(null, { startedMs: 0, firstByteMs: null, endMs: null, bytes: 0 }), null);
});
