// Probe timeouts against a real SentPacketTracker: data to resend and the credit beyond the limits, no losses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SentPacketTracker, encodeAckDatagram, decodeAckDatagram, type SentPacket } from '@pcc-stream/protocol';
import { PROBE_CREDIT_PACKETS, ProbeTimeouts } from '../src/datagram/probe-timeouts.ts';

function sentTracker(count: number): SentPacketTracker {
  const tracker = new SentPacketTracker({ random: () => 0.5 }); // no skipped numbers
  for (let i = 0; i < count; i++) {
    tracker.onPacketSent({ packetNumber: tracker.allocatePacketNumber(), sentTimeUs: 0, bytes: 1200, requestId: 1, offset: i * 1182, length: 1182, retransmission: false });
  }
  return tracker;
}

test('a probe timeout requeues the oldest data, grants two packets of credit and declares nothing lost', () => {
  const tracker = sentTracker(5);
  const probes = new ProbeTimeouts();
  const requeued: SentPacket[] = [];
  const pto = tracker.nextTimeoutUs()!;
  assert.deepEqual(probes.run(tracker, pto - 1, (p) => requeued.push(p)), []);
  assert.equal(probes.creditPackets, 0, 'not yet');
  const lost = probes.run(tracker, pto, (p) => requeued.push(p));
  assert.deepEqual(lost, []);
  assert.deepEqual(requeued.map((p) => p.offset), [0, 1182]);
  assert.equal(probes.creditPackets, PROBE_CREDIT_PACKETS);
  probes.spend();
  probes.spend();
  probes.spend();
  assert.equal(probes.creditPackets, 0, 'spent, never below zero');
  assert.equal(tracker.packetsLost, 0);
});

test('a timeout with every packet probed already still grants the credit', () => {
  const tracker = sentTracker(2);
  const probes = new ProbeTimeouts();
  let requeued = 0;
  probes.run(tracker, tracker.nextTimeoutUs()!, () => requeued++);
  probes.spend();
  probes.spend();
  probes.run(tracker, tracker.nextTimeoutUs()!, () => requeued++); // the second timeout finds nothing new to probe
  assert.equal(requeued, 2);
  assert.equal(tracker.probeTimeouts, 2);
  assert.equal(probes.creditPackets, PROBE_CREDIT_PACKETS);
});

test('losses by the time threshold are returned, with no credit', () => {
  const tracker = sentTracker(3);
  const ack = decodeAckDatagram(encodeAckDatagram({ ranges: [{ smallest: 2, largest: 2 }], ackDelayUs: 0, largestRecvTimeUs: 0, windowBytes: 1 << 20 }));
  assert.ok(ack.ok);
  assert.ok(tracker.onAck(ack.value, 100, 100).ok); // 0 and 1 are under the packet threshold: a loss timer runs
  const probes = new ProbeTimeouts();
  const lost = probes.run(tracker, tracker.nextTimeoutUs()!, () => assert.fail('no probes'));
  assert.deepEqual(lost.map((p) => p.packetNumber), [0, 1]);
  assert.equal(probes.creditPackets, 0);
});
