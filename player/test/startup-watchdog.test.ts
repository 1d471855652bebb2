// The startup watchdog (session/startup-watchdog.ts): a pane still receiving media keeps waiting, one whose media
// stopped (or that already has an error) fails.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DELIVERING_WINDOW_S, startFailureMessage, startupVerdict } from '../src/session/startup-watchdog.ts';

test('a starved pane that still receives bytes waits; nothing new or an error fails it', () => {
  // The competing run on changing-rtt: vivace had 1.85 MB after 30 s, short of its first 2 s segment at 8 Mbit/s.
  assert.equal(startupVerdict({ errors: 0, bytesNow: 1_848_296, bytesAtLastCheck: 0 }), 'wait');
  assert.equal(startupVerdict({ errors: 0, bytesNow: 2_500_000, bytesAtLastCheck: 1_848_296 }), 'wait');
  assert.equal(startupVerdict({ errors: 0, bytesNow: 1_848_296, bytesAtLastCheck: 1_848_296 }), 'fail', 'no byte since the last check');
  assert.equal(startupVerdict({ errors: 0, bytesNow: 0, bytesAtLastCheck: 0 }), 'fail', 'nothing ever arrived');
  assert.equal(startupVerdict({ errors: 1, bytesNow: 5_000_000, bytesAtLastCheck: 0 }), 'fail', 'an error already recorded');
});

// The competing run on changing-rtt's per-stream link (demo-bar, 2026-11-26): vivace's first 2 MB segment timed out
// four times (dash.js's 20 s timeout, 3 retries) while its datagrams kept arriving, 3.9 MB in all; dash.js's
// "seg-0-00001.m4s is not available" then read as a missing origin.
const starved = {
  dashError: 'dash.js error 27: https://100.110.0.46:4433/cbr-8000k-70s-2s/seg-0-00001.m4s is not available',
  content: 'cbr-8000k-70s-2s', transport: 'datagram', bytesReceived: 3_924_373, elapsedS: 84.2, requestTimeouts: 4,
  sinceLastBytesS: 0.4, sharedLink: true,
};

test('a pane whose requests timed out while its transport kept delivering says it was starved, not that the origin is down', () => {
  const message = startFailureMessage(starved);
  assert.doesNotMatch(message, /Is the origin running/);
  assert.match(message, /^Starved: 3924 kB in 84 s \(373 kbit\/s\) on a shared link\. 4 requests timed out while its transport \(datagram\) kept delivering/);
  assert.match(message, /dash\.js error 27/, "dash.js's own text stays in the message");
  assert.match(startFailureMessage({ ...starved, transport: 'tcp', sharedLink: false, requestTimeouts: 1 }), /^Starved: 3924 kB in 84 s \(373 kbit\/s\)\. 1 request timed out while its transport \(tcp\)/);
});

test('nothing delivered, nothing lately, or no timeout: the origin may well be down, and the message asks', () => {
  for (const f of [
    { ...starved, bytesReceived: 0, sinceLastBytesS: null },
    { ...starved, sinceLastBytesS: DELIVERING_WINDOW_S + 1 },
    { ...starved, requestTimeouts: 0 },
  ]) {
    assert.equal(startFailureMessage(f), `Playback could not start. ${starved.dashError}. Is the origin running and serving cbr-8000k-70s-2s?`);
  }
});
