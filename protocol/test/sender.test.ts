import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DATA_MAX_HEADER_BYTES, DatagramReceiver, MAX_DATAGRAM_BYTES, RangeSet, SentPacketTracker, decodeAckDatagram, decodeDataDatagram,
  encodeDataDatagram, type AckDatagram,
} from '../src/index.ts';
import { seededRandom } from './random.ts';

function send(tracker: SentPacketTracker, nowUs: number, bytes = 1200): number {
  const pn = tracker.allocatePacketNumber();
  tracker.onPacketSent({ packetNumber: pn, sentTimeUs: nowUs, bytes, requestId: 1, offset: 0, length: 10, retransmission: false });
  return pn;
}

function ack(ranges: Array<[number, number]>, ackDelayUs = 0): AckDatagram {
  return { ranges: ranges.map(([smallest, largest]) => ({ smallest, largest })), ackDelayUs, largestRecvTimeUs: 0, windowBytes: 1e6 };
}

test('packet numbers are skipped unpredictably and an ACK covering a skipped one is an optimistic ACK', () => {
  const tracker = new SentPacketTracker({ random: seededRandom(6), meanSkipIntervalPackets: 16 });
  const sent: number[] = [];
  for (let i = 0; i < 400; i++) sent.push(send(tracker, i));
  assert.ok(tracker.skippedNumbers >= 10, `skipped ${tracker.skippedNumbers}`);
  const sentSet = new Set(sent);
  const skipped = [...Array(tracker.largestSent + 1).keys()].filter((pn) => !sentSet.has(pn));
  assert.equal(skipped.length, tracker.skippedNumbers);
  // Gaps differ: not a fixed stride.
  const strides = new Set(skipped.slice(1).map((s, i) => s - skipped[i]!));
  assert.ok(strides.size > 3);
  const r = tracker.onAck(ack([[0, tracker.largestSent]]), 1000);
  assert.ok(!r.ok && r.error.code === 'optimistic-ack');
  assert.equal(tracker.packetsAcked, 0, 'nothing applied from a hostile ACK');
});

test('an ACK above the largest sent number is rejected; legit SACKs that avoid skips are applied', () => {
  const tracker = new SentPacketTracker({ random: seededRandom(7), meanSkipIntervalPackets: 16 });
  const sent: number[] = [];
  for (let i = 0; i < 50; i++) sent.push(send(tracker, i * 10));
  const above = tracker.onAck(ack([[tracker.largestSent + 1, tracker.largestSent + 1]]), 1000);
  assert.ok(!above.ok && above.error.code === 'ack-of-unsent');
  const reversed = tracker.onAck(ack([[1, 2], [5, 6]]), 1000);
  assert.ok(!reversed.ok && reversed.error.code === 'bad-ack-range');
  // Ack exactly the sent packets as contiguous runs between skips.
  const runs: Array<[number, number]> = [];
  for (const pn of sent) {
    const last = runs[runs.length - 1];
    if (last && last[1] === pn - 1) last[1] = pn;
    else runs.push([pn, pn]);
  }
  const ok = tracker.onAck(ack(runs.reverse(), 0), 600);
  assert.ok(ok.ok, ok.ok ? '' : ok.error.message);
  assert.equal(ok.value.newlyAcked.length, 50);
  assert.deepEqual(ok.value.newlyAcked.map((p) => p.packetNumber), sent);
  assert.equal(tracker.bytesInFlight, 0);
  assert.equal(tracker.trackedPackets, 0);
  assert.equal(ok.value.rttSampleUs, 600 - 490);
});

test('packet-threshold and time-threshold losses, RTT with ack delay (RFC 9002)', () => {
  const tracker = new SentPacketTracker({ random: () => 0.99, granularityUs: 1000 });
  for (let i = 0; i < 10; i++) send(tracker, i * 100); // pns 0..9, sent at 0..900 µs
  // Ack 4..5 at 10_000 µs: 0,1 are ≥ 3 below → lost; 2,3 wait for the time threshold.
  const r = tracker.onAck(ack([[4, 5]], 1000), 10_000);
  assert.ok(r.ok);
  // First sample: min RTT = latest, so the ack delay is not subtracted (RFC 9002 §5.3); loss delay 9/8 · 9.5 ms.
  assert.equal(r.value.rttSampleUs, 10_000 - 500);
  assert.deepEqual(r.value.lost.map((p) => p.packetNumber), [0, 1, 2]);
  assert.equal(tracker.rtt.minUs, 9500);
  // A second ACK with a short RTT: losses by packet threshold only.
  const t2 = new SentPacketTracker({ random: () => 0.99 });
  for (let i = 0; i < 6; i++) send(t2, i * 10);
  const a = t2.onAck(ack([[4, 4]]), 100);
  assert.ok(a.ok);
  assert.deepEqual(a.value.lost.map((p) => p.packetNumber), [0, 1]);
  const due = t2.nextTimeoutUs();
  assert.ok(due !== null && due > 100, 'loss timer armed for 2 and 3');
  assert.deepEqual(t2.onTimeout(due - 1), { lost: [], probes: [] });
  assert.deepEqual(t2.onTimeout(due).lost.map((p) => p.packetNumber), [2]);
  const due3 = t2.nextTimeoutUs();
  assert.equal(due3, due + 10);
  assert.deepEqual(t2.onTimeout(due3!).lost.map((p) => p.packetNumber), [3]);
  assert.equal(t2.packetsInFlight, 1);
  assert.equal(t2.packetsLost, 4);
});

test('a probe timeout resends the oldest data but declares nothing lost; a late ACK still counts', () => {
  const tracker = new SentPacketTracker({ random: () => 0.99, probePackets: 2 });
  for (let i = 0; i < 5; i++) send(tracker, 0);
  const first = tracker.nextTimeoutUs();
  assert.ok(first !== null);
  const t1 = tracker.onTimeout(first);
  assert.deepEqual(t1.lost, []);
  assert.deepEqual(t1.probes.map((p) => p.packetNumber), [0, 1]);
  assert.equal(tracker.packetsInFlight, 5, 'probed packets stay in flight');
  const second = tracker.nextTimeoutUs();
  assert.ok(second !== null && second - 0 >= 2 * (first - 0) - 1, 'exponential backoff');
  const t2 = tracker.onTimeout(second);
  assert.deepEqual(t2.probes.map((p) => p.packetNumber), [2, 3], 'each packet is probed once');
  assert.equal(tracker.packetsLost, 0);
  assert.equal(tracker.probeTimeouts, 2);
  // The receiver had them all: the late ACK acknowledges every packet, none was lost.
  const late = tracker.onAck(ack([[0, 4]]), second + 1);
  assert.ok(late.ok);
  assert.deepEqual(late.value.newlyAcked.map((p) => p.packetNumber), [0, 1, 2, 3, 4]);
  assert.deepEqual(late.value.lost, []);
  assert.equal(tracker.packetsLost, 0);
  assert.equal(tracker.nextTimeoutUs(), null);
});

test('a probed packet is declared lost once something newer is acknowledged', () => {
  const tracker = new SentPacketTracker({ random: () => 0.99, probePackets: 1 });
  for (let i = 0; i < 4; i++) send(tracker, 0);
  const pto = tracker.nextTimeoutUs()!;
  assert.deepEqual(tracker.onTimeout(pto).probes.map((p) => p.packetNumber), [0]);
  send(tracker, pto); // pn 4: the probe carrying pn 0's data
  const r = tracker.onAck(ack([[1, 4]]), pto + 1000);
  assert.ok(r.ok);
  assert.deepEqual(r.value.lost.map((p) => p.packetNumber), [0]);
  assert.equal(tracker.spuriousLosses, 0);
});

test('a packet declared lost and acknowledged later counts as a spurious loss', () => {
  const tracker = new SentPacketTracker({ random: () => 0.99 });
  for (let i = 0; i < 6; i++) send(tracker, i * 10);
  const r = tracker.onAck(ack([[4, 5]]), 100);
  assert.ok(r.ok);
  assert.deepEqual(r.value.lost.map((p) => p.packetNumber), [0, 1, 2]);
  const late = tracker.onAck(ack([[4, 5], [0, 1]]), 200);
  assert.ok(late.ok);
  assert.equal(tracker.spuriousLosses, 2);
  assert.equal(late.value.newlyAcked.length, 0);
  assert.ok(tracker.onAck(ack([[4, 5], [0, 1]]), 300).ok);
  assert.equal(tracker.spuriousLosses, 2, 'counted once per packet');
  assert.equal(tracker.packetsLost, 3);
});

test('lost packets acknowledged by several ranges of one ACK each count once; those outside the ranges stay lost', () => {
  const tracker = new SentPacketTracker({ random: () => 0.99 });
  for (let i = 0; i < 14; i++) send(tracker, i * 10);
  const r = tracker.onAck(ack([[13, 13]]), 200);
  assert.ok(r.ok);
  assert.deepEqual(r.value.lost.map((p) => p.packetNumber), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  // Ranges between, across and below the lost numbers: 1-2, 4, 6-8 and 10 were received after all.
  assert.ok(tracker.onAck(ack([[13, 13], [10, 10], [6, 8], [4, 4], [1, 2]]), 300).ok);
  assert.equal(tracker.spuriousLosses, 7);
  // 0, 3, 5 and 9 are still remembered as lost: acknowledged now, they count; the others do not count twice.
  assert.ok(tracker.onAck(ack([[13, 13], [0, 10]]), 400).ok);
  assert.equal(tracker.spuriousLosses, 11);
});

test('an allocated number that was never sent counts as skipped', () => {
  const tracker = new SentPacketTracker({ random: () => 0.99 });
  send(tracker, 0); // 0
  tracker.allocatePacketNumber(); // 1 never sent (backpressure)
  send(tracker, 1); // 2
  const r = tracker.onAck(ack([[0, 2]]), 10);
  assert.ok(!r.ok && r.error.code === 'optimistic-ack');
});

test('sender and receiver deliver a body bit-exact over a lossy, reordering channel', () => {
  for (const lossRate of [0, 0.05, 0.3]) {
    const random = seededRandom(100 + lossRate * 100);
    const body = new Uint8Array(300_000).map(() => Math.floor(random() * 256));
    const tracker = new SentPacketTracker({ random, meanSkipIntervalPackets: 32 });
    const rx = new DatagramReceiver({ ackEveryPackets: 2, maxAckDelayUs: 1000 });
    rx.open(1);
    assert.ok(rx.setBodyLength(1, body.byteLength).ok);
    const acked = new RangeSet();
    const retransmit: Array<[number, number]> = [];
    let nextOffset = 0;
    let retransmittedBytes = 0;
    const toClient: Array<{ at: number; bytes: Uint8Array }> = [];
    const toServer: Array<{ at: number; bytes: Uint8Array }> = [];
    const received: Uint8Array[] = [];
    let now = 0;
    const oneWayUs = 5000;
    const windowPackets = 40;
    for (let step = 0; step < 200_000 && !(acked.covers(0, body.byteLength)); step++) {
      now += 100;
      // Server: send one packet per step while under the window.
      if (tracker.packetsInFlight < windowPackets) {
        let range: [number, number] | undefined;
        while (retransmit.length > 0 && !range) {
          const [s, e] = retransmit.shift()!;
          const gap = acked.firstGap(s, e);
          if (gap) {
            range = [gap.start, gap.end];
            if (gap.end < e) retransmit.unshift([gap.end, e]);
            retransmittedBytes += gap.end - gap.start;
          }
        }
        if (!range && nextOffset < body.byteLength) {
          range = [nextOffset, Math.min(body.byteLength, nextOffset + MAX_DATAGRAM_BYTES - DATA_MAX_HEADER_BYTES)];
          nextOffset = range[1];
        }
        if (range) {
          const pn = tracker.allocatePacketNumber();
          const bytes = encodeDataDatagram({ requestId: 1, packetNumber: pn, offset: range[0], payload: body.subarray(range[0], range[1]) });
          tracker.onPacketSent({ packetNumber: pn, sentTimeUs: now, bytes: bytes.byteLength, requestId: 1, offset: range[0], length: range[1] - range[0], retransmission: false });
          if (random() >= lossRate) toClient.push({ at: now + oneWayUs + (lossRate > 0 ? Math.floor(random() * 2000) : 0), bytes });
        }
      }
      const timeout = tracker.onTimeout(now);
      for (const p of [...timeout.lost, ...timeout.probes]) retransmit.push([p.offset, p.offset + p.length]);
      // Deliver datagrams (reordered by random jitter).
      toClient.sort((a, b) => a.at - b.at);
      while (toClient.length > 0 && toClient[0]!.at <= now) {
        const d = toClient.shift()!;
        assert.ok(decodeDataDatagram(d.bytes).ok);
        assert.ok(rx.onDatagram(d.bytes, now).ok);
        received.push(...rx.take(1, now));
      }
      const ackBytes = rx.poll(now);
      if (ackBytes && random() >= lossRate) toServer.push({ at: now + oneWayUs, bytes: ackBytes });
      while (toServer.length > 0 && toServer[0]!.at <= now) {
        const a = decodeAckDatagram(toServer.shift()!.bytes);
        assert.ok(a.ok);
        const outcome = tracker.onAck(a.value, now);
        assert.ok(outcome.ok, outcome.ok ? '' : outcome.error.message);
        for (const p of outcome.value.newlyAcked) acked.add(p.offset, p.offset + p.length);
        for (const p of outcome.value.lost) retransmit.push([p.offset, p.offset + p.length]);
      }
    }
    assert.ok(acked.covers(0, body.byteLength), `all acked at loss ${lossRate}`);
    assert.ok(rx.isComplete(1));
    const joined = new Uint8Array(body.byteLength);
    let at = 0;
    for (const c of received) {
      joined.set(c, at);
      at += c.byteLength;
    }
    assert.equal(at, body.byteLength);
    assert.deepEqual(joined, body);
    if (lossRate === 0) assert.equal(retransmittedBytes, 0);
    else assert.ok(retransmittedBytes > 0);
    assert.ok(tracker.trackedPackets < 200, 'tracker memory stays bounded');
  }
});

test('an RTT sample ends when the ACK arrived (receivedAtUs), while losses are judged at processing time', () => {
  const tracker = new SentPacketTracker({ random: () => 0.99, granularityUs: 1000 });
  for (let i = 0; i < 6; i++) send(tracker, i * 100); // pns 0..5, sent at 0..500 µs
  // The ACK of 5 arrived at 1500 µs but was processed at 4000 µs (the event loop was busy).
  const r = tracker.onAck(ack([[5, 5]]), 4000, 1500);
  assert.ok(r.ok);
  assert.equal(r.value.rttSampleUs, 1500 - 500);
  assert.equal(tracker.rtt.latestUs, 1000);
  // 0..2 by packet threshold; 3 and 4 were sent > 9/8 · 1 ms before 4000 µs: lost by time at processing time.
  assert.deepEqual(r.value.lost.map((p) => p.packetNumber), [0, 1, 2, 3, 4]);
  // A receive time after processing or before the send cannot make the sample exceed now or go negative.
  const t2 = new SentPacketTracker({ random: () => 0.99 });
  send(t2, 1000);
  const late = t2.onAck(ack([[0, 0]]), 2000, 9999);
  assert.ok(late.ok);
  assert.equal(late.value.rttSampleUs, 1000);
  const t3 = new SentPacketTracker({ random: () => 0.99 });
  send(t3, 1000);
  const early = t3.onAck(ack([[0, 0]]), 2000, 10);
  assert.ok(early.ok);
  assert.equal(early.value.rttSampleUs, 1); // clamped to the 1 µs floor
});

test('nextPacketNumberBound bounds the next allocated number, skips included (the DATA header is sized by it)', () => {
  const tracker = new SentPacketTracker({ random: seededRandom(11), meanSkipIntervalPackets: 2 });
  let skips = 0;
  let previous = -1;
  for (let i = 0; i < 1000; i++) {
    const bound = tracker.nextPacketNumberBound;
    const pn = tracker.allocatePacketNumber();
    assert.ok(pn <= bound, `${pn} > ${bound}`);
    if (pn === previous + 2) skips++;
    previous = pn;
  }
  assert.ok(skips > 100, 'skips happened');
});
