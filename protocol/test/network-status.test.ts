import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  linkForPane, linkIndexForPane, networkStatusQuery, paneKey, panesOnLink, parseNetworkStatus, parseNetworkStatusQuery,
  type NetworkLink, type NetworkMode, type NetworkStatus,
} from '../src/index.ts';

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

const withPanes = (id: string, panes: string[]): NetworkLink => ({ ...(link as unknown as NetworkLink), id, panes });

test('each pane finds its link by its key; side by side, the k-th pane with a key gets the k-th link listing it', () => {
  const a = withPanes('link-0', ['vivace@datagram']);
  const b = withPanes('link-1', ['cubic@tcp']);
  const keys = ['vivace@datagram', 'cubic@tcp'];
  assert.equal(linkForPane({ mode: 'side-by-side', links: [a, b] }, keys, 1)?.id, 'link-1');
  assert.equal(linkForPane({ mode: 'side-by-side', links: [b, a] }, keys, 0)?.id, 'link-0');
  assert.equal(linkForPane({ mode: 'competing', links: [withPanes('link-0', keys)] }, keys, 1)?.id, 'link-0');
  const twins = ['vivace@datagram', 'vivace@datagram'];
  assert.equal(linkForPane({ mode: 'side-by-side', links: [a, withPanes('link-1', ['vivace@datagram'])] }, twins, 1)?.id, 'link-1');
  assert.equal(linkForPane({ mode: 'loopback', links: [] }, keys, 0), null);
  // A link listing no panes: by position, as the server lays links out.
  assert.equal(linkForPane({ mode: 'side-by-side', links: [withPanes('link-0', []), withPanes('link-1', [])] }, keys, 1)?.id, 'link-1');
});

test("the page reads back the server's placement: every pane gets the link linkIndexForPane gave it", () => {
  const layouts: string[][] = [['vivace@datagram'], ['vivace@datagram', 'cubic@tcp'], ['vivace@datagram', 'vivace@datagram', 'bbr@quic-stream'], ['a@tcp', 'b@tcp', 'a@tcp']];
  for (const mode of ['competing', 'side-by-side'] as NetworkMode[]) {
    for (const keys of layouts) {
      const count = mode === 'side-by-side' ? keys.length : 1;
      const links = Array.from({ length: count }, (_, i) => withPanes(`link-${i}`, panesOnLink(mode, keys, i)));
      // Links in another order than the server's: found by key, as long as no two panes share one (twins go by order).
      const orders = new Set(keys).size === keys.length ? [links, [...links].reverse()] : [links];
      for (const order of orders) {
        keys.forEach((_, i) => assert.equal(linkForPane({ mode, links: order }, keys, i)?.id, `link-${linkIndexForPane(mode, i)}`, `${mode} ${keys.join(',')} pane ${i}`));
      }
    }
  }
});
