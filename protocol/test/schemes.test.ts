import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  BENCHMARKED_SCHEMES, DEFAULT_SCHEME, QUIC_CONTROLLERS, SCHEMES, SCHEME_NAMES, TCP_CONTROLLERS, WASM_CONTROLLERS, parseScheme,
  parseSessionUrl, schemeFor, schemeSpellings,
} from '../src/index.ts';

test('one canonical name per scheme, and no spelling names two schemes', () => {
  assert.equal(new Set(SCHEME_NAMES).size, SCHEMES.length);
  const owner = new Map<string, string>();
  for (const scheme of SCHEMES) {
    assert.ok(/^[a-z][a-z0-9-]*$/.test(scheme.name), scheme.name);
    assert.ok(scheme.description.length > 0 && !scheme.description.includes('\n'), `${scheme.name}: one-line description`);
    for (const spelling of schemeSpellings(scheme)) {
      assert.equal(owner.get(spelling) ?? scheme.name, scheme.name, `${spelling} names ${owner.get(spelling)} and ${scheme.name}`);
      owner.set(spelling, scheme.name);
    }
  }
  // One controller per name on each transport.
  for (const list of [WASM_CONTROLLERS, QUIC_CONTROLLERS, TCP_CONTROLLERS]) assert.equal(new Set(list).size, list.length);
  assert.ok(SCHEME_NAMES.includes(DEFAULT_SCHEME));
  for (const name of BENCHMARKED_SCHEMES) assert.ok(SCHEME_NAMES.includes(name));
});

test('fixed needs a rate, so no scenario runs it unless it names it', () => {
  assert.ok(!BENCHMARKED_SCHEMES.includes('fixed'));
  assert.ok(WASM_CONTROLLERS.includes('fixed') && QUIC_CONTROLLERS.includes('newreno') && TCP_CONTROLLERS.includes('bbr'));
});

test('aliases resolve to the canonical scheme', () => {
  const cases: Array<[string, string]> = [
    ['tcp-cubic', 'tcp-cubic'], ['cubic@tcp', 'tcp-cubic'], ['bbr@quic-stream', 'quic-bbr'], ['quic-bbr', 'quic-bbr'],
    ['newreno@quic-stream', 'quic-newreno'], ['vivace', 'vivace'], ['vivace@datagram', 'vivace'], ['cubic', 'cubic'],
    ['cubic@datagram', 'cubic'], [' tcp-bbr ', 'tcp-bbr'],
  ];
  for (const [text, canonical] of cases) {
    const r = parseScheme(text);
    assert.ok(r.ok, text);
    assert.equal(r.value.name, canonical, text);
  }
  for (const bad of ['reno', 'tcp-reno', 'vivace@tcp', 'newreno@tcp', 'cubic@udp', '@tcp', 'cubic@', '']) {
    const r = parseScheme(bad);
    assert.ok(!r.ok, bad);
    assert.equal(r.error.code, 'invalid-field');
  }
  const tcp = schemeFor('tcp', 'bbr');
  assert.ok(tcp.ok && tcp.value.name === 'tcp-bbr');
  const missing = schemeFor('tcp', 'vivace');
  assert.ok(!missing.ok && /use one of: cubic, bbr/.test(missing.error.message));
});

test('the session URL accepts exactly the registry\'s controllers of each WebTransport transport', () => {
  for (const scheme of SCHEMES) {
    if (scheme.transport === 'tcp') continue;
    const query = scheme.transport === 'datagram' ? `cc=${scheme.cc}` : `transport=${scheme.transport}&cc=${scheme.cc}`;
    assert.ok(parseSessionUrl(`/pcc?${query}`).ok, query);
  }
  assert.ok(!parseSessionUrl('/pcc?transport=quic-stream&cc=fixed').ok);
  assert.ok(!parseSessionUrl('/pcc?cc=newreno').ok);
});
