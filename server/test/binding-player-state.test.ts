// What the controller hears of a player that fetches audio and video: the binding buffer, not the latest report's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCmcd } from '@pcc-stream/protocol';
import { BindingPlayerState, PLAYER_STATE_STALE_MIN_US } from '../src/datagram/binding-player-state.ts';

function cmcd(payload: string) {
  const r = parseCmcd(payload, '/media/seg-1.m4s');
  assert.ok(r.ok);
  return r.value;
}

test('audio and video reports alternate: the controller sees the smaller buffer whichever came last', () => {
  const player = new BindingPlayerState();
  player.report(cmcd('bl=1500,br=8000,d=2000,ot=v'), 0);
  player.report(cmcd('bl=9000,br=128,d=2000,ot=a'), 100_000);
  assert.equal(player.at(100_000).bufferMs, 1400, 'the video buffer, counted down 100 ms since its report, binds');
  player.report(cmcd('bl=1900,br=8000,d=2000,ot=v'), 1_000_000);
  player.report(cmcd('bl=700,br=128,d=2000,ot=a'), 1_050_000);
  assert.equal(player.at(1_050_000).bufferMs, 700, 'now the audio buffer is the lower one');
  assert.equal(player.at(1_050_000).bitrateBps, 8_128_000, 'the session carries both: their bitrates add');
});

test('the nearest deadline binds, each counted down from its own report', () => {
  const player = new BindingPlayerState();
  player.report(cmcd('bl=6000,dl=3000,ot=v'), 0);
  player.report(cmcd('bl=8000,dl=5000,ot=a'), 1_000_000);
  assert.deepEqual(player.at(2_000_000), { bufferMs: 4000, deadlineUs: 1_000_000 });
  assert.equal(player.at(9_000_000).deadlineUs, 0, 'a passed deadline is due now, never negative');
});

test('a type the player stopped fetching does not pin the buffer once stale', () => {
  const player = new BindingPlayerState();
  player.report(cmcd('bl=500,br=8000,d=2000,ot=v'), 0); // video's last segment
  for (let t = 0; t <= PLAYER_STATE_STALE_MIN_US; t += 2_000_000) player.report(cmcd(`bl=${6000 + t / 1000},br=128,d=2000,ot=a`), t);
  assert.equal(player.at(PLAYER_STATE_STALE_MIN_US).bufferMs, 0, 'within the window the ended video still binds (drained)');
  const after = player.at(PLAYER_STATE_STALE_MIN_US + 1);
  assert.equal(after.bufferMs, 6000 + PLAYER_STATE_STALE_MIN_US / 1000 - 0.001, 'past it only the audio, which is still fetched, counts');
  assert.equal(after.bitrateBps, 128_000, 'and only its bitrate');
});

test('the staleness window stretches with the object duration: two objects, at least the minimum', () => {
  const player = new BindingPlayerState();
  player.report(cmcd('bl=1000,d=4000,ot=v'), 0);
  player.report(cmcd('bl=20000,d=4000,ot=a'), 7_000_000);
  assert.equal(player.at(7_000_000).bufferMs, 0, '4-s segments: a video report 7 s old is still within 2 x 4 s');
  assert.equal(player.at(8_000_001).bufferMs, 20_000 - 1000.001, 'after 8 s it is stale');
});

test('all types stale: the most recent report alone stands (the controller ages it out itself)', () => {
  const player = new BindingPlayerState();
  assert.deepEqual(player.at(0), {}, 'nothing reported: all unknown');
  player.report(cmcd('bl=3000,ot=v'), 0);
  player.report(cmcd('bl=12000,br=128,ot=a'), 1_000_000);
  assert.deepEqual(player.at(20_000_000), { bufferMs: 0, bitrateBps: 128_000 });
});

test('reports that carry no buffer (init segment, manifest) leave it alone; reports without ot share one slot', () => {
  const player = new BindingPlayerState();
  player.report(cmcd('bl=5000,br=2000,ot=v'), 0);
  player.report(cmcd('ot=i,su'), 0);
  player.report(cmcd('ot=m'), 0);
  assert.deepEqual(player.at(0), { bufferMs: 5000, bitrateBps: 2_000_000 });
  const untyped = new BindingPlayerState();
  untyped.report(cmcd('bl=1000'), 0);
  untyped.report(cmcd('bl=7000'), 0);
  assert.equal(untyped.at(0).bufferMs, 7000, 'one untyped stream of reports: its latest');
});
