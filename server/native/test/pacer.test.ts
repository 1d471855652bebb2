// The addon's pacer (src/pacer.rs, Session.sendDatagramsAt): datagrams handed over with their due times leave at
// those times from the addon's own thread, in order, whatever the JavaScript thread does meanwhile. Tolerances are
// generous for a loaded 2-core machine: what they tell apart is ≤ a few ms of lateness against the 20 ms a blocked
// JavaScript thread costs a sender paced on it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { SESSION_CLOSED_CODE, type Session } from '../index.js';
import { openPair, receiveDatagrams, sleep } from './loopback.ts';

const DATAGRAM_BYTES = 1200;
/** The pacer hands a datagram over up to this much before its time (RELEASE_SPAN_US in src/pacer.rs), µs. */
const RELEASE_EARLY_US = 250;
/** Lateness a paced datagram may have on a busy machine (a descheduled pacer thread), µs. */
const LATE_TOLERANCE_US = 4000;
/** The most one datagram may be late when the pacer thread is descheduled once on a loaded CI machine, µs. */
const DESCHEDULED_LATE_US = 12_000;

const monotonicNs = (): number => Number(process.hrtime.bigint());

/** `count` datagrams numbered from 0 (the first 4 bytes), packed for sendDatagramsAt / sendDatagramBatch. */
function packed(count: number): { payloads: Uint8Array; lengths: Uint32Array } {
  const payloads = Buffer.alloc(count * DATAGRAM_BYTES);
  for (let i = 0; i < count; i++) payloads.writeUInt32BE(i, i * DATAGRAM_BYTES);
  return { payloads, lengths: new Uint32Array(count).fill(DATAGRAM_BYTES) };
}

/** Due times from `startNs`, one every `spacingUs`. */
function dueTimes(count: number, startNs: number, spacingUs: number): Float64Array {
  return Float64Array.from({ length: count }, (_, i) => startNs + i * spacingUs * 1000);
}

function busyWaitMs(ms: number): void {
  const until = monotonicNs() + ms * 1e6;
  while (monotonicNs() < until) { /* the JavaScript thread is held, as a descheduled event loop is */ }
}

/** Collects `count` departure stamps (waiting up to `timeoutMs`). */
async function departures(session: Session, count: number, timeoutMs = 3000): Promise<number[]> {
  const out = new Float64Array(count);
  const stamps: number[] = [];
  const deadline = Date.now() + timeoutMs;
  while (stamps.length < count && Date.now() < deadline) {
    const n = session.takeDepartures(out.subarray(0, count - stamps.length));
    for (let i = 0; i < n; i++) stamps.push(out[i]!);
    if (stamps.length < count) await sleep(2);
  }
  return stamps;
}

/** Each departure's lateness against its due time, µs (negative: early). */
const latenessUs = (stamps: number[], due: Float64Array): number[] => stamps.map((s, i) => (s - due[i]!) / 1000);

/**
 * Today's sender's way (`--pacer loop`): the JavaScript thread hands each datagram to QUIC itself when it is due,
 * checking on every turn of its event loop. Returns the hand-over stamps.
 */
async function pacedOnTheLoop(session: Session, due: Float64Array, blockMs: number): Promise<number[]> {
  const { payloads, lengths } = packed(due.length);
  const stamps: number[] = [];
  const stamp = new Float64Array(1);
  let next = 0;
  const done = new Promise<void>((resolve) => {
    const turn = (): void => {
      while (next < due.length && monotonicNs() >= due[next]! - RELEASE_EARLY_US * 1000) {
        const at = next * DATAGRAM_BYTES;
        assert.equal(session.sendDatagramBatch(payloads.subarray(at, at + DATAGRAM_BYTES), lengths, 1, stamp), 1);
        stamps.push(stamp[0]!);
        next++;
      }
      if (next < due.length) setImmediate(turn);
      else resolve();
    };
    setImmediate(turn);
  });
  busyWaitMs(blockMs);
  await done;
  return stamps;
}

/**
 * The same through the addon's pacer: everything handed over at once with its due time. Returns the departure stamps
 * and when the JavaScript thread was free again (ns).
 */
async function pacedInTheAddon(session: Session, due: Float64Array, blockMs: number): Promise<{ stamps: number[]; freeNs: number }> {
  const { payloads, lengths } = packed(due.length);
  assert.equal(session.sendDatagramsAt(payloads, lengths, due.length, due), due.length);
  busyWaitMs(blockMs);
  const freeNs = monotonicNs();
  return { stamps: await departures(session, due.length), freeNs };
}

test('paced datagrams leave at their due times, in order, and all arrive', async () => {
  const pair = await openPair({ client: { datagramRecvBufferBytes: 64 * 1024 * 1024 } });
  try {
    const count = 60;
    const due = dueTimes(count, monotonicNs() + 5e6, 250);
    const { payloads, lengths } = packed(count);
    assert.equal(pair.serverSession.sendDatagramsAt(payloads, lengths, count, due), count);
    assert.ok(pair.serverSession.pacedWaiting > 0, 'they wait for their times');
    const stamps = await departures(pair.serverSession, count);
    assert.equal(stamps.length, count, 'every datagram departed');
    const late = latenessUs(stamps, due);
    for (const [i, l] of late.entries()) {
      assert.ok(l >= -RELEASE_EARLY_US - 1, `datagram ${i} left ${-l} µs before its time`);
      // One descheduling of the pacer thread may hold a few in a row; the median says they keep their times.
      assert.ok(l <= DESCHEDULED_LATE_US, `datagram ${i} left ${l} µs after its time`);
    }
    const medianLateUs = [...late].sort((a, b) => a - b)[count >> 1]!;
    assert.ok(medianLateUs <= LATE_TOLERANCE_US, `median departure ${medianLateUs} µs late`);
    for (let i = 1; i < count; i++) assert.ok(stamps[i]! >= stamps[i - 1]!, 'departures in order');
    // Spread over their 15 ms, not sent as one burst.
    assert.ok(stamps[count - 1]! - stamps[0]! >= 10e6, `first to last ${(stamps[count - 1]! - stamps[0]!) / 1e6} ms`);
    assert.equal(pair.serverSession.pacedWaiting, 0);
    const received = await receiveDatagrams(pair.clientSession, count);
    assert.deepEqual(received.map((d) => d.readUInt32BE(0)), Array.from({ length: count }, (_, i) => i), 'each once, in order');
  } finally {
    pair.close();
  }
});

test('a JavaScript thread blocked for 20 ms does not delay paced departures (it does delay a sender paced on the event loop)', async () => {
  const pair = await openPair({ client: { datagramRecvBufferBytes: 64 * 1024 * 1024 } });
  try {
    // 5 ms of datagrams, one every 200 µs (48 Mbit/s), due from 1 ms on; then the JavaScript thread is held 20 ms.
    const count = 25;
    // What tells the two apart is whether datagrams leave while the thread is held: all of the addon's are due by
    // 6 ms, 14 ms before the thread is free, so a descheduled pacer thread's few ms of lateness (seen on a loaded CI
    // machine) cannot make this fail, while a pacer that needed the JavaScript thread sends none of them in time.
    const addon = dueTimes(count, monotonicNs() + 1e6, 200);
    const { stamps, freeNs } = await pacedInTheAddon(pair.serverSession, addon, 20);
    assert.equal(stamps.length, count);
    const afterFree = stamps.filter((s) => s >= freeNs).length;
    assert.equal(afterFree, 0, `addon pacer: ${afterFree} of ${count} departures waited for the JavaScript thread`);
    const addonLate = latenessUs(stamps, addon).sort((a, b) => a - b);
    const medianLateUs = addonLate[count >> 1]!;
    assert.ok(medianLateUs <= LATE_TOLERANCE_US, `addon pacer: median departure ${medianLateUs} µs late`);

    // The same schedule paced on the event loop: the held thread sends nothing until it is free again.
    const loop = dueTimes(count, monotonicNs() + 1e6, 200);
    const loopLate = latenessUs(await pacedOnTheLoop(pair.serverSession, loop, 20), loop);
    assert.ok(Math.min(...loopLate.slice(0, 5)) >= 10_000, `event-loop pacing: first departures ${loopLate.slice(0, 5)} µs late`);
  } finally {
    pair.close();
  }
});

test('discardPaced drops what waits: never sent, no departure reported', async () => {
  const pair = await openPair();
  try {
    const session = pair.serverSession;
    const { payloads, lengths } = packed(20);
    assert.equal(session.sendDatagramsAt(payloads, lengths, 20, dueTimes(20, monotonicNs() + 200e6, 100)), 20);
    assert.equal(session.pacedWaiting, 20);
    assert.equal(session.discardPaced(), 20);
    assert.equal(session.pacedWaiting, 0);
    await sleep(300);
    assert.equal(session.takeDepartures(new Float64Array(20)), 0);
    assert.equal(session.stats().datagramFramesSent, 0, 'nothing was sent');
    // The pacer goes on: later datagrams leave as usual.
    assert.equal(session.sendDatagramsAt(payloads, lengths, 2, dueTimes(2, monotonicNs(), 100)), 2);
    assert.equal((await departures(session, 2)).length, 2);
  } finally {
    pair.close();
  }
});

test('a closed session drops its waiting datagrams and refuses more with SESSION_CLOSED_CODE', async () => {
  const pair = await openPair();
  try {
    const session = pair.serverSession;
    const { payloads, lengths } = packed(20);
    // Half due at once, half 1 s on: the close comes between (1 s leaves a loaded machine time to see the first half
    // depart and close), and the wait after it runs past the second half's due time.
    const baseNs = monotonicNs();
    const due = Float64Array.from(dueTimes(20, baseNs, 0), (d, i) => (i < 10 ? d : d + 1000e6));
    assert.equal(session.sendDatagramsAt(payloads, lengths, 20, due), 20);
    assert.equal((await departures(session, 10)).length, 10);
    session.close(0, 'done');
    assert.ok(monotonicNs() < baseNs + 1000e6, 'the close came before the second half was due');
    await session.closed();
    await sleep(Math.max(0, (baseNs + 1000e6 - monotonicNs()) / 1e6) + 250);
    assert.equal(session.pacedWaiting, 0, 'the pacer dropped what the close left waiting');
    assert.equal(session.takeDepartures(new Float64Array(20)), 0, 'none of them departed');
    assert.throws(() => session.sendDatagramsAt(payloads, lengths, 1, due), { code: SESSION_CLOSED_CODE });
  } finally {
    pair.close();
  }
});

test('sendDatagramsAt checks its batch like sendDatagramBatch', async () => {
  const pair = await openPair();
  try {
    const session = pair.serverSession;
    const { payloads, lengths } = packed(2);
    assert.throws(() => session.sendDatagramsAt(payloads, lengths, 2, new Float64Array(1)), /dueNs holds 1 entries, fewer than count 2/);
    assert.throws(() => session.sendDatagramsAt(payloads, lengths, 3, new Float64Array(3)), /count 3 exceeds/);
    assert.throws(() => session.sendDatagramsAt(payloads.subarray(0, 100), lengths, 2, new Float64Array(2)), /payloads holds only 100/);
    assert.equal(session.pacedWaiting, 0);
  } finally {
    pair.close();
  }
});
