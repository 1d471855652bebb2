// bench/harness/link.ts: a scenario's down and up are the viewer's, wherever the viewer sits. The bench's browser is
// inside the namespace (linkem's down = toward it); npm start --network's browser is outside, so they swap.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capacityMbps, linkemOptions } from '../harness/link.ts';
import { parseScenario } from '../harness/scenario.ts';
import { tracesDir } from '../harness/suites.ts';

const scenario = parseScenario({
  name: 'viewer-sides', duration_s: 10,
  link: { down: { trace: `${tracesDir()}/TMobile-LTE-short.down` }, up: { rate_mbps: 5 }, queue: { type: 'droptail', bytes: 300000 } },
  delay: { one_way_ms: 20 }, loss: { down: 0.01, up: 0.002 },
}, '/');

test('viewer inside (the bench): the scenario\'s directions are linkem\'s', () => {
  const o = linkemOptions(scenario, 1, '/run');
  assert.match(o.downTrace ?? '', /TMobile-LTE-short\.down$/);
  assert.equal(o.upMbps, 5);
  assert.deepEqual([o.lossDown, o.lossUp, o.logDown, o.logUp], [0.01, 0.002, '/run/link-down.log', '/run/link-up.log']);
});

test('viewer outside (npm start --network): the media direction is linkem\'s up, and its log is the viewer-downlink log', () => {
  const o = linkemOptions(scenario, 1, '/run', 'outside');
  assert.match(o.upTrace ?? '', /TMobile-LTE-short\.down$/);
  assert.equal(o.downMbps, 5);
  assert.equal(o.downTrace, undefined);
  assert.deepEqual([o.lossUp, o.lossDown, o.logUp, o.logDown], [0.01, 0.002, '/run/link-down.log', '/run/link-up.log']);
  assert.deepEqual([o.delayMs, o.queueDown, o.queueUp, o.queueDownArgs, o.queueUpArgs], [20, 'droptail', 'droptail', 'bytes=300000', 'bytes=300000']);
});

test('capacityMbps: a constant rate everywhere; a trace window counts its 1504-byte opportunities, looping', () => {
  assert.equal(capacityMbps({ rateMbps: 8.8 })(0, 500), 8.8);
  const trace = capacityMbps(scenario.link.down);
  const whole = trace(0, 1000);
  assert.ok(whole > 0);
  // Two halves make the whole second.
  assert.ok(Math.abs((trace(0, 500) + trace(500, 1000)) / 2 - whole) < 1e-9);
  assert.equal(trace(100, 100), 0);
});
