// The receiver's ACK policy as both hosts run it (AckScheduler): the policy's own decisions and due times, in µs.
// The hosts' millisecond timers are not involved: the test plays the timer by calling onTimer() at chosen times.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  AckScheduler, DatagramReceiver, MAX_ACK_DELAY_US, decodeAckDatagram, encodeDataDatagram, timerDelayMs, type AckDatagram,
} from '../src/index.ts';

const PAYLOAD_BYTES = 1000;

function decodeAck(bytes: Uint8Array | null): AckDatagram {
  assert.ok(bytes, 'an ACK is sent');
  const r = decodeAckDatagram(bytes);
  assert.ok(r.ok);
  return r.value;
}

/** A receiver with one open request of `packets` full datagrams, and its scheduler. */
function setUp(packets: number, options: { ackEveryPackets?: number; maxAckDelayUs?: number } = {}) {
  const rx = new DatagramReceiver(options);
  rx.open(1);
  assert.ok(rx.setBodyLength(1, packets * PAYLOAD_BYTES).ok);
  const scheduler = new AckScheduler(rx);
  /** Receives packet `pn` at `atUs` and takes what is in order; true when that completed the body. */
  const receive = (pn: number, atUs: number): boolean => {
    const r = rx.onDatagram(encodeDataDatagram({ requestId: 1, packetNumber: pn, offset: pn * PAYLOAD_BYTES, payload: new Uint8Array(PAYLOAD_BYTES) }), atUs);
    assert.ok(r.ok);
    rx.take(1, atUs);
    return rx.isComplete(1);
  };
  return { rx, scheduler, receive };
}

test('the end of a body is acknowledged at once (tail ACK), without waiting for the delayed-ACK timer', () => {
  const { scheduler, receive } = setUp(2);
  assert.equal(receive(0, 1000), false);
  const first = scheduler.onReceived(1000, false);
  assert.equal(first.ack, null, 'one packet waits for more or for the timer');
  assert.equal(first.armTimerAtUs, 1000 + MAX_ACK_DELAY_US);
  const completed = receive(1, 1100);
  assert.equal(completed, true);
  const tail = scheduler.onReceived(1120, completed);
  const ack = decodeAck(tail.ack);
  assert.deepEqual(ack.ranges, [{ smallest: 0, largest: 1 }]);
  assert.equal(ack.ackDelayUs, 20, 'µs since the newest packet arrived');
  assert.equal(tail.armTimerAtUs, null, 'nothing left to acknowledge: no timer needed');
  // The armed timer still fires, and finds nothing to do.
  assert.deepEqual(scheduler.onTimer(1000 + MAX_ACK_DELAY_US), { ack: null, armTimerAtUs: null });
  // Without the end of a body, the same two packets would have waited for the timer.
  const other = setUp(3);
  other.receive(0, 1000);
  other.scheduler.onReceived(1000);
  other.receive(1, 1100);
  assert.equal(other.scheduler.onReceived(1120, false).ack, null);
});

test('due times are exact microseconds, not whole milliseconds; an early timer is re-armed, not obeyed', () => {
  const { scheduler, receive } = setUp(10, { maxAckDelayUs: 733 });
  receive(0, 10_001);
  const step = scheduler.onReceived(10_002);
  assert.equal(step.armTimerAtUs, 10_734);
  assert.equal(scheduler.timerDueUs, 10_734);
  // The host converts to its timer's unit without rounding (a millisecond timer may still fire early or late).
  assert.equal(timerDelayMs(10_734, 10_002), 0.732);
  assert.equal(timerDelayMs(10_734, 11_000), 0, 'overdue: fire at once');
  // Fired early (e.g. a timer rounded down to 0 ms): no ACK yet, re-armed at the same µs due time.
  assert.deepEqual(scheduler.onTimer(10_500), { ack: null, armTimerAtUs: 10_734 });
  const due = scheduler.onTimer(10_734);
  assert.equal(decodeAck(due.ack).ackDelayUs, 733);
  assert.equal(due.armTimerAtUs, null);
  assert.equal(scheduler.timerDueUs, null);
});

test('the timer is moved earlier when the next ACK falls due before it, and never later', () => {
  const { scheduler, receive } = setUp(20, { ackEveryPackets: 4, maxAckDelayUs: 500 });
  receive(0, 1000);
  assert.equal(scheduler.onReceived(1000).armTimerAtUs, 1500);
  // Packets 1-3 complete the every-4 rule: an ACK now; the armed timer is kept (it fires first, harmlessly).
  for (const [pn, at] of [[1, 1100], [2, 1110], [3, 1120]] as const) receive(pn, at);
  const everyFourth = scheduler.onReceived(1130);
  assert.deepEqual(decodeAck(everyFourth.ack).ranges, [{ smallest: 0, largest: 3 }]);
  assert.equal(everyFourth.armTimerAtUs, null);
  // A packet due at 1640 does not move the 1500 timer later...
  receive(4, 1140);
  assert.equal(scheduler.onReceived(1150).armTimerAtUs, null);
  assert.equal(scheduler.timerDueUs, 1500);
  // ...which, firing, re-arms for 1640.
  assert.deepEqual(scheduler.onTimer(1500), { ack: null, armTimerAtUs: 1640 });
  assert.ok(scheduler.onTimer(1640).ack);
  // Receive stamps come from where the host received a datagram, the steps from its event loop, so the policy does
  // not assume the next due time is never earlier than the armed timer: when it is, the timer moves earlier.
  const early = setUp(20, { ackEveryPackets: 4, maxAckDelayUs: 500 });
  early.receive(0, 2000);
  assert.equal(early.scheduler.onReceived(2000).armTimerAtUs, 2500);
  for (const [pn, at] of [[1, 2010], [2, 2020], [3, 2030]] as const) early.receive(pn, at);
  assert.ok(early.scheduler.onReceived(2030).ack);
  early.receive(4, 1900);
  assert.equal(early.scheduler.onReceived(2040).armTimerAtUs, 2400);
  assert.equal(early.scheduler.timerDueUs, 2400);
  // A due time already past is not a timer: the ACK goes now.
  const late = setUp(20, { ackEveryPackets: 4, maxAckDelayUs: 500 });
  late.receive(0, 5000);
  const now = late.scheduler.onReceived(5600);
  assert.ok(now.ack);
  assert.equal(now.armTimerAtUs, null);
});

test('reordering and window updates are acknowledged at once; the default delay is the policy\'s', () => {
  const { rx, scheduler, receive } = setUp(20);
  receive(0, 0);
  scheduler.onReceived(0);
  receive(2, 10); // packet 1 missing
  const gap = scheduler.onReceived(10);
  assert.deepEqual(decodeAck(gap.ack).ranges, [{ smallest: 2, largest: 2 }, { smallest: 0, largest: 0 }]);
  assert.equal(rx.ackDueAtUs(), null);
  assert.equal(new AckScheduler(new DatagramReceiver()).onReceived(0).armTimerAtUs, null, 'nothing received, nothing due');
});

test('no host keeps its own ACK timer: outside protocol/src nothing asks the receiver when an ACK is due', () => {
  const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const offenders: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', 'build', 'wasm-dist', 'target', 'test'].includes(entry.name) && !entry.name.startsWith('.')) visit(path);
      } else if (/\.(ts|mjs|js)$/.test(entry.name) && !path.startsWith(join(repoRoot, 'protocol', 'src'))) {
        // Direct use of DatagramReceiver's timing (ackDueAtUs, poll) is a second ACK policy in the making.
        if (/\.ackDueAtUs\(|[Rr]eceiver(\(\))?\.poll\(/.test(readFileSync(path, 'utf8'))) offenders.push(path.slice(repoRoot.length + 1));
      }
    }
  };
  visit(repoRoot);
  assert.deepEqual(offenders, [], 'run protocol\'s AckScheduler instead');
});
