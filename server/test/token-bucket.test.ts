// The pacing token bucket on its own, in virtual time (it is pure: time and rate are parameters).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  BURST_DURATION_US, DEBT_REPAY_FRACTION, MAX_DEBT_DURATION_US, MIN_BURST_PACKETS, TokenBucket, WAKE_BEFORE_FULL_FRACTION, burstBytes,
} from '../src/datagram/token-bucket.ts';

const PACKET_BYTES = 1200;

test('the burst is max(2 packets, 1 ms of the rate)', () => {
  assert.equal(burstBytes(125_000, PACKET_BYTES), MIN_BURST_PACKETS * PACKET_BYTES, '1 Mbit/s: two packets');
  assert.equal(burstBytes(125_000_000, PACKET_BYTES), (125_000_000 * BURST_DURATION_US) / 1e6, '1 Gbit/s: 1 ms of the rate');
  assert.equal(burstBytes(2_400_000, PACKET_BYTES), 2400, 'where the two meet');
});

test('refills at the rate, never beyond the burst cap', () => {
  const rate = 1_000_000; // B/s: 1 B per µs
  const cap = burstBytes(rate, PACKET_BYTES);
  const bucket = new TokenBucket(0);
  bucket.refill(1000, rate, cap, false);
  assert.equal(bucket.tokensBytes, 1000);
  bucket.refill(1700, rate, cap, false);
  assert.equal(bucket.tokensBytes, 1700);
  bucket.refill(60_000, rate, cap, false);
  assert.equal(bucket.tokensBytes, cap, 'capped at one burst');
  assert.ok(bucket.allows(PACKET_BYTES));
  bucket.take(PACKET_BYTES);
  bucket.take(PACKET_BYTES);
  assert.ok(!bucket.allows(PACKET_BYTES));
  bucket.refund(PACKET_BYTES);
  assert.ok(bucket.allows(PACKET_BYTES), 'a refund gives the packet back');
});

test('idle time accrues no more than one burst and forgives any debt', () => {
  const rate = 12_500_000; // 100 Mbit/s
  const cap = burstBytes(rate, PACKET_BYTES);
  const bucket = new TokenBucket(0);
  bucket.refill(10_000, rate, cap, true); // a late turn while waiting for tokens: debt
  assert.ok(bucket.debtBytes > 0);
  bucket.refill(10_000_000, rate, cap, false); // then idle for 10 s
  assert.equal(bucket.tokensBytes, cap);
  assert.equal(bucket.debtBytes, 0, 'credit lost to idleness is not owed');
});

test('credit lost to a late turn becomes debt (≤ 50 ms of rate), repaid at ≤ 25 % above the rate', () => {
  const rate = 12_500_000;
  const cap = burstBytes(rate, PACKET_BYTES); // 12.5 kB
  const bucket = new TokenBucket(0);
  bucket.refill(3000, rate, cap, true); // 3 ms late: 37.5 kB accrued, 12.5 kB kept
  assert.equal(bucket.tokensBytes, cap);
  assert.equal(bucket.debtBytes, 37_500 - cap);
  bucket.take(cap);
  bucket.refill(3800, rate, cap, true); // 0.8 ms: 10 kB accrued + 2.5 kB repaid
  assert.equal(bucket.tokensBytes, 10_000 * (1 + DEBT_REPAY_FRACTION));
  assert.equal(bucket.debtBytes, 25_000 - 2500);
  bucket.refill(1_003_800, rate, cap, true); // a second late: the debt is capped
  assert.equal(bucket.debtBytes, (rate * MAX_DEBT_DURATION_US) / 1e6);
});

test('debt is owed only at the rate it was incurred at: a new rate forgives it', () => {
  const high = 19_700_000; // 157 Mbit/s: a slow-start MI the sender could not keep up with
  const low = 9_250_000; // 74 Mbit/s: the next MI
  const bucket = new TokenBucket(0);
  bucket.refill(20_000, high, burstBytes(high, PACKET_BYTES), true); // 20 ms late at the high rate
  assert.ok(bucket.debtBytes > 300_000);
  bucket.take(bucket.tokensBytes);
  // The next MI at the low rate: a sender taking all it is given sends at that rate, not up to 25 % above it.
  let sent = 0;
  let t = 20_000;
  while (t < 220_000) {
    t += 500;
    bucket.refill(t, low, burstBytes(low, PACKET_BYTES), true);
    while (bucket.allows(PACKET_BYTES)) {
      bucket.take(PACKET_BYTES);
      sent += PACKET_BYTES;
    }
  }
  const sentRate = (sent * 1e6) / (t - 20_000);
  assert.equal(bucket.debtBytes, 0);
  assert.ok(sentRate <= low * 1.01, `the low-rate MI sent at ${(sentRate / low).toFixed(3)} x its rate`);
});

test('a sender that takes what the bucket allows holds the rate when one turn in 50 runs 3 ms late', () => {
  const rate = 6_250_000; // 50 Mbit/s
  const cap = burstBytes(rate, PACKET_BYTES);
  const run = (keepDebt: boolean): number => {
    const bucket = new TokenBucket(0);
    let sent = 0;
    let waited = false;
    let t = 0;
    for (let turn = 0; t < 2_000_000; turn++) {
      bucket.refill(t, rate, cap, keepDebt && waited);
      while (bucket.allows(PACKET_BYTES)) {
        bucket.take(PACKET_BYTES);
        sent += PACKET_BYTES;
      }
      waited = true;
      t += bucket.waitUs(PACKET_BYTES, rate, cap) + (turn % 50 === 0 ? 3000 : 0);
    }
    return (sent * 1e6) / t / rate;
  };
  const withDebt = run(true);
  const withoutDebt = run(false);
  assert.ok(withDebt > 0.99 && withDebt < 1.01, `rate held: ${withDebt}`);
  assert.ok(withoutDebt < 0.95, `without the debt the late turns would cost rate: ${withoutDebt}`);
});

const WAKE_BEFORE_FULL_US = WAKE_BEFORE_FULL_FRACTION * BURST_DURATION_US;

test('a sender out of tokens waits for one packet, or until a quarter of a burst before the bucket fills', () => {
  const bucket = new TokenBucket(0);
  // 1 Gbit/s: the burst (125 kB, 1 ms) is far above a packet: wait until three quarters of a burst have accrued.
  assert.equal(bucket.waitUs(PACKET_BYTES, 125_000_000, burstBytes(125_000_000, PACKET_BYTES)), BURST_DURATION_US - WAKE_BEFORE_FULL_US);
  // 1 Mbit/s: a packet takes 9.6 ms, the two-packet bucket fills in 19.2 ms: wait 18.95 ms, on a timer.
  assert.equal(bucket.waitUs(PACKET_BYTES, 125_000, burstBytes(125_000, PACKET_BYTES)), 19_200 - WAKE_BEFORE_FULL_US);
  // At 1 B/µs: a bucket that fills within a quarter of a burst of one packet waits for the packet; a larger one until
  // WAKE_BEFORE_FULL_US before it fills.
  assert.equal(bucket.waitUs(PACKET_BYTES, 1_000_000, PACKET_BYTES + 100), PACKET_BYTES);
  assert.equal(bucket.waitUs(PACKET_BYTES, 1_000_000, 3 * PACKET_BYTES), 3 * PACKET_BYTES - WAKE_BEFORE_FULL_US);
  bucket.refund(10 * PACKET_BYTES);
  assert.equal(bucket.waitUs(PACKET_BYTES, 125_000_000, 12 * PACKET_BYTES), 1, 'never less than 1 µs');
});

/** A sender woken when waitUs says, for 1 s of virtual time: packets per turn, its largest turn and the rate it sent. */
function wokenOnTime(rate: number, bucket: TokenBucket): { packetsPerTurn: number; maxTurnBytes: number; cap: number; sentRate: number } {
  const cap = bucket.capBytes(rate, PACKET_BYTES);
  let sent = 0;
  let turns = 0;
  let t = 0;
  let maxTurnBytes = 0;
  while (t < 1_000_000) {
    bucket.refill(t, rate, cap, true);
    let turnBytes = 0;
    while (bucket.allows(PACKET_BYTES)) {
      bucket.take(PACKET_BYTES);
      turnBytes += PACKET_BYTES;
    }
    if (t > 0) {
      turns++;
      sent += turnBytes;
      maxTurnBytes = Math.max(maxTurnBytes, turnBytes);
    }
    t += bucket.waitUs(PACKET_BYTES, rate, cap);
  }
  return { packetsPerTurn: sent / PACKET_BYTES / turns, maxTurnBytes, cap, sentRate: (sent * 1e6) / t };
}

test('a sender woken when waitUs says sends several packets a turn at high rates, at the rate, within the burst', () => {
  // Each turn costs the origin a sleep, an event-loop turn and a hand-over to QUIC: at 100 Mbit/s it used to wake for
  // every packet, then (until WAKE_BEFORE_FULL_US was a quarter burst) sent half a burst per turn: 4.2 packets at
  // 100 Mbit/s, 8.3 at 200, 2.1 at 50. Woken on time it now sends about three quarters of a burst, never more.
  for (const [rateMbps, minPacketsPerTurn] of [[100, 6], [200, 12], [50, 3]] as const) {
    const rate = (rateMbps * 1e6) / 8;
    const { packetsPerTurn, maxTurnBytes, cap, sentRate } = wokenOnTime(rate, new TokenBucket(0));
    assert.equal(cap, burstBytes(rate, PACKET_BYTES));
    assert.ok(packetsPerTurn >= minPacketsPerTurn, `${rateMbps} Mbit/s: ${packetsPerTurn.toFixed(2)} packets per turn`);
    assert.ok(maxTurnBytes <= cap, `${rateMbps} Mbit/s: a turn of ${maxTurnBytes} B beyond the ${cap} B burst`);
    assert.ok(sentRate > rate * 0.99 && sentRate < rate * 1.01, `${rateMbps} Mbit/s: sent at ${(sentRate / rate).toFixed(4)} x the rate`);
  }
});

test('a shorter burst (--pacing-burst-us) bounds every turn at that much of the rate, wakes a quarter of it early, holds the rate', () => {
  const rate = 12_500_000; // 100 Mbit/s: 12.5 B/µs
  const bucket = new TokenBucket(0, 500);
  assert.equal(bucket.capBytes(rate, PACKET_BYTES), 6250, '500 µs of the rate');
  assert.equal(bucket.capBytes(125_000, PACKET_BYTES), MIN_BURST_PACKETS * PACKET_BYTES, 'still at least two packets');
  // Empty: the bucket fills in 500 µs; wake 125 µs (a quarter of the burst) before that.
  assert.equal(bucket.waitUs(PACKET_BYTES, rate, 6250), 375);
  const { packetsPerTurn, maxTurnBytes, sentRate } = wokenOnTime(rate, new TokenBucket(0, 500));
  assert.ok(maxTurnBytes <= 6250, `a turn of ${maxTurnBytes} B beyond 500 µs of the rate`);
  assert.ok(packetsPerTurn >= 3, `${packetsPerTurn.toFixed(2)} packets per turn`);
  assert.ok(sentRate > rate * 0.99 && sentRate < rate * 1.01, `sent at ${(sentRate / rate).toFixed(4)} x the rate`);
  // The same sender at the default burst sends turns beyond it.
  assert.ok(wokenOnTime(rate, new TokenBucket(0)).maxTurnBytes > 6250);
  // At 250 µs a turn woken a quarter burst early holds less than two 1200-B packets at 100 Mbit/s: one packet a turn.
  assert.ok(wokenOnTime(rate, new TokenBucket(0, 250)).packetsPerTurn < 1.5);
});

test('a burst duration outside what the origin accepts is refused', () => {
  for (const us of [0, 99, 2001, 250.5, Number.NaN]) assert.throws(() => new TokenBucket(0, us), /burst duration must be an integer from 100 to 2000 µs/, String(us));
});

test('the bucket counts the credit late turns lost and what of it was repaid: the rest was forfeited', () => {
  const rate = 12_500_000;
  const bucket = new TokenBucket(0);
  const cap = bucket.capBytes(rate, PACKET_BYTES);
  bucket.refill(3000, rate, cap, true); // 3 ms late: 2 ms beyond the burst
  assert.equal(bucket.lateCreditBytes, 37_500 - cap);
  assert.equal(bucket.repaidBytes, 0);
  bucket.take(bucket.tokensBytes);
  bucket.refill(3500, rate, cap, true); // 0.5 ms on time: part of the debt repaid
  assert.ok(bucket.repaidBytes > 0);
  assert.ok(Math.abs(bucket.lateCreditBytes - bucket.repaidBytes - bucket.debtBytes) < 1e-6, 'nothing forfeited yet');
  bucket.take(bucket.tokensBytes);
  bucket.refill(4000, rate * 0.9, bucket.capBytes(rate * 0.9, PACKET_BYTES), true); // a new rate, 10 % lower
  const forfeited = bucket.lateCreditBytes - bucket.repaidBytes - bucket.debtBytes;
  // A new rate forgives what was still owed: 25 kB less the 1562.5 B repaid at 25 % of 0.5 ms.
  const expected = 25_000 - 1562.5;
  assert.ok(Math.abs(forfeited - expected) < 1e-6, `forfeited ${forfeited} B at the rate change, not ${expected}`);
});
