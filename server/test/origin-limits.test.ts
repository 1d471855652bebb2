// The origin's limits against many sessions and probing clients: sessions per address, refused requests per
// session, the session memory bound; each refusal closes with CLOSE_LIMIT_EXCEEDED and says why, in the close
// reason and in a structured log line.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CLOSE_LIMIT_EXCEEDED, CLOSE_PROTOCOL_VIOLATION } from '@pcc-stream/protocol';
import { PccClient } from '../src/client/pcc-client.ts';
import { makeMedia, startOrigin, waitFor, type MediaFixture, type RunningOrigin } from './helpers.ts';

let media: MediaFixture;

before(() => {
  media = makeMedia({ 'a.bin': 200_000 });
});

after(() => media?.cleanup());

/** Connects from `localAddress`, keeping the client in `clients` for the test's cleanup. */
async function connectFrom(origin: RunningOrigin, clients: PccClient[], localAddress: string): Promise<PccClient> {
  const c = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, localAddress });
  clients.push(c);
  return c;
}

function closedWithin(c: PccClient, ms: number): Promise<{ code: number; reason: string } | null> {
  return Promise.race([c.quic.closed(), new Promise<null>((r) => setTimeout(() => r(null), ms))]);
}

test('sessions per address: the third from 127.0.0.1 is refused with the reason, 127.0.0.2 still gets in', { timeout: 60_000 }, async () => {
  const origin = await startOrigin(media.dir, ['--max-sessions-per-address', '2', '--session-memory-mb', '2']);
  const clients: PccClient[] = [];
  try {
    const connect = (localAddress: string): Promise<PccClient> => connectFrom(origin, clients, localAddress);
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
    assert.equal(status.limits.max_handshakes_per_address_per_s, 10, 'the default handshake rate limit is on');
    assert.equal(status.limits.session_memory_bytes, 2 * 1048576);
    assert.equal(status.limits.receive_window_bytes, 2 * 1048576 / 8);
    await waitFor(() => /"event":"session\.refused".*"kind":"address-limit"/.test(origin.output()), 5000, 'the refusal\'s log line');
  } finally {
    for (const c of clients) c.close();
    await origin.stop();
  }
});

test('new handshakes per address: beyond the burst they are refused before TLS and logged; another address still gets in', { timeout: 60_000 }, async () => {
  // A refill of one per 1,000 s: exactly the burst of 2 opens however slowly the machine runs the attempts.
  const origin = await startOrigin(media.dir, ['--max-handshakes-per-address-per-s', '0.001', '--handshake-burst-per-address', '2']);
  const clients: PccClient[] = [];
  try {
    const connect = (localAddress: string): Promise<PccClient> => connectFrom(origin, clients, localAddress);
    await connect('127.0.0.3');
    await connect('127.0.0.3');
    await assert.rejects(connect('127.0.0.3'), /the server refused to accept a new connection/);
    const r = await (await connect('127.0.0.4')).fetch('/a.bin');
    assert.equal(r.status, 200, 'another address is served');
    const status = (await origin.status()) as unknown as { handshakes_refused: number; limits: Record<string, number> };
    assert.equal(status.handshakes_refused, 1);
    assert.equal(status.limits.max_handshakes_per_address_per_s, 0.001);
    assert.equal(status.limits.handshake_burst_per_address, 2);
    await waitFor(() => /"event":"handshake\.refused".*"remote":"127\.0\.0\.3","refused":1,"kind":"handshake-rate"/.test(origin.output()), 5000,
      'the refusal\'s log line');
  } finally {
    for (const c of clients) c.close();
    await origin.stop();
  }
});

test('a session that keeps asking for what is not there (missing files, no file named) is closed after N refusals', { timeout: 60_000 }, async () => {
  const origin = await startOrigin(media.dir, ['--max-refused-requests', '4']);
  const c = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash });
  try {
    const paths = ['/nope.bin', '/', '/missing/too.bin', '/gone.bin'];
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

test('a request stream cut off inside its frame, or stalled half-sent, closes the session as a violation; empty ones are refusals', { timeout: 60_000 }, async () => {
  const origin = await startOrigin(media.dir, ['--max-refused-requests', '3']);
  // A REQUEST frame's prefix promising 40 payload bytes, of which 5 come (PROTOCOL.md §2: type u8 | length u16).
  const cutShort = Uint8Array.of(0x10, 0x00, 40, 3, 0, 0, 0, 1);
  const clients: PccClient[] = [];
  const connect = async () => {
    const c = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash });
    clients.push(c);
    return c;
  };
  try {
    const ended = await connect();
    const bi = await ended.quic.openBi();
    await bi.write(cutShort);
    await bi.finish();
    const endedClose = await closedWithin(ended, 5000);
    assert.ok(endedClose, 'a frame cut off by the stream\'s end left the session open');
    assert.equal(endedClose.code, CLOSE_PROTOCOL_VIOLATION);
    assert.match(endedClose.reason, /stream ended inside a REQUEST frame \(8 B of it\)/);

    const empty = await connect();
    for (let i = 0; i < 3; i++) await (await empty.quic.openBi()).finish();
    const emptyClose = await closedWithin(empty, 5000);
    assert.ok(emptyClose, 'three empty request streams with a limit of 3 refusals left the session open');
    assert.equal(emptyClose.code, CLOSE_LIMIT_EXCEEDED);
    assert.match(emptyClose.reason, /3 requests refused, the limit per session \(last: 400 stream ended before a REQUEST\)/);

    const stalled = await connect();
    // Held until the verdict: a stream object collected as garbage finishes its side (and so ends the frame).
    const held = await stalled.quic.openBi();
    await held.write(cutShort);
    const stalledClose = await closedWithin(stalled, 15_000); // the origin's request timeout is 10 s
    void held;
    assert.ok(stalledClose, 'a half-sent frame left open was tolerated past the request timeout');
    assert.equal(stalledClose.code, CLOSE_PROTOCOL_VIOLATION);
    assert.match(stalledClose.reason, /incomplete REQUEST frame \(8 B\) stalled for 10000 ms/);
  } finally {
    for (const c of clients) c.close();
    await origin.stop();
  }
});
