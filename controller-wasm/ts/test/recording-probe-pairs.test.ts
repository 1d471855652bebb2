// A recording of a real session that found a problem (test/recordings/, as recordings.test.ts): Vivace's probe round
// on a loaded host. Found 2026-11-26 (issue 17's 1 MB target), origin + Node client through linkem, 100 Mbit/s,
// 30 ms, 1 MB buffer, load 3-9 on the 2-core machine: 43-65% of the MIs after slow start sent less than 95% of
// their target rate (the origin's sender descheduled with data waiting), and a probe pair whose higher probe the
// sender cut below its lower one still decided the round. Eq. 4.1 scores what was sent, so a cut upper probe
// carries a fraction of the latency penalty of a lower one sent in full into the same queue and "wins": in one run
// increases on such rounds took the rate from 106 to 188 Mbit/s (2.5x the link in the next second, 80 ms of queue,
// 30-50% loss). Fixed in vivace_probing.c: a round in which a higher probe went out slower than its lower one (and
// than (1 - ε) x its rate) decides nothing (probe_pair_check), as §4.4.4 treats unreliable statistics. This replays the session's first 1.15 s with and without the check.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { test } from 'node:test';
import { inputsOnly, replayMisOfText, withParam } from '../../scripts/replay.ts';
import { assertBuildsFresh, LIBRARY_SOURCES } from './support/build-freshness.ts';

const FILE = fileURLToPath(new URL('../../test/recordings/vivace-100mbps-30ms-1mb-probe-sender-stall.replay', import.meta.url));
/** Vivace's default probing step ε (Table 4.1): a round's probes are at r(1+ε) and r(1-ε). */
const EPSILON = 0.05;

type Mi = ReturnType<typeof replayMisOfText>[number];

/** The script with a controller parameter set right after its `create` line. */
/** Index of the first MI of each probe round: four MIs in two pairs, each pair one MI at r(1+ε) and one at r(1-ε). */
function probeRounds(mis: Mi[]): number[] {
  const isPair = (a: Mi, b: Mi): boolean => {
    const [hi, lo] = a.targetRateBps > b.targetRateBps ? [a, b] : [b, a];
    return Math.abs(hi.targetRateBps / lo.targetRateBps - (1 + EPSILON) / (1 - EPSILON)) < 1e-6;
  };
  const starts: number[] = [];
  for (let i = 0; i + 3 < mis.length; i++) {
    if (isPair(mis[i]!, mis[i + 1]!) && isPair(mis[i + 2]!, mis[i + 3]!) &&
        mis[i]!.targetRateBps + mis[i + 1]!.targetRateBps === mis[i + 2]!.targetRateBps + mis[i + 3]!.targetRateBps) {
      starts.push(i);
      i += 3;
    }
  }
  return starts;
}

/** Whether a pair's higher probe went out slower than its lower one, and than (1 - ε) x its lower one's rate. */
function pairCut(a: Mi, b: Mi): boolean {
  const [hi, lo] = a.targetRateBps > b.targetRateBps ? [a, b] : [b, a];
  return hi.sendRateBps < lo.sendRateBps && hi.sendRateBps < (1 - EPSILON) * lo.targetRateBps;
}

const highest = (mis: Mi[], start: number): number => Math.max(...mis.slice(start, start + 4).map((m) => m.targetRateBps));

test('a probe round whose higher probe the sender cut below its lower decides nothing (vivace, 1 MB, replayed)', () => {
  assertBuildsFresh(['build/pcc-replay'], LIBRARY_SOURCES);
  const text = inputsOnly(readFileSync(FILE, 'utf8'));
  const checked = replayMisOfText(text);
  const rounds = probeRounds(checked);
  const cutAt = rounds.findIndex((i) => pairCut(checked[i]!, checked[i + 1]!) || pairCut(checked[i + 2]!, checked[i + 3]!));
  assert.ok(cutAt >= 0 && cutAt + 1 < rounds.length, `a round with a cut pair and a round after it (${rounds.length} rounds)`);
  const cut = rounds[cutAt]!, next = rounds[cutAt + 1]!;
  const cutPair = pairCut(checked[cut]!, checked[cut + 1]!) ? [checked[cut]!, checked[cut + 1]!] : [checked[cut + 2]!, checked[cut + 3]!];
  const [hi, lo] = cutPair[0]!.targetRateBps > cutPair[1]!.targetRateBps ? cutPair : [cutPair[1]!, cutPair[0]!];
  assert.ok(hi!.sendRateBps < 0.85 * hi!.targetRateBps && lo!.sendRateBps > (1 - EPSILON) * lo!.targetRateBps,
    `the sender cut the higher probe, not the lower: ${JSON.stringify([hi, lo])}`);
  // The check: the next round probes the same rates.
  assert.equal(highest(checked, next), highest(checked, cut));

  // Without it (the thesis's comparison of the target rates), the same inputs moved the rate on that round.
  const unchecked = replayMisOfText(withParam(text, 'probe_pair_check', 0));
  assert.deepEqual(unchecked.slice(0, cut + 4).map((m) => m.targetRateBps), checked.slice(0, cut + 4).map((m) => m.targetRateBps));
  const uncheckedNext = probeRounds(unchecked).find((i) => i > cut);
  assert.ok(uncheckedNext !== undefined);
  assert.notEqual(highest(unchecked, uncheckedNext), highest(checked, cut));
});
