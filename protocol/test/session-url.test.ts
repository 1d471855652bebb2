import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSessionUrl } from '../src/index.ts';

test('session URL: defaults, controllers, numeric params', () => {
  const d = parseSessionUrl('https://h:4433/pcc');
  assert.ok(d.ok);
  assert.deepEqual(d.value, { transport: 'datagram', params: {} });
  const f = parseSessionUrl('/pcc?cc=fixed&rate_bps=5e6');
  assert.ok(f.ok);
  assert.deepEqual(f.value, { transport: 'datagram', cc: 'fixed', params: { rate_bps: 5e6 } });
  const s = parseSessionUrl('/pcc?transport=quic-stream&cc=bbr');
  assert.ok(s.ok && s.value.transport === 'quic-stream' && s.value.cc === 'bbr');
});

test('session URL: bad values give typed errors', () => {
  for (const url of ['/pcc?cc=reno', '/pcc?transport=tcp', '/pcc?rate_bps=abc', '/pcc?rate_bps=', '/pcc?Bad-Name=1',
    '/pcc?transport=quic-stream&cc=vivace', '/pcc?transport=quic-stream&cc=bbr&x=1', '/pcc?rate_bps=Infinity']) {
    const r = parseSessionUrl(url);
    assert.ok(!r.ok, url);
    assert.equal(r.error.code, 'invalid-field');
  }
});
