// Bad input gets a clear error and never breaks the controller or the module.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadControllerModule, type AlgorithmName, type ControllerModule } from '../index.ts';

let mod: ControllerModule;
before(async () => {
  mod = await loadControllerModule();
});

test('loading twice returns the same module', async () => {
  assert.equal(await loadControllerModule(), mod);
});

test('unknown algorithm names the available ones', () => {
  assert.throws(() => mod.create('reno' as AlgorithmName, { nowUs: 0 }), /unknown congestion-control algorithm "reno" \(available: .*vivace.*\)/);
});

test('bad create options are refused with the option named', () => {
  assert.throws(() => mod.create('cubic', { nowUs: Number.NaN }), /nowUs must be a finite number/);
  assert.throws(() => mod.create('cubic', { nowUs: 0, seed: -1 }), /seed must be an integer/);
  assert.throws(() => mod.create('cubic', { nowUs: 0, seed: 1.5 }), /seed must be an integer/);
  assert.throws(() => mod.create('cubic', { nowUs: 0, batchCapacity: 0 }), /batchCapacity/);
  assert.throws(() => mod.create('cubic', { nowUs: 0, params: { no_such_param: 1 } }), /unknown parameter "no_such_param"/);
});

test('unknown parameter names list the known ones', () => {
  const c = mod.create('vivace', { nowUs: 0 });
  try {
    assert.throws(() => c.getParam('epsilonn'), /vivace: unknown parameter "epsilonn" \(known: .*min_rate_bps/);
    assert.throws(() => c.setParam('epsilonn', 0.05), /unknown parameter "epsilonn"/);
  } finally {
    c.destroy();
  }
});

test('NaN, infinite and out-of-range parameter values are refused and leave the value unchanged', () => {
  const c = mod.create('vivace', { nowUs: 0 });
  try {
    const before = c.getParam('max_rate_bps');
    const desc = c.params().find((p) => p.name === 'max_rate_bps')!;
    assert.throws(() => c.setParam('max_rate_bps', Number.NaN), /invalid value NaN for parameter "max_rate_bps"/);
    assert.throws(() => c.setParam('max_rate_bps', Number.POSITIVE_INFINITY), /invalid value Infinity/);
    assert.throws(() => c.setParam('max_rate_bps', desc.maxValue * 10), /must be in \[/);
    assert.throws(() => c.setParam('max_rate_bps', 'fast' as unknown as number), /invalid value fast/);
    assert.equal(c.getParam('max_rate_bps'), before);
    c.setParam('max_rate_bps', 50e6);
    assert.equal(c.getParam('max_rate_bps'), 50e6);
  } finally {
    c.destroy();
  }
});

test('parameters are described with finite bounds and docs, the common ones first', () => {
  for (const algorithm of mod.algorithms() as AlgorithmName[]) {
    const c = mod.create(algorithm, { nowUs: 0 });
    const params = c.params();
    assert.deepEqual(params.slice(0, 4).map((p) => p.name), ['min_rate_bps', 'max_rate_bps', 'initial_rate_bps', 'mss_bytes']);
    for (const p of params) {
      assert.ok(Number.isFinite(p.minValue) && Number.isFinite(p.maxValue) && p.minValue <= p.defaultValue && p.defaultValue <= p.maxValue, `${algorithm}.${p.name}`);
      assert.ok(p.doc.length > 0, `${algorithm}.${p.name} has a doc line`);
      assert.equal(c.getParam(p.name), p.defaultValue, `${algorithm}.${p.name} starts at its default`);
    }
    c.destroy();
  }
});

test('create() applies params in an order the library accepts; conflicting bounds are explained', () => {
  const c = mod.create('vivace', { nowUs: 0, params: { min_rate_bps: 20e9, max_rate_bps: 40e9 } });
  assert.equal(c.getParam('min_rate_bps'), 20e9);
  assert.equal(c.getParam('max_rate_bps'), 40e9);
  assert.throws(() => c.setParam('min_rate_bps', 50e9), /conflicts with the others \(min_rate_bps must not exceed max_rate_bps\)/);
  c.destroy();
  assert.throws(() => mod.create('vivace', { nowUs: 0, params: { min_rate_bps: 9e9, max_rate_bps: 5e9 } }), /conflicts with the others/);
});

test('create() applies params before the first event', () => {
  const c = mod.create('fixed', { nowUs: 0, params: { rate_bps: 4e6 } });
  assert.equal(c.pacingRateBytesPerSec(), 4e6 / 8);
  c.destroy();
});

test('events with NaN, infinite, negative or fractional fields are refused at the boundary and counted', () => {
  const c = mod.create('cubic', { nowUs: 0 });
  c.packetSent(0, 1200, 0);
  c.packetSent(Number.NaN, 1200, 10);
  c.packetSent(1, -1200, 10);
  c.packetSent(2, 1200.5, 10);
  c.packetSent(3, 1200, Number.POSITIVE_INFINITY);
  c.ack(-1, 30_000, 0, 30_000);
  c.ack(0, Number.NaN, 0, 30_000);
  c.loss(2 ** 60, 30_000);
  const t = c.telemetry();
  assert.equal(t.eventsRefused, 7);
  assert.equal(t.packetsSent, 1);
  assert.ok(t.eventsIgnored >= 7);
  assert.equal(c.bytesInFlight(), 1200);
  c.ack(0, 30_000, 0, 30_000.9); // fractional microseconds are floored, not refused
  assert.equal(c.telemetry().packetsAcked, 1);
  assert.ok(Number.isFinite(c.pacingRateBytesPerSec()) && c.pacingRateBytesPerSec() > 0);
  c.destroy();
});

test('a destroyed controller throws on use; destroy twice is harmless', () => {
  const c = mod.create('bbr', { nowUs: 0 });
  c.destroy();
  c.destroy();
  assert.throws(() => c.packetSent(0, 1200, 0), /used after destroy/);
  assert.throws(() => c.telemetry(), /used after destroy/);
  assert.throws(() => c.setParam('mss_bytes', 1200), /used after destroy/);
});

test('custom utilities are refused by algorithms without one', () => {
  for (const algorithm of ['cubic', 'bbr', 'fixed'] as AlgorithmName[]) {
    const c = mod.create(algorithm, { nowUs: 0 });
    assert.throws(() => c.setUtility(() => 1), new RegExp(`${algorithm} does not use a utility function`));
    c.destroy();
  }
});

test('controllers are independent: bad input to one does not change another', () => {
  const a = mod.create('vivace', { nowUs: 0, seed: 3 });
  const b = mod.create('vivace', { nowUs: 0, seed: 3 });
  for (let pn = 0; pn < 200; pn++) {
    a.packetSent(pn, 1200, pn * 100);
    b.packetSent(pn, 1200, pn * 100);
    b.ack(pn + 10_000, Number.NaN, 0, pn * 100); // garbage only for b
  }
  for (let pn = 0; pn < 200; pn++) {
    a.ack(pn, 30_000, 0, 30_000 + pn * 100);
    b.ack(pn, 30_000, 0, 30_000 + pn * 100);
  }
  const ta = a.telemetry();
  const tb = b.telemetry();
  assert.equal(ta.eventsIgnored, 0);
  assert.equal(tb.eventsRefused, 200);
  assert.deepEqual({ ...tb, eventsIgnored: 0, eventsRefused: 0 }, ta);
  a.destroy();
  b.destroy();
});
