// Recordings of real sessions that found a problem (test/recordings/, the controller-wasm README's "Recording and
// replaying a session"). Each replays through the native library with the analysis the problem was found with; the
// inputs only (their `expect` lines are the decisions of the controller they were recorded with, which later
// controller changes may move on purpose).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyse, inputsOnly, replayMisOfText, replayStatesOfText, senderStalls, summarize, withParam } from '../../scripts/replay.ts';
import { assertBuildsFresh, LIBRARY_SOURCES } from './support/build-freshness.ts';

const DIR = fileURLToPath(new URL('../../test/recordings/', import.meta.url));
const MAX_BYTES = 500_000;

test('every kept recording is small, complete up to its cut, and replays through the native library', () => {
  assertBuildsFresh(['build/pcc-replay'], LIBRARY_SOURCES);
  const files = readdirSync(DIR).filter((f) => f.endsWith('.replay'));
  assert.ok(files.length > 0);
  for (const file of files) {
    const path = join(DIR, file);
    assert.ok(statSync(path).size < MAX_BYTES, `${file}: ${statSync(path).size} bytes`);
    const text = readFileSync(path, 'utf8');
    assert.match(text, /^# pcc-replay script recorded by the origin/, file);
    const mis = replayMisOfText(inputsOnly(text));
    assert.ok(mis.length >= 20, `${file}: ${mis.length} MIs`);
  }
});

// Found 2026-11-25 (issue 17 item 2), origin + Node client through linkem, 100 Mbit/s, 30 ms, 75 KB: the origin's
// sender paused 5-18 ms (and ≥ 4 packet spacings) with data waiting, 17 times in 1.7 s, and the PCC monitor
// interval left any pause longer than 4 packet spacings out of its duration as if the sender were idle. So the
// controller measured its send rate (and throughput, over the same duration) 19% above its target where the link
// saw 5% above: MIs "achieved" 99-109 Mbit/s on a 100 Mbit/s link. Fixed in monitor_interval.c: a pause is idle
// only after the sender said it ran out of data (cc_on_app_state), so replayed on the same inputs the MIs now
// measure what the wire carried (thesis §4.4: an MI's rate is what was sent over it).
test('sender stalls with data waiting stay in the MI duration: measured send rate matches the wire (vivace, 100 Mbit/s)', () => {
  const text = readFileSync(join(DIR, 'vivace-100mbps-30ms-75kb-sender-stalls.replay'), 'utf8');
  const stalls = senderStalls(text);
  assert.ok(stalls.length >= 10, `${stalls.length} stalls`);
  const rows = analyse(text, replayMisOfText(inputsOnly(text)));
  // Replayed open loop, the MIs' targets are the replayed controller's, not those the recorded sends were paced at,
  // so the check is each MI's own: its measured send rate over the rate its recorded sends had on the wire.
  const sentOverWire = rows.map((r) => r.sent_mbps / r.wire_mbps).filter(Number.isFinite).sort((a, b) => a - b);
  const median = sentOverWire[Math.floor(sentOverWire.length / 2)]!;
  assert.ok(median > 0.9 && median < 1.03, `median MI send rate / wire rate ${median}`);
  const summary = summarize(rows, stalls);
  assert.ok(summary.median_send_span_over_duration < 1.02, `send span / MI duration ${summary.median_send_span_over_duration}`);
});

// Found 2026-11-26 (issue 17's startup target: 90% of 100 Mbit/s within 2 s; the real path took 3-19 s), origin +
// Node client through linkem, 100 Mbit/s, 30 ms, 75 KB, the session's first 1.6 s. Slow start ended at 8-27 Mbit/s
// in 7 of 13 recorded sessions on a utility drop while the path lost nothing and delivered what was sent, and
// probing then climbed for seconds. Two measurement errors, both replayed here:
// - a sender stall: the origin's sender was descheduled for 25.6 ms with data waiting, so one MI sent 3.0 of its
//   16.3 Mbit/s and its x^0.9 fell below the best MI's;
// - forward-path jitter: an RTT gradient of 0.01-0.05 in an MI that delivered what it sent costs 900·x·g in eq. 4.1
//   (the simulator with the same jitter, --jitter-sd-us 200, ended slow start at 9-27 Mbit/s in 5 of 6 seeds).
// Fixed in vivace_slow_start.c: such a drop decides nothing when the MI lost nothing, its RTT gradient stayed below
// 0.1, and the sender fell more than ε short of the MI's rate or (first slow start) the MI delivered what it sent:
// §4.4.4's slow start ignores small measurement errors (th_latency).
function slowStartCase(file: string): { mis: ReturnType<typeof replayMisOfText>; statesUntil: (mis: number) => string[] } {
  const text = inputsOnly(readFileSync(join(DIR, file), 'utf8'));
  const steps = replayStatesOfText(text);
  const statesUntil = (mis: number): string[] => {
    assert.ok(steps.at(-1)!.miCompleted >= mis, `the replay finished ${steps.at(-1)!.miCompleted} MIs, not ${mis}`);
    return [...new Set(steps.filter((s) => s.miCompleted <= mis).map((s) => s.state))];
  };
  return { mis: replayMisOfText(text), statesUntil };
}

test('slow start goes on through an MI a stalled sender could not fill (vivace, 100 Mbit/s, replayed)', () => {
  const file = 'vivace-100mbps-30ms-75kb-slow-start-stall.replay';
  assert.ok(senderStalls(readFileSync(join(DIR, file), 'utf8')).some((us) => us >= 20_000), 'the recording holds a stall of 20 ms or more');
  const { mis, statesUntil } = slowStartCase(file);
  const stalled = mis.find((m) => m.packetsLost === 0 && m.sendRateBps < m.targetRateBps / 3);
  assert.ok(stalled !== undefined, 'an MI sent under a third of its target');
  // its result and the next four: the doubling went on (MIs finish in order; a result lags its MI by about an RTT)
  assert.deepEqual(statesUntil(stalled.id + 5), ['slow_start']);
});

test('slow start goes on through RTT-gradient jitter in an MI that delivered what it sent (vivace, 100 Mbit/s, replayed)', () => {
  const { mis, statesUntil } = slowStartCase('vivace-100mbps-30ms-75kb-slow-start-jitter.replay');
  const jittered = mis.find((m) => m.packetsLost === 0 && m.rttGradient > 0.03 && m.rttGradient < 0.1 &&
    m.sendRateBps > 0.95 * m.targetRateBps && m.throughputBps > 0.95 * m.sendRateBps);
  assert.ok(jittered !== undefined, 'an MI that delivered what it sent met an RTT gradient of 0.03-0.1');
  // its result and the next: this recording's stall (two MIs later) is the other test's
  assert.deepEqual(statesUntil(jittered.id + 2), ['slow_start']);
});

// Found 2026-11-26 (CI at 8ecd324, the faults suite's 24 s blackout: rate_recovery_s null in 2 of 3 runs), origin +
// Chromium through linkem, 10 Mbit/s, 20 ms, 150 KB, a 3 s blackout of both directions; each recording holds the
// session up to a second or two after the recovery. MI timeouts halved the rate to 0.5 Mbit/s; when feedback returned,
// the recovery's slow start (vivace_timeout.c) doubled back toward its target, half the rate before the blackout.
// Replayed: the MIs, the state after every input, and the step at which the recovery's slow start began. The first
// three were recorded before the first MI after a blackout ended at the length the sRTT gives now (forward_silence_mi,
// the stale-MI test below): replayed open loop with that rule, the MIs after the blackout cut the recorded sends (paced
// at the long MI's rate) into other slices, and the slow-start cases each test is about are no longer in their
// inputs. So they replay with the rule off, as recorded (recordedWithForwardSilenceMi 0).
function blackoutReplay(file: string, recordedWithForwardSilenceMi = 0, params: Record<string, number> = {}) {
  const text = Object.entries(params).reduce((t, [name, value]) => withParam(t, name, value),
    withParam(inputsOnly(readFileSync(join(DIR, file), 'utf8')), 'forward_silence_mi', recordedWithForwardSilenceMi));
  const mis = replayMisOfText(text);
  const steps = replayStatesOfText(text);
  const timedOut = mis.filter((m) => m.timedOut);
  assert.ok(timedOut.length > 0, 'the blackout timed MIs out');
  const recovery = steps.findIndex((s) => s.miCompleted > timedOut.at(-1)!.id && s.state === 'slow_start');
  assert.ok(recovery >= 0, 'slow start again after the blackout');
  return { mis, steps, timedOut, recovery };
}

/** The first MI after the blackout that lost nothing, sent and delivered its rate within 5 % and had its utility
 * turned negative by an RTT gradient between minGradient and 0.1 (900·x·g in eq. 4.1). */
function jitteredMi(mis: ReturnType<typeof replayMisOfText>, afterId: number, minGradient: number) {
  return mis.find((m) => m.id > afterId && m.packetsLost === 0 && m.rttGradient > minGradient && m.rttGradient < 0.1 &&
    m.utility < 0 && m.sendRateBps > 0.95 * m.targetRateBps && m.throughputBps > 0.95 * m.sendRateBps);
}

// Where that recovery's slow start ended, and the rates of the MIs after it.
function blackoutRecovery(file: string) {
  const { mis, steps, timedOut, recovery } = blackoutReplay(file);
  const exitStep = steps.findIndex((s, i) => i > recovery && s.state !== 'slow_start');
  assert.ok(exitStep >= 0, 'the recovery ended');
  const exit = mis.find((m) => m.id === steps[exitStep]!.miCompleted - 1)!;
  /** The rates of the exit's result and the next four MIs' (a drain, then probes at r(1 ± ε)), bit/s. */
  const ratesAfter = steps.slice(exitStep).filter((s) => s.miCompleted <= exit.id + 5).map((s) => s.miRateBps);
  const shown = (rates: number[]) => [...new Set(rates.map((r) => (r / 1e6).toFixed(2)))].join(', ');
  return { mis, timedOut, firstTimedOut: timedOut[0]!, exit, ratesAfter, shown };
}

// The slow start ended at 4.2 Mbit/s of its 4.4 on an MI that lost nothing and delivered what it sent, with an RTT
// gradient of 0.037 (utility -140). A recovery did not forgive such a gradient (it may be the first queue), and it
// fell back to the best MI's rate, 1.95 Mbit/s: the 4.2 Mbit/s MI before, which would have been the best, belonged to
// the epoch an app-limited MI closed. Probing at 2 Mbit/s, where 10-packet MIs' RTT noise outweighs ε, then stayed
// there for 2 s. Fixed in vivace_slow_start.c: such an exit falls back to what the MI delivered (exit_delivered), and
// here, a doubling below the 8.8 Mbit/s before the blackout, the gradient is forgiven (near_carried_rate).
test('a recovery\'s slow start does not fall back below what an MI with RTT-gradient jitter delivered (vivace, blackout, replayed)', () => {
  const { mis, timedOut, exit, ratesAfter, shown } = blackoutRecovery('vivace-10mbps-20ms-150kb-blackout-recovery.replay');
  const jittered = jitteredMi(mis, timedOut.at(-1)!.id, 0.01);
  assert.ok(jittered !== undefined && jittered.id <= exit.id, 'an MI of the recovery lost nothing, delivered what it sent and met a jitter-level gradient');
  assert.ok(Math.max(...ratesAfter) >= 0.9 * jittered.throughputBps,
    `MI ${jittered.id} delivered ${(jittered.throughputBps / 1e6).toFixed(2)} Mbit/s; the recovery ended after MI ${exit.id}, then ${shown(ratesAfter)} Mbit/s`);
});

// The slow start reached its target, 4.6 Mbit/s, with the utility rising at every doubling and no queue, and
// probing took over at half the link: the player's short segment requests ended an MI early every few MIs, each
// such MI re-ran the probe round, and the rate stayed at 4.4-4.8 Mbit/s for 2 s with the sender's data waiting.
// Fixed in vivace_recovery.c (vivace_extend_recovery): the doubling goes on up to the rate the fade (the MI
// timeouts) began from, as a fade recovery's does.
test('a recovery\'s slow start that reaches its target cleanly goes on to the rate before the blackout (vivace, blackout, replayed)', () => {
  const { firstTimedOut, exit, ratesAfter, shown } = blackoutRecovery('vivace-10mbps-20ms-150kb-blackout-half-target.replay');
  assert.ok(Math.max(...ratesAfter) >= 0.8 * firstTimedOut.targetRateBps,
    `before the blackout ${(firstTimedOut.targetRateBps / 1e6).toFixed(2)} Mbit/s; the recovery ended after MI ${exit.id}, then ${shown(ratesAfter)} Mbit/s`);
});

// The slow start after the blackout ended at 2.96 Mbit/s, a doubling below its 5.4 Mbit/s target and under a third of
// the 10.8 Mbit/s before the blackout, on a 12-packet MI that lost nothing and delivered what it sent with an RTT
// gradient of 0.092 (utility -234): RTT noise over a dozen samples. It fell back to 2.9 Mbit/s, and probing was at
// 4.6 Mbit/s when the run ended 10 s later. Fixed in vivace_slow_start.c (near_carried_rate): a recovery forgives
// such a gradient while the MI's rate is a doubling or more below the rate the path carried before the fade.
test('a recovery\'s slow start goes on through RTT-gradient jitter a doubling below the rate before the blackout (vivace, replayed)', () => {
  const { mis, steps, timedOut, recovery } = blackoutReplay('vivace-10mbps-20ms-150kb-blackout-jitter.replay');
  const jittered = jitteredMi(mis, timedOut.at(-1)!.id, 0.03);
  assert.ok(jittered !== undefined && 2 * jittered.targetRateBps <= timedOut[0]!.targetRateBps,
    `a recovery MI a doubling below the rate before the blackout delivered what it sent with a gradient of 0.03-0.1: ${JSON.stringify(jittered)}`);
  assert.ok(steps.at(-1)!.miCompleted >= jittered.id + 2, 'the recording goes on past the next result');
  // its result and the next: the doubling went on
  const states = new Set(steps.slice(recovery).filter((s) => s.miCompleted <= jittered.id + 2).map((s) => s.state));
  assert.deepEqual([...states], ['slow_start']);
});

// Found 2026-11-26 (the faults suite's blackout short form at 59f2af6: rate_recovery_s 3.99, 11.03, 3.70 s in 3 runs),
// origin + Chromium through linkem, 10 Mbit/s, 20 ms, 150 KB, both directions dark for 3 s; the session's first 12 s.
// The sender was idle through the blackout, and the packets it had sent waited in the link's queue: their acks came
// back after it with the blackout as their RTT (1.1 s on average), and the sRTT they left sized the next MI, which
// held 4.6 Mbit/s for 2.45 s with no decision while the RTT samples were back at 41-47 ms (in another run, 1.9 s).
// The return-path rule of recording-ack-silence.test.ts did not apply: those packets met a forward queue. Fixed in
// vivace_timeout.c (held_through_forward_silence): a packet the forward link held while the receiver got nothing for
// longer than the MI timeout marks the sRTT as holding a silence, and the open MI ends at the length the sRTT gives
// now (thesis §4.4: an MI spans about an RTT).
test('after a blackout of both directions the next MI does not last the held packets\' delay (vivace, replayed)', () => {
  const text = inputsOnly(readFileSync(join(DIR, 'vivace-10mbps-20ms-150kb-blackout-stale-mi.replay'), 'utf8'));
  const longestAfter = (mis: ReturnType<typeof replayMisOfText>) => {
    const timedOut = mis.filter((m) => m.timedOut);
    assert.ok(timedOut.length > 0, 'the blackout timed MIs out');
    // the MI sent into the blackout: its packets waited in the queue, their RTT samples average the better part of it
    const held = mis.find((m) => m.id > timedOut.at(-1)!.id && m.avgRttUs > 10 * m.minRttUs);
    assert.ok(held !== undefined, 'an MI whose packets the blackout held');
    const after = mis.filter((m) => m.startUs >= held.endUs);
    assert.ok(after.length >= 20, `${after.length} MIs after the blackout`);
    return { held, longest: after.reduce((a, b) => (b.durationUs > a.durationUs ? b : a)) };
  };
  const shown = ({ held, longest }: ReturnType<typeof longestAfter>) =>
    `MI ${longest.id} after the blackout lasted ${(longest.durationUs / 1e6).toFixed(2)} s at ` +
    `${(longest.targetRateBps / 1e6).toFixed(2)} Mbit/s; the held packets' RTT was ${(held.avgRttUs / 1e6).toFixed(2)} s`;
  const fixed = longestAfter(replayMisOfText(text));
  assert.ok(fixed.longest.durationUs < fixed.held.avgRttUs / 2, shown(fixed));
  // the recording holds the case: without the rule, that MI lasts longer than the held packets' RTT (and without the
  // one-halving recovery, the test below, which since restarts the MIs after the blackout's only halving)
  const recorded = longestAfter(replayMisOfText(withParam(withParam(text, 'forward_silence_mi', 0), 'one_halving_recovery', 0)));
  assert.ok(recorded.longest.durationUs > recorded.held.avgRttUs, shown(recorded));
});

// Found 2026-11-26 (the blackout short form at 559a7b9, after the stale-MI fix: rate_recovery_s null in 1 of 3 runs),
// origin + Chromium through linkem, as above; the session's first 13 s. The timeout recovery ended at 4.0 Mbit/s on a
// 0.2 RTT gradient and fell back to 2.5; probing stayed at 2.5-2.9 Mbit/s (an app-limited MI every few re-ran the
// round) until two clean increases started a fade recovery up to the 8.5 Mbit/s before the blackout. Its first MI was
// one the player's short request left unfilled, and that result ended the recovery at 2.65 Mbit/s: the rate stayed
// under 3.4 Mbit/s until the run ended. Fixed in vivace.c: such an MI, which says nothing about the path's capacity,
// neither ends a fade recovery nor lets its doubling go on (§4.4; it holds the rate last sent). The timeout recovery's
// exit (its 17-packet MI at 4.04 Mbit/s read 0.198 with no loss and delivered all it sent, while its one-way delay
// rose 0.077) is the case of the contradicted-gradient tests below, which slow_start_forward_gradient forgives: this
// test replays the recorded path with it off, so that the fade recovery it is about comes.
test('an MI the sender could not fill does not end a fade recovery after a blackout (vivace, replayed)', () => {
  const { mis, steps, timedOut, recovery } = blackoutReplay('vivace-10mbps-20ms-150kb-blackout-app-limited.replay', 1,
    { slow_start_forward_gradient: 0 });
  // the fade recovery: the next time the state turns to slow start after the timeout recovery ended
  const probing = steps.findIndex((s, i) => i > recovery && s.state !== 'slow_start');
  const fade = steps.findIndex((s, i) => i > probing && probing >= 0 && s.state === 'slow_start');
  assert.ok(fade >= 0, 'a fade recovery after the timeout recovery');
  const unfilled = mis.find((m) => m.id >= steps[fade]!.miCompleted && m.appLimited);
  assert.ok(unfilled !== undefined && steps.at(-1)!.miCompleted > unfilled.id + 2, 'an MI of the fade recovery the sender could not fill, and results after it');
  const beforeBlackoutBps = timedOut[0]!.targetRateBps;
  const exit = steps.findIndex((s, i) => i > fade && s.state !== 'slow_start');
  const during = steps.slice(fade, exit >= 0 ? exit : steps.length);
  assert.ok(during.at(-1)!.miCompleted > unfilled.id, `the recovery ended at MI ${during.at(-1)!.miCompleted}, with MI ${unfilled.id}'s result`);
  const highest = Math.max(...during.map((s) => s.miRateBps));
  assert.ok(highest >= 0.8 * beforeBlackoutBps,
    `the recovery's rates reached ${(highest / 1e6).toFixed(2)} Mbit/s; before the blackout ${(beforeBlackoutBps / 1e6).toFixed(2)}`);
});

// Found 2026-11-26 (the blackout short form at 74d8e5b, hold h3, run 5: rate_recovery_s 4.31 s), origin + Chromium
// through linkem, as above; the session's first 9.4 s. The first MI after the blackout was one the player's request
// left unfilled, and the app-limited ceiling (validated_rate.h: 1.25 x the highest delivery rate of the last 10
// sRTTs) cut the rate 4.75 -> 0.57 Mbit/s: its only delivery samples were the held packets' and those of packets sent
// before anything sent after the blackout was acked, whose intervals span the 3 s of silence. Fixed in validated_rate.c:
// a sample whose interval spans a silence of the path (an ack gap longer than a PTO with data out) is not taken.
test('after a blackout of both directions the app-limited ceiling does not count the silence (vivace, replayed)', () => {
  const mis = replayMisOfText(inputsOnly(readFileSync(join(DIR, 'vivace-10mbps-20ms-150kb-blackout-app-limited-ceiling.replay'), 'utf8')));
  const timedOut = mis.filter((m) => m.timedOut);
  assert.ok(timedOut.length > 0, 'the blackout timed MIs out');
  const unfilled = mis.find((m) => m.id > timedOut.at(-1)!.id && m.appLimited && m.packetsAcked > 0);
  assert.ok(unfilled !== undefined, 'an MI after the blackout the sender could not fill');
  // the MIs opened within half a second of its end: the ceiling its result set, and what followed
  const next = mis.filter((m) => m.startUs > unfilled.startUs && m.startUs < unfilled.endUs + 500_000);
  assert.ok(next.length >= 2, `${next.length} MIs after MI ${unfilled.id}`);
  const lowest = Math.min(...next.map((m) => m.targetRateBps));
  assert.ok(lowest >= 0.5 * unfilled.targetRateBps,
    `after MI ${unfilled.id} (${(unfilled.targetRateBps / 1e6).toFixed(2)} Mbit/s, unfilled) the rate fell to ${(lowest / 1e6).toFixed(2)} Mbit/s`);
});

// Found 2026-11-27 (fresh-clone CI at 6a800f0, the faults short form: rate_recovery_s null, the rate at 5.1-5.9
// Mbit/s from the blackout to the run's end; the same mode in 3 of 11 recorded runs, bench/published/2026-11-25/
// blackout-recovery-3), origin + Chromium through linkem, 10 Mbit/s, 20 ms, 150 KB, a 3 s blackout of both
// directions; this session (run 1 of hold h1, 6a800f0) up to 5 s after the blackout. The player's request did not get
// through the blackout, so the sender's MI stayed open through it and the MI timeout halved the rate once, 11.1 ->
// 5.55 Mbit/s: the timeout recovery, which climbs back to what the first halving left, had nothing to climb. Probing
// then held 5.3-5.8 Mbit/s for 11 s: its rounds need four filled MIs in a row, and the player's short requests after
// the blackout left every second to third MI unfilled, each re-running the round. Fixed in vivace_timeout.c
// (one_halving_recovery): the first MI to complete starts a recovery at the halved rate, whose clean MI goes on to the
// rate before the halving (vivace_extend_recovery, §4.4's doubling).
test('after a blackout that halved the rate once, the rate goes back up to the rate before it (vivace, replayed)', () => {
  const text = inputsOnly(readFileSync(join(DIR, 'vivace-10mbps-20ms-150kb-blackout-one-halving.replay'), 'utf8'));
  const highestAfter = (mis: ReturnType<typeof replayMisOfText>) => {
    const timedOut = mis.filter((m) => m.timedOut);
    assert.ok(timedOut.length > 0, 'the blackout timed MIs out');
    const beforeBps = timedOut[0]!.targetRateBps;
    // the MI sent into the blackout, completed after it: its packets waited in the queue or were lost
    const held = mis.find((m) => m.id > timedOut.at(-1)!.id && m.durationUs > 1e6);
    assert.ok(held !== undefined, 'an MI open through the blackout');
    assert.ok(held.targetRateBps < 0.55 * beforeBps, `one halving: ${held.targetRateBps} after ${beforeBps} bit/s`);
    const after = mis.filter((m) => m.startUs >= held.endUs && m.startUs < held.endUs + 3e6);
    assert.ok(after.length >= 20, `${after.length} MIs in the 3 s after the blackout`);
    return { beforeBps, highestBps: Math.max(...after.map((m) => m.targetRateBps)) };
  };
  const shown = ({ beforeBps, highestBps }: ReturnType<typeof highestAfter>) =>
    `the 3 s after the blackout reached ${(highestBps / 1e6).toFixed(2)} Mbit/s; before it ${(beforeBps / 1e6).toFixed(2)}`;
  const fixed = highestAfter(replayMisOfText(text));
  assert.ok(fixed.highestBps >= 0.9 * fixed.beforeBps, shown(fixed));
  // the recording holds the case: without the rule, the rate stays within a probe step of the halved rate
  const recorded = highestAfter(replayMisOfText(withParam(text, 'one_halving_recovery', 0)));
  assert.ok(recorded.highestBps < 0.6 * recorded.beforeBps, shown(recorded));
});

// Found 2026-11-27 (bench/published/2026-11-25/blackout-recovery-3, hold h2, run "on 4": c3ea966's controller,
// rate_recovery_s 1.13), origin + Chromium through linkem, as above; the session's first 13 s. One MI-timeout halving
// (8.70 -> 4.35 Mbit/s), and every packet of the MI open through the blackout was lost. The one-halving recovery
// started at 4.35 Mbit/s on that MI's result (the acks had stopped for 3.0 s: episode_ack_silence), but its MI at the
// target (36 packets, no loss, RTTs of 42-46 ms, mean 1.06 x the minimum) read a significant RTT gradient of 0.021:
// the recovery ended there and probing went on at half the link. In that run the fade recovery got to 8.7 Mbit/s
// 0.8 s later; when the player's short requests leave MIs unfilled it does not come (the CI's miss in
// blackout-recovery-3). Fixed in vivace_recovery.c (retest_after_silence): after a silence of the acks, such an MI,
// which delivered what it sent, leaves the decision to the next MI at the target, once.
test('after a blackout, the recovery MI at its target that read a small RTT gradient is tested once more (vivace, replayed)', () => {
  const { mis, steps, timedOut, recovery } = blackoutReplay('vivace-10mbps-20ms-150kb-blackout-retest.replay', 1);
  const beforeBps = timedOut[0]!.targetRateBps;
  const held = mis.find((m) => m.id > timedOut.at(-1)!.id && m.durationUs > 1e6);
  assert.ok(held !== undefined && held.packetsSent > 0 && held.packetsLost === held.packetsSent,
    'an MI open through the blackout, all of its packets lost');
  const exit = steps.findIndex((s, i) => i > recovery && s.state !== 'slow_start');
  const during = steps.slice(recovery, exit >= 0 ? exit : steps.length);
  const rates = [...new Set(during.map((s) => s.miRateBps))];
  assert.ok(Math.min(...rates) < 0.55 * beforeBps, `one halving: the recovery's rates ${rates.map((r) => (r / 1e6).toFixed(2))}`);
  const highest = Math.max(...rates);
  assert.ok(highest >= 0.9 * beforeBps,
    `the recovery's rates reached ${(highest / 1e6).toFixed(2)} Mbit/s; before the blackout ${(beforeBps / 1e6).toFixed(2)}`);
});

// Found 2026-11-27 (bench/published/2026-11-25/blackout-recovery-4, hold h2, run 51: d6baebf's controller, the faults
// short form's miss), origin + Chromium through linkem, as above, beside a busy loop; the session's first 13 s. One
// MI-timeout halving (10.72 -> 5.36 Mbit/s); the one-halving recovery's MI at its target read clean (21 packets,
// gradient 0.010) and raised the target to 10.72. But the MI after it, opened at 5.36 before that result came back,
// read 0.075 (no loss, mean RTT 43.9 ms against a 41.2 ms minimum, utility -365 against 3.23), and that drop ended
// the recovery before any MI at 10.72 was tested; probing held 5.1-5.6 Mbit/s to the run's end. Fixed in
// vivace_slow_start.c (repeats_cleared_rate): an MI at a rate a clean MI of the recovery already passed tests no
// higher rate (§4.4's exit compares a higher rate's utility with the best's), so only loss, a steep gradient, a
// standing queue or a delivery below what its gradient explains (x/(1+g), within ε) end the recovery there.
test('after a blackout, an MI repeating the rate whose clean MI raised the recovery\'s target does not end it (vivace, replayed)', () => {
  const { mis, steps, timedOut, recovery } = blackoutReplay('vivace-10mbps-20ms-150kb-blackout-repeat-mi.replay', 1);
  const beforeBps = timedOut[0]!.targetRateBps;
  const inRecovery = mis.filter((m) => m.id >= steps[recovery]!.miCompleted && !m.appLimited);
  // the case: two MIs in a row at the halved rate, the first clean, the second's utility turned negative by a gradient
  const repeat = inRecovery.findIndex((m, i) => i > 0 && m.targetRateBps < 0.55 * beforeBps &&
    m.targetRateBps === inRecovery[i - 1]!.targetRateBps && inRecovery[i - 1]!.rttGradient < 0.02 &&
    m.packetsLost === 0 && m.rttGradient > 0.05 && m.rttGradient < 0.1 && m.utility < 0);
  assert.ok(repeat > 0, 'a clean MI at the halved target, then one at the same rate with a jitter-level gradient');
  const exit = steps.findIndex((s, i) => i > recovery && s.state !== 'slow_start');
  // the recovery ends on the result of an MI at the rate before the blackout, not on the repeat's
  const ended = exit >= 0 ? mis.find((m) => m.id === steps[exit]!.miCompleted - 1) : undefined;
  assert.ok(ended === undefined || ended.targetRateBps >= 0.9 * beforeBps,
    `the recovery ended on MI ${ended?.id} at ${((ended?.targetRateBps ?? 0) / 1e6).toFixed(2)} Mbit/s; before the blackout ${(beforeBps / 1e6).toFixed(2)}`);
});

/** An MI that lost nothing and read a steep RTT gradient (≥ 0.1, utility below 0) while it delivered what it sent
 * within `delivered`, far more than the x/(1+g) a bottleneck queue growing at g delivers (eq. 4.4). */
function returnPathGradientMi(mis: ReturnType<typeof replayMisOfText>, afterId: number, delivered: number) {
  return mis.find((m) => m.id > afterId && m.packetsLost === 0 && m.rttGradient >= 0.1 && m.utility < 0 &&
    m.throughputBps >= delivered * m.sendRateBps && m.sendRateBps / (1 + m.rttGradient) < 0.9 * m.throughputBps);
}

// Found 2026-11-27 (bench/published/2026-11-25/slow-start-exit, hold h2, run 59: 81cbda8's controller, the faults short
// form's miss beside a busy loop, load 5.4-5.9), origin + Chromium through linkem, 10 Mbit/s, 20 ms, 150 KB; the
// session's first 8 s, before the blackout. The first slow start ended at its third MI, 1.82 Mbit/s: 10 packets, no
// loss, an RTT gradient of 0.168 (utility -257), while the MI delivered all it sent (a queue growing at 0.168 delivers
// 0.86 of it) and its one-way delay on the receiver's clock fell (-0.022): the rise was on the way back. Probing
// climbed to only 3.26 Mbit/s by the blackout, and the recovery went back to about that. Fixed in monitor_interval.c
// (the MI's one-way-delay gradient) and vivace_slow_start.c (slow_start_forward_gradient): a steep RTT gradient that
// the forward path did not show is a measurement error (§4.4.4), not the bottleneck's queue.
test('slow start goes on through a steep RTT gradient its one-way delay did not show (vivace, 10 Mbit/s, replayed)', () => {
  const file = 'vivace-10mbps-20ms-150kb-startup-return-path-gradient.replay';
  const { mis, statesUntil } = slowStartCase(file);
  const steep = returnPathGradientMi(mis, -1, 0.95);
  assert.ok(steep !== undefined && steep.targetRateBps < 5e6, 'an MI below half the link delivered what it sent with a steep gradient');
  // its result and the next: the doubling went on
  assert.deepEqual(statesUntil(steep.id + 2), ['slow_start']);
  // the recording holds the case: without the rule, that result ends slow start
  const off = replayStatesOfText(withParam(inputsOnly(readFileSync(join(DIR, file), 'utf8')), 'slow_start_forward_gradient', 0));
  assert.ok(off.some((s) => s.miCompleted <= steep.id + 2 && s.state !== 'slow_start'), 'slow start ended on it with the rule off');
});

// Found 2026-11-27 (the same hold, run 57, load 4.4-6.3), as above; the session's first 14 s. 20 MIs timed out through
// the blackout (8.79 -> 1.21 Mbit/s); the recovery doubled 1.10, 1.16, 2.31, then its 16-packet MI at 3.42 Mbit/s read
// 0.564 with no loss (mean RTT 53.2 ms against 41.2: one ack 31 ms late on the way back, the one-way delay's gradient
// 0.009) and delivered 0.94 of what it sent (a queue at 0.564 delivers 0.64), and that ended the recovery; probing held
// 2.2-2.6 Mbit/s to the run's end. The next MI, at 4.63 Mbit/s, read -0.106. Fixed as above: more than a doubling below
// the rate before the blackout, such a gradient does not end the recovery.
test('after a blackout, a steep RTT gradient its one-way delay did not show does not end the recovery (vivace, replayed)', () => {
  const file = 'vivace-10mbps-20ms-150kb-blackout-return-path-gradient.replay';
  const { mis, steps, timedOut, recovery } = blackoutReplay(file, 1);
  const beforeBps = timedOut[0]!.targetRateBps;
  const steep = returnPathGradientMi(mis, timedOut.at(-1)!.id, 0.9);
  assert.ok(steep !== undefined && 2 * steep.targetRateBps < beforeBps,
    `a recovery MI more than a doubling below the rate before the blackout delivered what it sent with a steep gradient: ${JSON.stringify(steep)}`);
  assert.ok(steps.at(-1)!.miCompleted >= steep.id + 2, 'the recording goes on past the next result');
  const inRecovery = (states: typeof steps, from: number) =>
    new Set(states.slice(from).filter((s) => s.miCompleted <= steep.id + 2).map((s) => s.state));
  assert.deepEqual([...inRecovery(steps, recovery)], ['slow_start']);
  // the recording holds the case: without the rule, that result ends the recovery
  const off = blackoutReplay(file, 1, { slow_start_forward_gradient: 0 });
  assert.ok(inRecovery(off.steps, off.recovery).size > 1, 'the recovery ended on it with the rule off');
});
