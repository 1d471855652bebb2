import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RangeSet } from '../src/index.ts';
import { seededRandom } from './random.ts';

test('RangeSet matches a naive set under random adds', () => {
  const random = seededRandom(1);
  for (let round = 0; round < 50; round++) {
    const set = new RangeSet();
    const model = new Set<number>();
    for (let k = 0; k < 60; k++) {
      const start = Math.floor(random() * 200);
      const end = start + Math.floor(random() * 12);
      let fresh = 0;
      for (let x = start; x < end; x++) if (!model.has(x)) { model.add(x); fresh++; }
      assert.equal(set.add(start, end), fresh);
      assert.equal(set.size, model.size);
    }
    for (let x = -2; x < 215; x++) assert.equal(set.has(x), model.has(x), `has(${x})`);
    for (let k = 0; k < 40; k++) {
      const start = Math.floor(random() * 210);
      const end = start + Math.floor(random() * 20);
      let expectedGap: { start: number; end: number } | null = null;
      for (let x = start; x < end; x++) {
        if (!model.has(x)) {
          let e = x;
          while (e < end && !model.has(e)) e++;
          expectedGap = { start: x, end: e };
          break;
        }
      }
      assert.deepEqual(set.firstGap(start, end), expectedGap);
      assert.equal(set.covers(start, end), expectedGap === null);
    }
    // Intervals are disjoint, sorted, and not adjacent.
    const ivs = set.highestIntervals(1000).reverse();
    for (let i = 1; i < ivs.length; i++) assert.ok(ivs[i]!.start > ivs[i - 1]!.end);
  }
});

test('RangeSet.keepHighest drops the lowest intervals and their count', () => {
  const set = new RangeSet();
  set.add(0, 5);
  set.add(10, 12);
  set.add(20, 21);
  set.keepHighest(2);
  assert.equal(set.intervalCount, 2);
  assert.equal(set.size, 3);
  assert.equal(set.has(3), false);
  assert.equal(set.min(), 10);
  assert.equal(set.max(), 20);
});
