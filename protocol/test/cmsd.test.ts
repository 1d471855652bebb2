import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeCmsdDynamic, encodeCmsdDynamic, encodeCmsdStatic } from '../src/index.ts';

test('CMSD-Dynamic: one server item with integer etp, rtt, mb; absent and non-finite values left out', () => {
  assert.equal(encodeCmsdDynamic({ etpKbps: 41_000.4, rttMs: 12.6, mbKbps: 8000 }), '"pcc-origin";etp=41000;rtt=13;mb=8000');
  assert.equal(encodeCmsdDynamic({ etpKbps: 5000 }), '"pcc-origin";etp=5000');
  assert.equal(encodeCmsdDynamic({ etpKbps: Number.NaN, rttMs: -1, mbKbps: Infinity }), '"pcc-origin"');
  assert.equal(encodeCmsdDynamic({ etpKbps: 1e30 }), '"pcc-origin";etp=999999999999999', 'clamped to an RFC 8941 integer');
  const back = decodeCmsdDynamic(encodeCmsdDynamic({ etpKbps: 123, rttMs: 4, mbKbps: 9 }));
  assert.ok(back.ok);
  assert.deepEqual(back.value, { etpKbps: 123, rttMs: 4, mbKbps: 9 });
  assert.ok(!decodeCmsdDynamic('pcc-origin;etp=1').ok);
  assert.ok(!decodeCmsdDynamic('"x";etp=1.5').ok);
});

test('CMSD-Static: streaming format DASH, object type when known', () => {
  assert.equal(encodeCmsdStatic(), 'sf=d');
  assert.equal(encodeCmsdStatic('m'), 'ot=m,sf=d');
});
