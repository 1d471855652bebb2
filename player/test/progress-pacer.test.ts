// When the WebTransport worker reports a body's progress (transport/progress-pacer.ts). The clock is the test's own
// numbers, not time: what is checked is which reports go out, in which order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROGRESS_INTERVAL_MS, ProgressPacer } from '../src/transport/progress-pacer.ts';

const DATAGRAM_BYTES = 1413;

test('the first bytes are reported at once, even right after the empty report of the response head', () => {
  const pacer = new ProgressPacer();
  const headMs = 1000;
  assert.equal(pacer.due(headMs, 0, false), true, 'the RESPONSE frame: the head goes out');
  // The first datagram lands within the interval: its report was held until the next datagram an interval later.
  assert.equal(pacer.due(headMs + PROGRESS_INTERVAL_MS / 10, DATAGRAM_BYTES, false), true, 'the first bytes go out with it');
});

test('the first bytes are reported at once when the datagrams overtook the response head', () => {
  const pacer = new ProgressPacer();
  assert.equal(pacer.due(1000, 3 * DATAGRAM_BYTES, false), true);
});

test('after the first bytes, reports come at most once per interval, and the completion at once', () => {
  const pacer = new ProgressPacer();
  const t0 = 1000;
  assert.equal(pacer.due(t0, 0, false), true);
  assert.equal(pacer.due(t0 + 1, DATAGRAM_BYTES, false), true);
  assert.equal(pacer.due(t0 + 2, 2 * DATAGRAM_BYTES, false), false, 'within the interval of the last report');
  assert.equal(pacer.due(t0 + 1 + PROGRESS_INTERVAL_MS, 3 * DATAGRAM_BYTES, false), true, 'an interval after it');
  assert.equal(pacer.due(t0 + 2 + PROGRESS_INTERVAL_MS, 4 * DATAGRAM_BYTES, true), true, 'complete: reported at once');
});

test('empty reports are paced like any other', () => {
  const pacer = new ProgressPacer();
  assert.equal(pacer.due(1000, 0, false), true);
  assert.equal(pacer.due(1001, 0, false), false);
});
