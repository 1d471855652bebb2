// The startup watchdog (session/startup-watchdog.ts): a pane still receiving media keeps waiting, one whose media
// stopped (or that already has an error) fails.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startupVerdict } from '../src/session/startup-watchdog.ts';

test('a starved pane that still receives bytes waits; nothing new or an error fails it', () => {
  // The competing run on changing-rtt: vivace had 1.85 MB after 30 s, short of its first 2 s segment at 8 Mbit/s.
  assert.equal(startupVerdict({ errors: 0, bytesNow: 1_848_296, bytesAtLastCheck: 0 }), 'wait');
  assert.equal(startupVerdict({ errors: 0, bytesNow: 2_500_000, bytesAtLastCheck: 1_848_296 }), 'wait');
  assert.equal(startupVerdict({ errors: 0, bytesNow: 1_848_296, bytesAtLastCheck: 1_848_296 }), 'fail', 'no byte since the last check');
  assert.equal(startupVerdict({ errors: 0, bytesNow: 0, bytesAtLastCheck: 0 }), 'fail', 'nothing ever arrived');
  assert.equal(startupVerdict({ errors: 1, bytesNow: 5_000_000, bytesAtLastCheck: 0 }), 'fail', 'an error already recorded');
});
