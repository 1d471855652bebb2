import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkIndexForPane, networkStatusQuery, paneKey, parseNetworkStatus, parseNetworkStatusQuery, type NetworkStatus } from '../src/index.ts';

const link = {
  id: 'link-0', label: 'lte', panes: ['vivace@datagram'],
  origin: { host: '100.110.0.2', webTransportPort: 4433, httpPort: 8080, httpsPort: 8443 },
  capacity: [[0, 9.5, 4.2], [0.5, 11, 3.9]],
  queue: [[0, null, 0, 0, []], [0.5, 12, 30000, 8.2, [[3, 10], [12, 2]]]],
};
const status = { version: 2, preset: 'lte', description: 'TMobile LTE', mode: 'competing', nowS: 1.2, binS: 0.5, links: [link] };

test('network status: a well-formed answer passes, loopback has no links', () => {
  const r = parseNetworkStatus(JSON.parse(JSON.stringify(status)));
  assert.ok(r.ok);
  const value: NetworkStatus = r.value;
  assert.equal(value.links[0]!.queue[1]![1], 12);
  assert.ok(parseNetworkStatus({ ...status, mode: 'loopback', links: [] }).ok);
  assert.ok(parseNetworkStatus({ ...status, links: [{ ...link, origin: { ...link.origin, tcpPort: 8081 } }] }).ok);
});

test('network status: each malformed field is named', () => {
  const cases: [unknown, RegExp][] = [
    [{ ...status, version: 1 }, /version 1, expected 2/],
    [{ ...status, mode: 'loopback' }, /loopback exactly when/],
    [{ ...status, links: [] }, /loopback exactly when/],
    [{ ...status, binS: 0 }, /binS/],
    [{ ...status, links: [{ ...link, capacity: [[0, -1, 2]] }] }, /capacity\[0\]/],
    [{ ...status, links: [{ ...link, queue: [[0, 1, 2]] }] }, /queue\[0\]/],
    [{ ...status, links: [{ ...link, queue: [[0, 1, 2, 3]] }] }, /queue\[0\]: expected \[tS, delayP95Ms/],
    [{ ...status, links: [{ ...link, queue: [[0, 1, 2, 3, [[4, 0]]]] }] }, /queue\[0\]/],
    [{ ...status, links: [{ ...link, queue: [[0, 1, 2, 3, [[-4, 1]]]] }] }, /queue\[0\]/],
    [{ ...status, links: [{ ...link, origin: { ...link.origin, webTransportPort: 0 } }] }, /webTransportPort/],
    [{ ...status, links: [{ ...link, origin: { ...link.origin, tcpPort: 70000 } }] }, /tcpPort/],
    [[], /expected an object/],
  ];
  for (const [value, message] of cases) {
    const r = parseNetworkStatus(value);
    assert.ok(!r.ok);
    assert.match(r.error.message, message);
  }
});

test('network status: the query round-trips; panes map to links by mode', () => {
  const panes = [paneKey('vivace', 'datagram'), paneKey('cubic', 'tcp')];
  const q = parseNetworkStatusQuery(networkStatusQuery('side-by-side', panes, 3.5));
  assert.deepEqual(q, { ok: true, value: { mode: 'side-by-side', panes, sinceS: 3.5 } });
  assert.deepEqual(parseNetworkStatusQuery(''), { ok: true, value: { mode: 'competing', panes: [], sinceS: 0 } });
  assert.ok(!parseNetworkStatusQuery('mode=shared').ok);
  assert.ok(!parseNetworkStatusQuery('since=-1').ok);
  assert.ok(!parseNetworkStatusQuery('panes=vivace').ok);
  assert.deepEqual([0, 1, 2].map((i) => linkIndexForPane('side-by-side', i)), [0, 1, 2]);
  assert.deepEqual([0, 1, 2].map((i) => linkIndexForPane('competing', i)), [0, 0, 0]);
});
