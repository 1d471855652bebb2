// A recording of a real session that found a problem (test/recordings/, as recordings.test.ts): the first slow start
// on issue 17's 1 MB link. Found 2026-11-27 (origin + Node client through linkem, 100 Mbit/s, 30 ms, 1 MB buffer, load
// 0.2-5; bench/published/2026-11-25/bulk-baseline-a6262f6, vivace rep 2): an MI at 93 Mbit/s that delivered what it
// sent read an RTT gradient the one-way delay did not show (forgiven, slow_start_forward_gradient), the doubling went
// on to 191 and 209 Mbit/s, and that MI's result came 190 ms late behind its own queue while four more MIs went out at
// 209: the 1 MB buffer filled (80 ms, 1,058 drops). §4.4's slow start ends only on a finished MI's utility;
// slow_start_queue_exit (vivace_slow_start.c) ends it on the 8th ack in a row with a forward queue above that many min
// RTTs. This replays the session's first 1.2 s, open loop, with the rule at 0.5 and off.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { inputsOnly, replayMisOfText, replayStatesOfText, withParam } from '../../scripts/replay.ts';
import { assertBuildsFresh, LIBRARY_SOURCES } from './support/build-freshness.ts';

const FILE = fileURLToPath(new URL('../../test/recordings/vivace-100mbps-30ms-1mb-slow-start-late-result.replay', import.meta.url));
const LINK_BPS = 100e6;

/** µs after the first packet at which slow start ended, replaying `text` (the time of the first input after it). */
function slowStartEndUs(text: string): number {
  const lines = text.split('\n');
  const firstSent = lines.find((l) => l.startsWith('sent '))!;
  const t0 = Number(firstSent.split(' ').at(-1));
  const end = replayStatesOfText(text).find((s) => s.state !== 'slow_start');
  assert.ok(end !== undefined, 'slow start ended within the recording');
  const at = lines.slice(end.line - 1).find((l) => /^(sent|ack|tick|loss) /.test(l))!;
  return Number(at.split(' ').at(-1)) - t0;
}

test('the first slow start ends on the acks\' forward queue, not 190 ms later on an MI result (vivace, 1 MB, replayed)', () => {
  assertBuildsFresh(['build/pcc-replay'], LIBRARY_SOURCES);
  const text = inputsOnly(readFileSync(FILE, 'utf8'));
  // the case: slow start sent MIs at about twice the link before it ended
  const mis = replayMisOfText(text);
  assert.ok(mis.some((m) => m.targetRateBps > 1.8 * LINK_BPS), 'an MI at nearly twice the link');
  const off = slowStartEndUs(text);
  const on = slowStartEndUs(withParam(text, 'slow_start_queue_exit', 0.5));
  assert.ok(off > 850_000, `without the rule slow start ended at ${(off / 1e3).toFixed(1)} ms`);
  assert.ok(on < 800_000, `with slow_start_queue_exit 0.5 it ended at ${(on / 1e3).toFixed(1)} ms`);
});
