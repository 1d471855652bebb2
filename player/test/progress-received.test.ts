// A WebTransport download's progress while a datagram is missing (body-buffer.ts dueProgress, as the worker's
// drainBody/maybeProgress run it): the real receiver (@pcc-stream/protocol's DatagramReceiver), body buffer and
// progress pacer, fed one body whose second datagram is lost and resent at the end. dash.js's mid-download rate
// readings must see the bytes that arrived behind the hole (bench/published/2026-11-25/dashjs-sample-gap), while a
// chunked body still hands over only in-order bytes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DatagramReceiver, encodeDataDatagram } from '@pcc-stream/protocol';
import { BodyBuffer, dueProgress, type ProgressMessage, type ProgressMode } from '../src/transport/body-buffer.ts';
import { PROGRESS_INTERVAL_MS, ProgressPacer } from '../src/transport/progress-pacer.ts';

const ID = 7;
const PAYLOAD_BYTES = 1200;
const DATAGRAMS = 40;
const TOTAL = DATAGRAMS * PAYLOAD_BYTES - 500; // the last datagram is short
/** Datagrams arrive this far apart (ms): several per pacer interval. */
const SPACING_MS = 10;

const payloadOf = (index: number): Uint8Array => {
  const start = index * PAYLOAD_BYTES;
  const end = Math.min(TOTAL, start + PAYLOAD_BYTES);
  return Uint8Array.from({ length: end - start }, (_, i) => ((start + i) * 7 + 3) & 0xff);
};

interface Run {
  /** The messages with the time they were posted and the in-order bytes the body held then. */
  reports: Array<ProgressMessage & { atMs: number; inOrder: number }>;
  handedOver: Uint8Array;
}

/** Sends datagram indices in `order` (a datagram may repeat: a resend), one every SPACING_MS, as the worker takes them. */
function play(order: number[], mode: ProgressMode, chunked: boolean): Run {
  const receiver = new DatagramReceiver();
  receiver.open(ID);
  assert.equal(receiver.setBodyLength(ID, TOTAL).ok, true);
  const body = new BodyBuffer(TOTAL, chunked);
  const pacer = new ProgressPacer();
  const reports: Run['reports'] = [];
  const pieces: Uint8Array[] = [];
  order.forEach((index, packetNumber) => {
    const atMs = 1000 + packetNumber * SPACING_MS;
    const got = receiver.onDatagram(encodeDataDatagram({ requestId: ID, packetNumber, offset: index * PAYLOAD_BYTES, payload: payloadOf(index) }), atMs * 1000);
    assert.equal(got.ok, true);
    if (!got.ok || got.value.newBytes === 0) return; // the worker drains a body only on new bytes
    for (const chunk of receiver.take(ID)) body.append(chunk);
    for (const m of dueProgress(body, pacer, mode, receiver.body(ID)?.receivedBytes, atMs)) {
      reports.push({ ...m, atMs, inOrder: body.filled });
      if (m.bytes) pieces.push(new Uint8Array(m.bytes));
    }
  });
  assert.equal(body.complete, true, 'every byte arrived in the end');
  const handedOver = new Uint8Array(pieces.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of pieces) {
    handedOver.set(p, at);
    at += p.byteLength;
  }
  return { reports, handedOver };
}

/** Index 1 is lost and resent after the rest, with one duplicate of a received datagram on the way. */
const HOLE = 1;
const withHole = (): number[] => {
  const order = [0];
  for (let i = HOLE + 1; i < DATAGRAMS; i++) order.push(i);
  order.push(5); // a spurious resend: no new bytes
  order.push(HOLE);
  return order;
};

function assertWellFormed(reports: Run['reports']): void {
  assert.equal(reports[0]?.loaded, 0, 'the head goes first');
  let previous = 0;
  for (const r of reports) {
    assert.equal(r.total, TOTAL);
    assert.ok(r.loaded <= r.total, `loaded ${r.loaded} > total ${r.total}`);
    assert.ok(r.loaded >= previous, `loaded went back from ${previous} to ${r.loaded}`);
    previous = r.loaded;
  }
  assert.equal(reports.at(-1)?.loaded, TOTAL, 'the completion reports the whole body');
  // The pacer still spaces the reports (first bytes and completion apart).
  const mid = reports.slice(2, -1);
  for (let i = 1; i < mid.length; i++) assert.ok(mid[i]!.atMs - mid[i - 1]!.atMs >= PROGRESS_INTERVAL_MS);
}

test('progress counts the datagrams that arrived behind a hole before the resend fills it', () => {
  const { reports } = play(withHole(), 'received', false);
  assertWellFormed(reports);
  const beforeFill = reports.filter((r) => r.inOrder < TOTAL && r.loaded > 0); // past the head
  assert.ok(beforeFill.length >= 10, `${beforeFill.length} reports while the hole was open`);
  // Only the first datagram is in order until the resend; every report in between counts what had arrived.
  for (const r of beforeFill) assert.equal(r.inOrder, PAYLOAD_BYTES);
  const last = beforeFill.at(-1)!;
  assert.ok(last.loaded >= TOTAL - 4 * PAYLOAD_BYTES, `the last report before the fill counted ${last.loaded} of ${TOTAL - PAYLOAD_BYTES} bytes received`);
  assert.ok(last.loaded <= TOTAL - PAYLOAD_BYTES, 'the missing datagram is not counted before it arrives');
  // Each report counts exactly the distinct bytes received by then (the duplicate adds nothing).
  for (const r of beforeFill) {
    const received = (r.atMs - 1000) / SPACING_MS + 1; // datagrams sent by then, all but the hole and duplicate
    const expected = Math.min(received, DATAGRAMS - 1) * PAYLOAD_BYTES - (received >= DATAGRAMS - 1 ? 500 : 0);
    assert.equal(r.loaded, expected, `at ${r.atMs} ms`);
  }
});

test('progress=in-order keeps the old count: the bytes before the hole until it fills', () => {
  const { reports } = play(withHole(), 'in-order', false);
  assertWellFormed(reports);
  for (const r of reports.slice(0, -1)) assert.ok(r.loaded <= PAYLOAD_BYTES, `reported ${r.loaded} with the hole open`);
});

test('a chunked body counts the received bytes but hands over only in-order bytes, each once', () => {
  for (const order of [withHole(), [...withHole().slice(1), 0]]) { // the hole second, then the first datagram late
    const { reports, handedOver } = play(order, 'received', true);
    assertWellFormed(reports);
    assert.deepEqual(handedOver, Uint8Array.from({ length: TOTAL }, (_, i) => (i * 7 + 3) & 0xff), 'the body, in order');
    let handed = 0;
    for (const r of reports) {
      handed += r.bytes?.byteLength ?? 0;
      if (r.loaded > 0) assert.equal(handed, r.inOrder, 'each message carries the in-order bytes since the last one');
      assert.ok(r.loaded >= handed);
    }
    assert.ok(reports.some((r) => r.loaded > r.inOrder + 10 * PAYLOAD_BYTES), 'received bytes were counted ahead of the in-order ones');
  }
});
