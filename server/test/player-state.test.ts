// The player's CMCD as the controller hears it (cc_on_app_state) and as /status and telemetry show it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AppState } from '@pcc-stream/controller';
import { parseCmcd } from '@pcc-stream/protocol';
import { ControllerTicker } from '../src/datagram/controller-ticker.ts';
import { PlayerStateRecord, videoStateFromCmcd } from '../src/telemetry/player-state.ts';

function cmcd(payload: string) {
  const r = parseCmcd(payload, '/abr/seg-1.m4s');
  assert.ok(r.ok);
  return r.value;
}

test('CMCD becomes the controller\'s video fields: bl ms, br kbit/s → bit/s, dl ms → µs; absent keys stay unknown', () => {
  assert.deepEqual(videoStateFromCmcd(cmcd('bl=8000,br=800,dl=1500,mtp=25000')), { bufferMs: 8000, bitrateBps: 800_000, deadlineUs: 1_500_000 });
  assert.deepEqual(videoStateFromCmcd(cmcd('mtp=25000,su')), {});
});

test('the ticker sends the player state at once and carries it, as of each event, on every later app-limited event', () => {
  const events: Array<{ state: AppState; nowUs: number }> = [];
  const ticker = new ControllerTicker({ tick: () => {}, appState: (state, nowUs) => events.push({ state, nowUs }) });
  ticker.afterTurn(true, 0);
  ticker.afterTurn(false, 100);
  assert.deepEqual(events.at(-1)!.state, { appLimited: true }, 'no player state yet: video fields unknown');
  ticker.playerState(cmcd('bl=8000,br=800,dl=1500,ot=v'), 1_000_000);
  assert.deepEqual(events.at(-1), { state: { appLimited: false, bufferMs: 8000, bitrateBps: 800_000, deadlineUs: 1_500_000 }, nowUs: 1_000_000 });
  ticker.afterTurn(true, 1_100_000);
  ticker.afterTurn(false, 1_400_000);
  assert.deepEqual(events.at(-1)!.state, { appLimited: true, bufferMs: 7600, bitrateBps: 800_000, deadlineUs: 1_100_000 },
    'buffer and deadline count down from the report: an app-limited event does not make an old buffer level new');
  ticker.afterTurn(true, 3_000_000);
  ticker.afterTurn(false, 3_000_000);
  assert.equal(events.at(-1)!.state.deadlineUs, 0, 'a passed deadline is due now, never negative');
});

test('the per-session record: cmcd_* fields, booleans as 0/1, age and update count', () => {
  const record = new PlayerStateRecord();
  assert.deepEqual(record.fields(0), {});
  record.set(cmcd('bl=21300,br=3200,bs,d=2000,dl=18500,mtp=48100,rtp=12000,nor="seg-2.m4s",ot=v'), 1_000_000);
  assert.deepEqual(record.fields(1_250_000), {
    cmcd_age_ms: 250, cmcd_bl_ms: 21300, cmcd_br_kbps: 3200, cmcd_d_ms: 2000, cmcd_dl_ms: 18500, cmcd_mtp_kbps: 48100,
    cmcd_rtp_kbps: 12000, cmcd_nor: '/abr/seg-2.m4s', cmcd_ot: 'v', cmcd_su: 0, cmcd_bs: 1, cmcd_updates: 1,
  });
});
