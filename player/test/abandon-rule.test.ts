import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ABANDON_BUFFER_MARGIN_S, ABANDON_RULE_NAME, abandonRuleFactory, downloadIsDoomed } from '../src/dash/abandon-rule.ts';

// An 8000-kbit/s, 2-s segment (2 MB) with 1.5 MB left, measuring 4.3 Mbit/s: dash.js 5.2.1's AbandonRequestsRule
// abandons it below 18 s of buffer (2 MB at 4.3 Mbit/s = 3.7 s > 1.8 × 2 s), as it did at 6–14 s in
// slow-start-persistent-queue's vv runs; its rest arrives in 2.8 s.
const segmentBytes = 2_000_000;
const left = 1_500_000;
const rateBps = 4_300_000;
const restS = (left * 8) / rateBps;

test('downloadIsDoomed: abandons only when the rest at its own rate arrives after the buffer less the margin runs dry', () => {
  for (const bufferS of [6, 8, 14]) {
    assert.equal(downloadIsDoomed({ bytesLeft: left, rateBps, bufferS }), false, `${bufferS} s buffered: dash.js's rule abandons, this one must not`);
  }
  assert.equal(downloadIsDoomed({ bytesLeft: left, rateBps, bufferS: 2 }), true, '2 s buffered: the rest takes 2.8 s');
  // The margin, at the boundary: kept just above rest + margin, abandoned just below.
  assert.equal(downloadIsDoomed({ bytesLeft: left, rateBps, bufferS: restS + ABANDON_BUFFER_MARGIN_S + 0.01 }), false);
  assert.equal(downloadIsDoomed({ bytesLeft: left, rateBps, bufferS: restS + ABANDON_BUFFER_MARGIN_S - 0.01 }), true);
  assert.equal(downloadIsDoomed({ bytesLeft: left, rateBps, bufferS: restS + 0.5 }, 0), false, 'a zero margin keeps it');
  // Finished downloads never; ones that receive nothing always.
  assert.equal(downloadIsDoomed({ bytesLeft: 0, rateBps: 0, bufferS: 0 }), false);
  assert.equal(downloadIsDoomed({ bytesLeft: 1, rateBps: 0, bufferS: 30 }), true);
});

/** A loading request as dash.js's rules context hands it: 10 progress traces of 100 ms after a first one. */
function context(bufferLevel: number) {
  const perTraceBytes = ((segmentBytes - left) / 10);
  const traces = [{ d: 50, b: [1000] }, ...Array.from({ length: 10 }, () => ({ d: ((perTraceBytes * 8) / rateBps) * 1000, b: [perTraceBytes] }))];
  const ladder = [{ bitrateInKbit: 300 }, { bitrateInKbit: 2000 }, { bitrateInKbit: 4000 }, { bitrateInKbit: 8000 }];
  const request = {
    index: 7, firstByteDate: new Date(Date.now() - 2000), traces, bytesLoaded: segmentBytes - left, bytesTotal: segmentBytes, representation: ladder[3]!,
  };
  const abandoned: number[] = [];
  let checks = 0;
  const rule = abandonRuleFactory({
    bufferLevelS: () => bufferLevel,
    settings: () => ({ priority: 0.5, minThroughputSamplesThreshold: 6, minSegmentDownloadTimeThresholdInMs: 500 }),
    onCheck: () => { checks++; },
    onAbandon: (_type, _rate, bufferS) => abandoned.push(bufferS),
  })({}).create();
  const ctx = {
    getCurrentRequest: () => request, getMediaType: () => 'video', getMediaInfo: () => ({}), getRepresentation: () => ladder[3],
    getAbrController: () => ({
      isPlayingAtLowestQuality: (r: unknown) => r === ladder[0],
      getOptimalRepresentationForBitrate: (_m: unknown, kbps: number) => [...ladder].reverse().find((r) => r.bitrateInKbit <= kbps) ?? ladder[0]!,
    }),
  };
  return { rule, ctx, abandoned, checks: () => checks };
}

test('the rule as dash.js calls it: no abandonment with 8 s buffered, one (to 4000) with 2 s, once per segment', () => {
  const kept = context(8);
  assert.equal(kept.rule.getClassName(), ABANDON_RULE_NAME);
  assert.equal(kept.rule.shouldAbandon(kept.ctx).representation, null);
  assert.deepEqual(kept.abandoned, []);
  const doomed = context(2);
  const sr = doomed.rule.shouldAbandon(doomed.ctx);
  assert.equal(sr.representation?.bitrateInKbit, 4000);
  assert.ok(sr.reason !== null && (sr.reason as { throughputInKbit: number }).throughputInKbit > 4000);
  assert.equal(doomed.rule.shouldAbandon(doomed.ctx).representation, null, 'the same segment is not abandoned twice');
  assert.deepEqual(doomed.abandoned, [2]);
  assert.equal(doomed.checks(), 2);
});
