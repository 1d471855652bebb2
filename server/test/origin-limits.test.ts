// The origin's limits against many sessions and probing clients: sessions per address, refused requests per
// session, the session memory bound; each refusal closes with CLOSE_LIMIT_EXCEEDED and says why, in the close
// reason and in a structured log line.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CLOSE_LIMIT_EXCEEDED } from '@pcc-stream/protocol';
import { PccClient } from '../src/client/pcc-client.ts';
import { makeMedia, startOrigin, waitFor, type MediaFixture } from './helpers.ts';

let media: MediaFixture;

before(() => {
  media = makeMedia({ 'a.bin': 200_000 });
});

after(() => media?.cleanup());

function closedWithin(c: PccClient, ms: number): Promise<{ code: number; reason: string } | null> {
  return Promise.race([c.quic.closed(), new Promise<null>((r) => setTimeout(() => r(null), ms))]);
}

test('sessions per address: the third from 127.0.0.1 is refused with the reason, 127.0.0.2 still gets in', { timeout: 60_000 }, async () => {
  const origin = await startOrigin(media.dir, ['--max-sessions-per-address', '2', '--session-memory-mb', '2']);
  const clients: PccClient[] = [];
  try {
    const connect = async (localAddress: string): Promise<PccClient> => {
      const c = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, localAddress });
      clients.push(c);
      return c;
    };
    await connect('127.0.0.1');
    await connect('127.0.0.1');
    await waitFor(async () => (await origin.status()).sessions === 2, 5000, 'two sessions');
    const third = await connect('127.0.0.1');
    const refused = await closedWithin(third, 5000);
    assert.ok(refused, 'the third session from one address was not refused');
    assert.equal(refused.code, CLOSE_LIMIT_EXCEEDED);
    assert.match(refused.reason, /127\.0\.0\.1 already has 2 sessions, the limit per address/);
    const other = await connect('127.0.0.2');
    const r = await other.fetch('/a.bin');
    assert.equal(r.status, 200, 'another address is served');
    const status = (await origin.status()) as unknown as { sessions_refused_by_reason: Record<string, number>; limits: Record<string, number> };
    assert.equal(status.sessions_refused_by_reason['address-limit'], 1);
    assert.equal(status.limits.max_sessions_per_address, 2);
    assert.equal(status.limits.session_memory_bytes, 2 * 1048576);
    assert.equal(status.limits.receive_window_bytes, 2 * 1048576 / 8);
    await waitFor(() => /"event":"session\.refused".*"kind":"address-limit"/.test(origin.output()), 5000, 'the refusal\'s log line');
  } finally {
    for (const c of clients) c.close();
    await origin.stop();
  }
});

test('a session that keeps asking for what is not there (traversal, missing files) is closed after N refusals', { timeout: 60_000 }, async () => {
  const origin = await startOrigin(media.dir, ['--max-refused-requests', '4']);
  const c = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash });
  try {
    const paths = ['/../../etc/passwd', '/%2e%2e/secret', '/nope.bin', '/missing/too.bin'];
    const statuses: number[] = [];
    for (const path of paths.slice(0, 3)) statuses.push((await c.fetch(path)).status);
    assert.ok(statuses.every((s) => s >= 400 && s < 500), `refused: ${statuses.join(', ')}`);
    assert.equal((await c.fetch('/a.bin')).status, 200, 'a good request in between is still served');
    await c.fetch(paths[3]!).catch(() => null);
    const closed = await closedWithin(c, 5000);
    assert.ok(closed, 'the probing session was not closed');
    assert.equal(closed.code, CLOSE_LIMIT_EXCEEDED);
    assert.match(closed.reason, /4 requests refused, the limit per session/);
    await waitFor(async () => ((await origin.status()) as unknown as { sessions_closed_for_violation_by_code: Record<string, number> })
      .sessions_closed_for_violation_by_code[String(CLOSE_LIMIT_EXCEEDED)] === 1, 5000, 'the close counted in /status');
  } finally {
    c.close();
    await origin.stop();
  }
});
