// Stall attribution on its own, in virtual time: what a pause between sends is charged to (issue 17).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { STALL_MIN_US, StallReasons } from '../src/datagram/stall-reasons.ts';

test('a gap with turns held by the window is charged to the window, not to scheduling', () => {
  const s = new StallReasons();
  s.turnStarted(0);
  s.sent(0);
  s.turnEnded('cwnd', 1000, false);
  for (let t = 1000; t < 8000; t += 1000) {
    s.turnStarted(t);
    s.turnEnded('cwnd', t + 1000, true);
  }
  s.turnStarted(8000);
  s.sent(8000);
  const f = s.fields();
  assert.equal(f.stall_cwnd, 1);
  assert.equal(f.stall_cwnd_ms, 8);
  assert.equal(f.empty_turns_cwnd, 7);
  assert.equal(f.stall_event_loop_busy! + f.stall_descheduled!, 0);
});

test('a turn that began long after it was due charges the gap to the process: descheduled when it used no CPU', () => {
  const s = new StallReasons(() => 0);
  s.turnStarted(0);
  s.sent(0);
  s.turnEnded('tokens', 200, false); // wanted to run 0.2 ms later…
  s.turnStarted(12_000); // …ran 11.8 ms late
  s.sent(12_000);
  const f = s.fields();
  assert.equal(f.stall_descheduled, 1);
  assert.equal(f.stall_event_loop_busy, 0);
  assert.equal(f.stall_tokens, 0);
  assert.equal(f.stall_max_ms, 12);
});

test('a sender pacing slowly on its own schedule is charged to tokens; short gaps are no stall', () => {
  const s = new StallReasons();
  s.turnStarted(0);
  s.sent(0);
  s.turnEnded('tokens', 18_000, false);
  s.turnStarted(18_000);
  s.sent(18_000);
  s.turnEnded('tokens', 18_000 + STALL_MIN_US - 1, false);
  s.turnStarted(18_000 + STALL_MIN_US - 1);
  s.sent(18_000 + STALL_MIN_US - 1);
  const f = s.fields();
  assert.equal(f.stall_tokens, 1);
  assert.equal(f.stall_event_loop_busy! + f.stall_descheduled!, 0);
});

test('an ACK that asks for a turn makes a late turn count against the process (busy or descheduled)', () => {
  const s = new StallReasons();
  s.turnStarted(0);
  s.sent(0);
  s.turnEnded('cwnd', 100_000, false); // waits for an ACK
  s.woken(2000); // the ACK came at 2 ms; the turn ran at 20 ms
  s.turnStarted(20_000);
  s.sent(20_000);
  assert.equal(s.fields().stall_event_loop_busy! + s.fields().stall_descheduled!, 1);
});

test('a late gap the process spent in CPU is a busy event loop, one it spent off the CPU is descheduling', () => {
  let cpuUs = 0;
  const s = new StallReasons(() => cpuUs);
  s.turnStarted(0);
  s.sent(0);
  s.turnEnded('tokens', 100, false); // the sending turn ends: CPU read (0)
  cpuUs = 9_000; // 9 of the next 10 ms in JavaScript (another session's work, GC)
  s.turnStarted(10_000);
  s.sent(10_000);
  s.turnEnded('tokens', 10_100, false); // CPU read (9 ms)
  cpuUs += 1_000; // 1 of the next 20 ms: the process waited for a core
  s.turnStarted(30_000);
  s.sent(30_000);
  const f = s.fields();
  assert.equal(f.stall_event_loop_busy, 1);
  assert.equal(f.stall_event_loop_busy_ms, 10);
  assert.equal(f.stall_descheduled, 1);
  assert.equal(f.stall_descheduled_ms, 20);
  assert.ok(f.event_loop_delay_max_ms !== undefined, 'the loop delay histogram is reported beside');
});
