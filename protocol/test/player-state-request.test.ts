// The player-state request (PROTOCOL.md §2.9): what the player sends for a request served from a continuous stream,
// and how the origin reads it: the object's CMCD through the one parser, or a clear error.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PLAYER_STATE_PREFIX, cmcdFromRequestPath, cmcdQueryArgument, playerStateRequestPath, requestPlayerState } from '../src/index.ts';

const segment = `/abr/seg-1-00004.m4s?${cmcdQueryArgument({ bl: 8300, br: 4000, d: 2000, ot: 'v', nor: 'seg-1-00005.m4s' })}`;

test('a request with CMCD becomes a player-state request the origin reads as the object\'s own request', () => {
  const path = playerStateRequestPath(segment);
  assert.equal(path, `${PLAYER_STATE_PREFIX}${segment}`);
  const read = requestPlayerState(path!);
  assert.ok(read.ok, read.ok ? '' : read.error.message);
  assert.equal(read.value.stateOnly, true);
  const direct = cmcdFromRequestPath(segment);
  assert.ok(direct.ok);
  assert.deepEqual(read.value.state, direct.value, 'the same state as the segment request itself would give');
  assert.equal(read.value.state?.bufferLengthMs, 8300);
  assert.equal(read.value.state?.nextObjectPath, '/abr/seg-1-00005.m4s', 'nor resolves against the object\'s folder, not the prefix');
});

test('an ordinary request is not state-only; its CMCD reads as before', () => {
  const read = requestPlayerState(segment);
  assert.ok(read.ok);
  assert.equal(read.value.stateOnly, false);
  assert.equal(read.value.state?.bufferLengthMs, 8300);
  const none = requestPlayerState('/abr/seg-1-00004.m4s');
  assert.ok(none.ok);
  assert.deepEqual(none.value, { state: null, stateOnly: false });
  // The prefix alone, or a name that merely starts like it, is an ordinary path (the media store answers it).
  for (const p of [PLAYER_STATE_PREFIX, `${PLAYER_STATE_PREFIX}x/seg.m4s?CMCD=bl%3D1`]) {
    const r = requestPlayerState(p);
    assert.ok(r.ok && !r.value.stateOnly, p);
  }
});

test('nothing to tell is no request; a malformed CMCD is forwarded so the origin refuses it with the reason', () => {
  assert.equal(playerStateRequestPath('/abr/seg-1-00004.m4s'), null);
  assert.equal(playerStateRequestPath('/abr/seg-1-00004.m4s?cc=cubic'), null);
  assert.equal(playerStateRequestPath('relative/seg.m4s?CMCD=bl%3D1'), null);
  const bad = playerStateRequestPath('/abr/seg-1.m4s?CMCD=bl%3D-5');
  assert.ok(bad);
  const read = requestPlayerState(bad);
  assert.ok(!read.ok);
  assert.match(read.error.message, /CMCD bl=-5 is negative/);
});

test('hostile player-state requests get an error naming the problem', () => {
  const cases: Array<[string, RegExp]> = [
    [`${PLAYER_STATE_PREFIX}/abr/seg-1.m4s`, /player-state request carries no CMCD/],
    [`${PLAYER_STATE_PREFIX}/abr/seg-1.m4s?cc=cubic`, /player-state request carries no CMCD/],
    [`${PLAYER_STATE_PREFIX}/abr/seg-1.m4s?CMCD=bl%3D1&CMCD=bl%3D2`, /CMCD query argument appears more than once/],
    [`${PLAYER_STATE_PREFIX}/abr/seg-1.m4s?CMCD=${encodeURIComponent(`nor="${'../'.repeat(3)}etc/passwd"`)}`, /CMCD nor .* leaves the media root/],
    [`${PLAYER_STATE_PREFIX}/../../seg.m4s?CMCD=${encodeURIComponent('nor="x"')}`, /CMCD nor .* leaves the media root/],
    [`${PLAYER_STATE_PREFIX}/abr/seg-1.m4s?CMCD=${encodeURIComponent('bl=99999999999')}`, /CMCD bl=99999999999 exceeds/],
  ];
  for (const [path, message] of cases) {
    const r = requestPlayerState(path);
    assert.ok(!r.ok, path);
    assert.match(r.error.message, message, path);
  }
});
