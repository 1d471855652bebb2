import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSessionUrl } from '@pcc-stream/protocol';
import { parsePageParams } from '../src/config/session-params.ts';
import { originEndpoints } from '../src/session/origin-endpoints.ts';

const endpointsFor = (search: string) => originEndpoints(parsePageParams(search, '127.0.0.1').sessions[0]!, 'http://127.0.0.1:8080');

test('datagram and quic-stream sessions build session URLs the origin accepts', () => {
  for (const search of ['?cc=vivace', '?cc=pcp', '?cc=fixed&rateBps=50000000', '?transport=quic-stream&cc=bbr']) {
    const e = endpointsFor(search);
    const parsed = parseSessionUrl(e.sessionUrl);
    assert.ok(parsed.ok, `${e.sessionUrl}: ${parsed.ok ? '' : parsed.error.message}`);
  }
  const fixed = parseSessionUrl(endpointsFor('?cc=fixed&rateBps=50000000').sessionUrl);
  assert.ok(fixed.ok && fixed.value.params.rate_bps === 50_000_000);
  const e = endpointsFor('?cc=vivace&port=5000&content=fixed-8000k');
  assert.equal(e.sessionUrl, 'https://127.0.0.1:5000/pcc?cc=vivace');
  assert.equal(e.manifestUrl, 'https://127.0.0.1:5000/fixed-8000k/manifest.mpd');
  assert.equal(e.certHashUrl, 'http://127.0.0.1:8080/cert-hash');
});

test('tcp sessions fetch the manifest over plain HTTP from the TCP port, with the kernel controller in the query', () => {
  const e = endpointsFor('?transport=tcp&cc=bbr&tcpPort=9081&httpsPort=9443&httpPort=9080');
  assert.equal(e.manifestUrl, 'http://127.0.0.1:9081/abr/manifest.mpd?cc=bbr');
  assert.equal(e.certHashUrl, 'http://127.0.0.1:9080/cert-hash');
  assert.equal(endpointsFor('?transport=tcp&cc=cubic').manifestUrl, 'http://127.0.0.1:8081/abr/manifest.mpd?cc=cubic');
});

test('tcpScheme=https takes the TCP baseline over TLS on the HTTPS port; another scheme is refused', () => {
  assert.equal(endpointsFor('?transport=tcp&cc=bbr&tcpScheme=https&httpsPort=9443').manifestUrl, 'https://127.0.0.1:9443/abr/manifest.mpd?cc=bbr');
  assert.throws(() => endpointsFor('?transport=tcp&cc=bbr&tcpScheme=ftp'), /tcpScheme="ftp" must be one of http, https/);
});

test('controller parameters reach the session URL, which the origin parses back to the same numbers', () => {
  const e = endpointsFor('?cc=vivace&cc.epsilon_min=0.02&cc.epsilon_min_on_reversal=1');
  const parsed = parseSessionUrl(e.sessionUrl);
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.ok && parsed.value.params, { epsilon_min: 0.02, epsilon_min_on_reversal: 1 });
  assert.equal(parsed.ok && parsed.value.cc, 'vivace');
});
