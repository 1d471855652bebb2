import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPrefetchRequest, withPrefetchMark } from '../src/index.ts';

test('the early-request mark is added to the query and read back; other queries are not marked', () => {
  assert.equal(withPrefetchMark('/abr/seg-1.m4s'), '/abr/seg-1.m4s?pcc-prefetch=1');
  assert.equal(withPrefetchMark('/abr/seg-1.m4s?CMCD=bl%3D100'), '/abr/seg-1.m4s?CMCD=bl%3D100&pcc-prefetch=1');
  assert.ok(isPrefetchRequest(withPrefetchMark('/abr/seg-1.m4s?cc=cubic')));
  for (const path of ['/abr/seg-1.m4s', '/abr/seg-1.m4s?pcc-prefetch=0', '/abr/x?CMCD=pcc-prefetch%3D1', '/pcc-prefetch=1']) {
    assert.equal(isPrefetchRequest(path), false, path);
  }
});
