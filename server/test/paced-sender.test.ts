// DatagramSender with --pacer addon, in virtual time, with the real `fixed` controller and a sink that does what the
// addon's pacer does (server/native/src/pacer.rs; its own timing is tested in server/native/test/pacer.test.ts):
// datagrams wait for their due times and depart in order, with a stamp per departure. What is checked is the
// sender's side: the schedule it hands over, and that the controller hears of each packet at its departure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadControllerModule, type Controller } from '@pcc-stream/controller';
import { decodeDataDatagram, encodeAckDatagram } from '@pcc-stream/protocol';
import { monotonicNsFromUs } from '../src/clock.ts';
import { DatagramSender } from '../src/datagram/datagram-sender.ts';
import { PACER_LOOKAHEAD_US } from '../src/datagram/departure-schedule.ts';
import { OutgoingRequest } from '../src/datagram/outgoing-request.ts';
import { MemoryBodySource } from '../src/media/body-source.ts';

const module = await loadControllerModule();
const RATE_BPS = 48e6; // 1200-B datagrams every 200 µs

/** The addon pacer's behaviour in virtual time: `releaseUntil(t)` sends, in order, every datagram due by t, at its time. */
class PacingSink {
  waiting: Array<{ dueNs: number; packetNumber: number; handedOverUs: number }> = [];
  departed: Array<{ stampNs: number; packetNumber: number; dueNs: number }> = [];
  private untaken = 0;
  nowUs = 0;
  discarded = 0;
  sendDatagramBatch(): number {
    throw new Error('a paced sender must not send directly');
  }
  sendDatagramsAt(payloads: Uint8Array, lengths: Uint32Array, count: number, dueNs: Float64Array): number {
    let at = 0;
    for (let i = 0; i < count; i++) {
      const d = decodeDataDatagram(payloads.subarray(at, at + lengths[i]!));
      assert.ok(d.ok);
      this.waiting.push({ dueNs: dueNs[i]!, packetNumber: d.value.packetNumber, handedOverUs: this.nowUs });
      at += lengths[i]!;
    }
    return count;
  }
  /** Departs what is due by `tUs`; `lateUs`: each departs this much after its due time (a busy pacer thread). */
  releaseUntil(tUs: number, lateUs = 0): void {
    while (this.waiting.length > 0 && this.waiting[0]!.dueNs <= monotonicNsFromUs(tUs - lateUs)) {
      const w = this.waiting.shift()!;
      this.departed.push({ stampNs: w.dueNs + lateUs * 1000, packetNumber: w.packetNumber, dueNs: w.dueNs });
    }
  }
  takeDepartures(out: Float64Array): number {
    const n = Math.min(out.length, this.departed.length - this.untaken);
    for (let i = 0; i < n; i++) out[i] = this.departed[this.untaken + i]!.stampNs;
    this.untaken += n;
    return n;
  }
  discardPaced(): number {
    const n = this.waiting.length;
    this.discarded += n;
    this.waiting = [];
    return n;
  }
}

function setup(bodyBytes = 10_000_000) {
  const controller: Controller = module.create('fixed', { nowUs: 0, params: { rate_bps: RATE_BPS } });
  // What the controller is told: each packet's send time, in the order told.
  const told: Array<{ packetNumber: number; sentUs: number }> = [];
  const packetSent = controller.packetSent.bind(controller);
  controller.packetSent = (packetNumber: number, bytes: number, sentUs: number) => {
    told.push({ packetNumber, sentUs });
    packetSent(packetNumber, bytes, sentUs);
  };
  const sink = new PacingSink();
  const fatal: Array<[number, string]> = [];
  const sender = new DatagramSender(controller, sink, {
    onFatal: (code, reason) => fatal.push([code, reason]), onRequestComplete: () => undefined, onProgress: () => undefined,
  }, { random: Math.random, maxDatagramBytes: 1200, initialWindowBytes: 2 ** 31, nowUs: 0, pacer: 'addon' });
  const request = new OutgoingRequest(9, new MemoryBodySource(new Uint8Array(bodyBytes)), 0, bodyBytes, 0);
  sender.addRequest(request, 2 ** 31);
  return { controller, sink, sender, told, fatal, request };
}

/** Runs turns from `fromUs` to `toUs`, the pacer departing what is due before each; `turnAt(t)`: whether a turn runs at t. */
function run(s: ReturnType<typeof setup>, fromUs: number, toUs: number, turnAt: (t: number) => boolean = () => true): void {
  let wakeUs = fromUs;
  for (let t = fromUs; t <= toUs; t += 50) {
    s.sink.nowUs = t;
    s.sink.releaseUntil(t);
    if (t >= wakeUs && turnAt(t)) wakeUs = s.sender.service(t);
  }
}

test('--pacer addon: departures scheduled at the rate, handed over at most the look-ahead early; the controller hears of each at its departure, in order', () => {
  const s = setup();
  run(s, 0, 200_000);
  assert.equal(s.fatal.length, 0);
  const all = [...s.sink.departed, ...s.sink.waiting];
  for (let i = 2; i < all.length; i++) {
    const gapUs = (all[i]!.dueNs - all[i - 1]!.dueNs) / 1000;
    assert.ok(Math.abs(gapUs - 200) < 1, `due times ${i - 1}→${i} ${gapUs} µs apart, not 200`);
  }
  for (const w of s.sink.waiting) {
    const aheadUs = (w.dueNs - monotonicNsFromUs(w.handedOverUs)) / 1000;
    assert.ok(aheadUs <= PACER_LOOKAHEAD_US + 1, `handed over ${aheadUs} µs before its time`);
  }
  // The controller was told of each departed packet, in number order, at its departure stamp, and of none still waiting.
  // (A prefix: departures since the last turn are told at the next one, ≤ 1 ms of them here.)
  assert.ok(s.told.length >= s.sink.departed.length - 10 && s.told.length <= s.sink.departed.length, `${s.told.length} told, ${s.sink.departed.length} departed`);
  for (const [i, t] of s.told.entries()) {
    assert.equal(t.packetNumber, s.sink.departed[i]!.packetNumber);
    assert.equal(t.sentUs, Math.floor((s.sink.departed[i]!.dueNs - monotonicNsFromUs(0)) / 1000));
    if (i > 0) assert.ok(t.sentUs >= s.told[i - 1]!.sentUs);
  }
  // 200 ms at 48 Mbit/s = 1000 datagrams.
  assert.ok(Math.abs(s.sink.departed.length - 1000) <= 2, `${s.sink.departed.length} departed`);
});

test('--pacer addon: send turns up to 2.5 ms late lose nothing: the look-ahead carries the departures through the stall', () => {
  // Every 4th ms the turns stop for 2.5 ms (the event loop descheduled).
  const stalled = (t: number): boolean => t % 4000 >= 1500;
  const s = setup();
  run(s, 0, 400_000, stalled);
  assert.ok(Math.abs(s.sink.departed.length - 2000) <= 3, `addon: ${s.sink.departed.length} of 2000 datagrams departed`);
  // The departures kept their times: none later than due.
  assert.ok(s.sink.departed.every((d, i) => i === 0 || d.stampNs - s.sink.departed[i - 1]!.stampNs <= 200_001));
});

test('--pacer addon: an ACK is reported after the departures before it; a cancelled request\'s handed-over datagrams still depart and are accounted; close discards what waits', () => {
  const s = setup();
  run(s, 0, 10_000);
  // Acknowledge everything departed so far: its departures reach the controller before the ACK does.
  s.sink.releaseUntil(10_500);
  const departed = s.sink.departed.map((d) => d.packetNumber);
  const toldBefore = s.told.length;
  // Ranges, largest first, of the departed numbers (the tracker skips numbers now and then).
  const ranges: Array<{ smallest: number; largest: number }> = [];
  for (const pn of [...departed].reverse()) {
    const last = ranges.at(-1);
    if (last && last.smallest === pn + 1) last.smallest = pn;
    else ranges.push({ smallest: pn, largest: pn });
  }
  s.sender.onDatagrams([encodeAckDatagram({ ackDelayUs: 0, largestRecvTimeUs: 0, windowBytes: 2 ** 31, ranges })], 10_600);
  assert.equal(s.fatal.length, 0, String(s.fatal[0]));
  assert.ok(s.told.length > toldBefore, 'departures collected before the ACK');
  assert.equal(s.told.at(-1)!.packetNumber, departed.at(-1));

  // Cancel: nothing new is handed over for it; what was handed over still departs, is told to the controller and stays tracked.
  const waiting = s.sink.waiting.length;
  assert.ok(waiting > 0);
  s.sender.removeRequest(9);
  const inFlight = s.sender.tracker.packetsInFlight;
  run(s, 10_650, 20_000);
  assert.equal(s.sink.waiting.length, 0);
  assert.equal(s.told.length, s.sink.departed.length, 'every departure told');
  assert.equal(s.sender.tracker.packetsInFlight, inFlight, 'the cancelled request\'s datagrams stay in flight until acked or lost');

  // Close: what waits is discarded, never reported sent.
  const t = setup();
  run(t, 0, 5_000);
  const told = t.told.length;
  const left = t.sink.waiting.length;
  assert.ok(left > 0);
  t.sender.close();
  assert.equal(t.sink.discarded, left);
  t.sink.releaseUntil(50_000);
  assert.equal(t.sender.service(50_000), Infinity);
  assert.equal(t.told.length, told);
});

test('--pacer addon needs a sink that paces', () => {
  const controller = module.create('fixed', { nowUs: 0, params: { rate_bps: RATE_BPS } });
  const sink = { sendDatagramBatch: () => 0 };
  assert.throws(() => new DatagramSender(controller, sink, {
    onFatal: () => undefined, onRequestComplete: () => undefined, onProgress: () => undefined,
  }, { random: Math.random, maxDatagramBytes: 1200, initialWindowBytes: 2 ** 31, nowUs: 0, pacer: 'addon' }), /--pacer addon needs a sink/);
  controller.destroy();
});
