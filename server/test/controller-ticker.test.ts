// What the controller hears of time and idleness. The controller is the unit's boundary: a recorder stands in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AppState } from '@pcc-stream/controller';
import { ControllerTicker, TICK_MIN_INTERVAL_US } from '../src/datagram/controller-ticker.ts';

function recorder() {
  const calls: string[] = [];
  return {
    calls,
    controller: {
      tick: (t: number) => void calls.push(`tick ${t}`),
      appState: (s: AppState, t: number) => void calls.push(`${s.appLimited ? 'app-limited' : 'app-state'} ${t}${s.bufferMs === undefined ? '' : ' with video state'}`),
    },
  };
}

test('ticks at most once per TICK_MIN_INTERVAL_US', () => {
  const { calls, controller } = recorder();
  const ticker = new ControllerTicker(controller);
  for (let t = 0; t <= 3000; t += 250) ticker.tick(t);
  assert.deepEqual(calls, [`tick ${TICK_MIN_INTERVAL_US}`, 'tick 2000', 'tick 3000']);
});

test('app-limited is signalled once each time the sender runs out of data, not while idle, not at the start', () => {
  const { calls, controller } = recorder();
  const ticker = new ControllerTicker(controller);
  ticker.afterTurn(false, 10); // nothing to send yet: the controller starts app-limited
  ticker.afterTurn(true, 20);
  ticker.afterTurn(true, 30);
  ticker.afterTurn(false, 40);
  ticker.afterTurn(false, 50);
  ticker.afterTurn(true, 60);
  ticker.afterTurn(false, 70);
  assert.deepEqual(calls, ['app-limited 40', 'app-limited 70']);
});
