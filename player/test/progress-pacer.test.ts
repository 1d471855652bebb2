// When the WebTransport worker reports a body's progress, and its response head (transport/progress-pacer.ts). The
// clock is the test's own numbers, not time: what is checked is which reports go out, in which order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROGRESS_INTERVAL_MS, ProgressPacer } from '../src/transport/progress-pacer.ts';

const DATAGRAM_BYTES = 1413;

test('the RESPONSE frame alone reports nothing: the head goes out with the first bytes, however long after', () => {
  const pacer = new ProgressPacer();
  assert.deepEqual(pacer.reports(1000, 0, false), [], 'the RESPONSE frame');
  assert.deepEqual(pacer.reports(1300, DATAGRAM_BYTES, false), [0, DATAGRAM_BYTES], 'the first datagram: head, then its bytes');
});

test('the first bytes are reported at once, head first, when the datagrams overtook the RESPONSE frame', () => {
  const pacer = new ProgressPacer();
  assert.deepEqual(pacer.reports(1000, 3 * DATAGRAM_BYTES, false), [0, 3 * DATAGRAM_BYTES]);
});

test('after the first bytes, reports come at most once per interval, and the completion at once', () => {
  const pacer = new ProgressPacer();
  const t0 = 1000;
  assert.deepEqual(pacer.reports(t0, DATAGRAM_BYTES, false), [0, DATAGRAM_BYTES]);
  assert.deepEqual(pacer.reports(t0 + 1, 2 * DATAGRAM_BYTES, false), [], 'within the interval of the last report');
  assert.deepEqual(pacer.reports(t0 + PROGRESS_INTERVAL_MS, 3 * DATAGRAM_BYTES, false), [3 * DATAGRAM_BYTES], 'an interval after it');
  assert.deepEqual(pacer.reports(t0 + 1 + PROGRESS_INTERVAL_MS, 4 * DATAGRAM_BYTES, true), [4 * DATAGRAM_BYTES], 'complete: reported at once');
});

test('an empty body that completed is reported as its head alone', () => {
  const pacer = new ProgressPacer();
  assert.deepEqual(pacer.reports(1000, 0, true), [0]);
});
