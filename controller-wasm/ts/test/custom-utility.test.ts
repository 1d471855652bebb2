// A utility function written in JavaScript replaces the built-in one, is called once per monitor
// interval with that interval's statistics, and cannot break the controller by throwing or returning junk.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadControllerModule, type Controller, type ControllerModule, type MiStats } from '../index.ts';

let mod: ControllerModule;
before(async () => {
  mod = await loadControllerModule();
});

/** A clean 20 Mbit/s, 20 ms bottleneck driven by the controller's own rate; returns the rate history. */
function drive(c: Controller, durationUs: number): number[] {
  const linkBytesPerUs = 20e6 / 8 / 1e6;
  const acks: { atUs: number; pn: number; rttUs: number }[] = [];
  const rates: number[] = [];
  let linkFreeUs = 0;
  let nowUs = 0;
  let pn = 0;
  while (nowUs < durationUs) {
    while (acks.length > 0 && acks[0]!.atUs <= nowUs) {
      const a = acks.shift()!;
      c.ack(a.pn, a.rttUs, 0, a.atUs);
    }
    c.packetSent(pn, 1200, nowUs);
    const departUs = Math.max(nowUs, linkFreeUs) + 1200 / linkBytesPerUs;
    linkFreeUs = departUs;
    acks.push({ atUs: departUs + 20_000, pn, rttUs: departUs + 20_000 - nowUs });
    pn++;
    const rate = c.pacingRateBytesPerSec();
    rates.push(rate);
    nowUs += Math.max(1, (1200 / rate) * 1e6);
    c.tick(nowUs);
  }
  return rates;
}

test('the custom utility is called once per MI with sane statistics and changes decisions', (t) => {
  const builtIn = mod.create('vivace', { nowUs: 0, seed: 9 });
  const custom = mod.create('vivace', { nowUs: 0, seed: 9 });
  const seen: MiStats[] = [];
  // Prefers lower rates: the opposite of what the built-in utility wants on an empty link.
  custom.setUtility((mi) => {
    seen.push(mi);
    return -mi.sendRateBps / 1e6;
  });
  const builtInRates = drive(builtIn, 3_000_000);
  const customRates = drive(custom, 3_000_000);
  const tc = custom.telemetry();
  assert.ok(seen.length > 5, `utility called ${seen.length} times`);
  assert.equal(tc.utilityErrors, 0);
  assert.ok(tc.miCompleted >= seen.length - 2 && tc.miCompleted <= seen.length + 2, `MIs ${tc.miCompleted}, calls ${seen.length}`);
  for (const mi of seen) {
    assert.ok(mi.targetRateBps > 0 && mi.durationUs > 0 && mi.packetsSent > 0, JSON.stringify(mi));
    assert.ok(mi.lossRate >= 0 && mi.lossRate <= 1 && mi.packetsAcked + mi.packetsLost <= mi.packetsSent, JSON.stringify(mi));
  }
  const tail = (rates: number[]) => rates.slice(-200).reduce((s, r) => s + r, 0) / 200;
  assert.ok(tail(customRates) < 0.5 * tail(builtInRates), `custom ${tail(customRates)} vs built-in ${tail(builtInRates)} bytes/s`);
  t.diagnostic(`${seen.length} utility calls; mean rate over the last 200 packets: custom ${(tail(customRates) * 8e-6).toFixed(2)} Mbit/s, built-in ${(tail(builtInRates) * 8e-6).toFixed(2)} Mbit/s`);
  builtIn.destroy();
  custom.destroy();
});

test('a throwing or NaN-returning utility is counted and the controller keeps going', () => {
  for (const bad of [() => { throw new Error('boom'); }, () => Number.NaN, () => 'high' as unknown as number]) {
    const c = mod.create('vivace', { nowUs: 0, seed: 4 });
    c.setUtility(bad);
    const rates = drive(c, 2_000_000);
    const t = c.telemetry();
    assert.ok(t.utilityErrors > 0, 'errors counted');
    assert.ok(t.miCompleted > 0);
    assert.match(c.lastUtilityError() ?? '', /boom|NaN|high/);
    assert.ok(rates.every((r) => Number.isFinite(r) && r > 0), 'rates stay finite and positive');
    assert.ok(Number.isFinite(t.lastMiUtility));
    c.destroy();
  }
});

test('a utility may not re-enter its controller; restoring the built-in one works', () => {
  const c = mod.create('vivace', { nowUs: 0, seed: 2 });
  c.setUtility(() => c.telemetry().pacingRateBps);
  drive(c, 1_000_000);
  assert.ok(c.telemetry().utilityErrors > 0);
  assert.match(c.lastUtilityError() ?? '', /cannot be used from inside its own utility function/);
  c.setUtility(null);
  const errorsBefore = c.telemetry().utilityErrors;
  drive(c, 1_000_000);
  assert.equal(c.telemetry().utilityErrors, errorsBefore, 'built-in utility restored: no more JS calls');
  assert.equal(c.lastUtilityError(), null);
  c.destroy();
});
