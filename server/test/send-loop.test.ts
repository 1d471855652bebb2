// The process-wide send loop on the real event loop and clock: who is serviced when, and that nothing is left
// behind. Members are plain objects (the loop's boundary is its member interface); timings are loose on purpose
// (a loaded 2-core machine), the order and counts are exact.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nowUs } from '../src/clock.ts';
import { SendLoop, latenessPercentileUs, type SendLoopMember } from '../src/datagram/send-loop.ts';

class Member implements SendLoopMember {
  services: number[] = [];
  errors: unknown[] = [];
  constructor(readonly name: string, private readonly next: (nowUs: number, self: Member) => number, private readonly log?: string[]) {}
  service(now: number): number {
    this.services.push(now);
    this.log?.push(this.name);
    return this.next(now, this);
  }
  onServiceError(err: unknown): void {
    this.errors.push(err);
  }
}

const sleepMs = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(condition: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await sleepMs(5);
}

test('sessions due at the same time are serviced round-robin, each once per turn, in the order they joined', async () => {
  const loop = new SendLoop();
  const order: string[] = [];
  const members = ['a', 'b', 'c'].map((n) => new Member(n, (now, self) => (self.services.length < 20 ? now : Infinity), order));
  for (const m of members) loop.add(m);
  await until(() => members.every((m) => m.services.length === 20), 5000);
  assert.deepEqual(order, Array.from({ length: 20 }, () => ['a', 'b', 'c']).flat());
  assert.equal(loop.armed, false, 'all idle: nothing armed');
  loop.stop();
});

test('a session that always wants to send does not starve one that sends every 2 ms', async () => {
  const loop = new SendLoop();
  const busy = new Member('busy', (now) => now);
  const paced = new Member('paced', (now) => now + 2000);
  loop.add(busy);
  loop.add(paced);
  // About 100 turns in 200 ms; a loaded machine gives fewer, so wait for 20 (a starved member never gets them).
  const startedMs = Date.now();
  await until(() => paced.services.length >= 20, 10_000);
  loop.stop();
  assert.ok(paced.services.length >= 20, `paced serviced ${paced.services.length} times in ${Date.now() - startedMs} ms`);
  const gaps = paced.services.slice(1).map((t, i) => t - paced.services[i]!);
  assert.ok(gaps.every((g) => g >= 2000), 'never before it is due');
  assert.ok(busy.services.length > paced.services.length);
});

test('a member due in 20 ms waits on a timer: a few turns, not a spin', async () => {
  const loop = new SendLoop();
  const slow = new Member('slow', (now) => now + 20_000);
  loop.add(slow);
  await until(() => slow.services.length >= 6, 10_000);
  loop.stop();
  // Never before it is due (a loaded machine may only be later), and 6 services came (the wait ends).
  const gaps = slow.services.slice(1).map((t, i) => t - slow.services[i]!);
  assert.ok(slow.services.length >= 6 && gaps.every((g) => g >= 20_000), `${slow.services.length} services, gaps ${gaps.join(', ')} µs`);
  // Each wait ends with up to a few 0.5 ms sleeps (the timer fires ~2 ms early); a spin would be thousands of turns.
  assert.ok(loop.turns <= 10 * slow.services.length, `${loop.turns} turns for ${slow.services.length} services`);
});

test('a removed session is never serviced again, and the last one leaving disarms the loop', async () => {
  const loop = new SendLoop();
  const a = new Member('a', (now) => now + 1000);
  const b = new Member('b', (now) => now + 30_000);
  loop.add(a);
  loop.add(b);
  await until(() => a.services.length >= 3, 10_000);
  loop.remove(a);
  const servicedBefore = a.services.length;
  assert.equal(loop.size, 1);
  assert.equal(loop.armed, true, 'b still has a wake-up');
  loop.wake(a); // a late wake for a closed session is ignored
  assert.equal(loop.size, 1);
  loop.remove(b);
  assert.equal(loop.size, 0);
  assert.equal(loop.armed, false, 'no timer left behind');
  const turns = loop.turns;
  await sleepMs(50);
  assert.equal(a.services.length, servicedBefore);
  assert.equal(loop.turns, turns, 'no turn after the last member left');
});

test('a session that closes during its own turn is not brought back', async () => {
  const loop = new SendLoop();
  const closing = new Member('closing', (now, self) => {
    loop.remove(self); // what a fatal error does: the session closes and leaves the loop
    return now + 1000;
  });
  loop.add(closing);
  await until(() => closing.services.length === 1, 10_000);
  await sleepMs(20);
  assert.equal(closing.services.length, 1);
  assert.equal(loop.size, 0);
  assert.equal(loop.armed, false);
});

test('a member that throws is removed and told; the others go on', async () => {
  const loop = new SendLoop();
  const broken = new Member('broken', () => {
    throw new Error('boom');
  });
  const fine = new Member('fine', (now, self) => (self.services.length < 5 ? now + 500 : Infinity));
  loop.add(broken);
  loop.add(fine);
  await until(() => fine.services.length === 5, 10_000);
  assert.equal(fine.services.length, 5);
  assert.equal(broken.services.length, 1);
  assert.equal((broken.errors[0] as Error).message, 'boom');
  assert.equal(loop.size, 1);
  loop.stop();
});

test('the loop runs on the clock it is given', async () => {
  const loop = new SendLoop(() => nowUs() + 5e12);
  const m = new Member('m', (now, self) => (self.services.length < 3 ? now + 1000 : Infinity));
  loop.add(m);
  await until(() => m.services.length === 3, 10_000);
  assert.equal(m.services.length, 3);
  assert.ok(m.services.every((t) => t >= 5e12), "members see the loop's clock");
  assert.ok(m.services[2]! - m.services[1]! >= 1000, 'and are due on it');
  loop.stop();
});

test("turns asked for by wake() are counted apart from planned ones, whose lateness is kept", async () => {
  const loop = new SendLoop();
  const m = new Member('m', () => Infinity);
  loop.add(m); // add wakes it: one woken turn
  await until(() => m.services.length === 1, 10_000);
  loop.wake(m);
  await until(() => m.services.length === 2, 10_000);
  assert.equal(loop.wokenTurns, 2);
  assert.equal(loop.plannedLateness.reduce((a, b) => a + b, 0), 0, 'no planned turn yet');
  const planned = new Member('planned', (now, self) => (self.services.length < 3 ? now + 1000 : Infinity));
  loop.add(planned);
  await until(() => planned.services.length === 3, 10_000);
  assert.equal(loop.wokenTurns, 3);
  assert.equal(loop.plannedLateness.reduce((a, b) => a + b, 0), 2, 'its two planned turns');
  loop.stop();
});

test('lateness percentiles are the upper edge of the bucket the rank falls in', () => {
  const counts = new Uint32Array(400);
  assert.equal(latenessPercentileUs(counts, 50), 0, 'no turn: 0');
  counts[0] = 98; // 0-25 µs
  counts[4] = 1; // 100-125 µs
  counts[399] = 1; // ≥ 9975 µs
  assert.equal(latenessPercentileUs(counts, 50), 25);
  assert.equal(latenessPercentileUs(counts, 99), 125);
  assert.equal(latenessPercentileUs(counts, 100), 10_000);
});
