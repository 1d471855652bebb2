// A recording of a real session whose uplink went silent for seconds (test/recordings/, the controller-wasm README's
// "Recording and replaying a session"; recordings.test.ts checks every kept recording replays). Replayed through the
// native library, inputs only: the MI boundaries are the replayed controller's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { test } from 'node:test';
import { inputsOnly, replayMisOfText } from '../../scripts/replay.ts';
import { assertBuildsFresh, LIBRARY_SOURCES } from './support/build-freshness.ts';

const DIR = fileURLToPath(new URL('../../test/recordings/', import.meta.url));

// Found 2026-11-26 (issue 18, bench/published/2026-11-25/lte-att, cause 2), origin + Chromium through linkem on
// ATT-LTE-driving-2016, vivace-video, repetition 2, the session's first 26 s: the trace's uplink carries nothing for
// 4 s, the acks of that time arrive together after it, and the sRTT they leave (3.3 s) sized the next MI, which held
// 1.17 Mbit/s for 4.27 s with no decision while the RTT samples were back at 44-60 ms and the downlink at 2.8-4.0
// Mbit/s. Fixed in vivace.c (with vivace_timeout.c's receive-timestamp test and pcc_loop_shorten_stale_mi): after an
// ack came late on the way back, an open MI the sRTT sized ends at the length the sRTT gives now (thesis §4.4: an MI
// spans about an RTT).
test('after an uplink silence the next MI does not last the held acks\' delay (vivace-video, ATT LTE, replayed)', () => {
  assertBuildsFresh(['build/pcc-replay'], LIBRARY_SOURCES);
  const text = inputsOnly(readFileSync(join(DIR, 'vivace-video-att-lte-r2-ack-silence.replay'), 'utf8'));
  const mis = replayMisOfText(text);
  // the MI whose acks the silence held: its RTT samples average seconds, its packets were sent at the path's pace
  const held = mis.find((m) => m.avgRttUs > 2_000_000 && !m.timedOut);
  assert.ok(held !== undefined, 'an MI whose acks the silence held');
  const after = mis.filter((m) => m.startUs >= held.endUs);
  assert.ok(after.length >= 20, `${after.length} MIs after the silence`);
  const longest = after.reduce((a, b) => (b.durationUs > a.durationUs ? b : a));
  assert.ok(longest.durationUs < held.avgRttUs / 2,
    `MI ${longest.id} after the silence lasted ${(longest.durationUs / 1e6).toFixed(2)} s at ` +
    `${(longest.targetRateBps / 1e6).toFixed(2)} Mbit/s; the held acks' RTT was ${(held.avgRttUs / 1e6).toFixed(2)} s`);
});
