import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { test } from 'node:test';

import { QuicClient, QuicServer, type Session } from '../index.js';
import { testCert } from './loopback.ts';

/** Opens `count` sessions one after another from `localAddress`; the sessions that opened and the errors of the rest. */
async function attempts(server: QuicServer, localAddress: string, count: number): Promise<{ opened: Session[]; errors: string[] }> {
  const opened: Session[] = [];
  const errors: string[] = [];
  for (let i = 0; i < count; i++) {
    try {
      opened.push(await QuicClient.connect(`https://127.0.0.1:${server.port}/hs`, {
        certSha256Hex: testCert().certSha256Hex, localAddress, connectTimeoutMs: 30_000,
      }));
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { opened, errors };
}

/** A server whose addresses get `burst` handshakes and a refill of one per 1,000 s: however slowly this machine runs
 *  the attempts, no token comes back, so exactly the burst opens and no count can depend on timing. Sessions are
 *  taken as they arrive (the accept queue never pushes back on the handshakes); `close()` ends them all. */
async function limitedServer(burst: number): Promise<{ server: QuicServer; sessions: Session[]; close(): Promise<void> }> {
  const cert = testCert();
  const server = await QuicServer.bind({
    host: '127.0.0.1', port: 0, certPem: cert.certPem, keyPem: cert.keyPem, handshakesPerAddressPerS: 0.001, handshakeBurstPerAddress: burst,
  });
  const sessions: Session[] = [];
  const accepting = (async () => {
    for (let s = await server.accept(); s !== null; s = await server.accept()) sessions.push(s);
  })();
  return {
    server, sessions, async close() {
      for (const s of sessions) s.close(0, 'test done');
      server.close();
      await accepting;
    },
  };
}

test('handshakes from one address beyond its burst are refused before TLS, with CONNECTION_REFUSED; other addresses keep theirs', async () => {
  const { server, sessions, close } = await limitedServer(3);
  try {
    const first = await attempts(server, '127.0.0.1', 10);
    sessions.push(...first.opened);
    assert.equal(first.opened.length, 3, `the burst of 3 opens, the rest are refused: ${JSON.stringify(first.errors)}`);
    assert.equal(first.errors.length, 7);
    for (const message of first.errors) assert.match(message, /refused/i);
    assert.equal(server.handshakesRefused, 7);
    assert.equal(server.handshakesRefusedSilently, 0, 'up to 10 refusals a second are answered');
    // The first refusal is reported at once; later ones of the same second wait for the next report.
    assert.deepEqual(await server.nextHandshakeRefusal(), { address: '127.0.0.1', refused: 1, limitPerS: 0.001, burst: 3 });

    const other = await attempts(server, '127.0.0.2', 3);
    sessions.push(...other.opened);
    assert.equal(other.opened.length, 3, `another address has its own bucket: ${JSON.stringify(other.errors)}`);
    assert.equal(server.handshakesRefused, 7);
  } finally {
    await close();
  }
});

/** QUIC v1 Initials (RFC 9000 §17.2.2: long header, 8-byte connection IDs, no token, padded to 1200 B) whose payload
 *  is random, so no key opens it: what a forger sends. */
function forgedInitials(count: number): Buffer[] {
  return Array.from({ length: count }, () => {
    const packet = randomBytes(1200);
    packet[0] = 0xc0 | (packet[0]! & 0x0f);
    packet.writeUInt32BE(1, 1);
    packet[5] = 8;
    packet[14] = 8;
    packet[23] = 0;
    packet.writeUInt16BE(0x4000 | (packet.length - 26), 24);
    return packet;
  });
}

test('forged Initials that never start a handshake do not spend their address\'s handshakes', async () => {
  const { server, sessions, close } = await limitedServer(2);
  const udp = createSocket('udp4');
  try {
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    // Sent, one by one, before the real attempts: the server reads them first from its socket.
    for (const packet of forgedInitials(20)) await new Promise<void>((resolve, reject) => udp.send(packet, server.port, '127.0.0.1', (e) => (e ? reject(e) : resolve())));
    const real = await attempts(server, '127.0.0.1', 3);
    sessions.push(...real.opened);
    assert.equal(real.opened.length, 2, `the burst of 2 is still there for real handshakes: ${JSON.stringify(real.errors)}`);
    assert.equal(real.errors.length, 1);
    assert.equal(server.handshakesRefused, 1);
  } finally {
    udp.close();
    await close();
  }
});

test('no limit unless asked, and bad limits are refused with the reason', async () => {
  const cert = testCert();
  const base = { host: '127.0.0.1', port: 0, certPem: cert.certPem, keyPem: cert.keyPem };
  const unlimited = await QuicServer.bind(base);
  try {
    assert.equal(await unlimited.nextHandshakeRefusal(), null);
    assert.equal(unlimited.handshakesRefused, 0);
  } finally {
    unlimited.close();
  }
  await assert.rejects(QuicServer.bind({ ...base, handshakesPerAddressPerS: -1 }), /handshakesPerAddressPerS must be between 0 \(no limit\) and/);
  await assert.rejects(QuicServer.bind({ ...base, handshakesPerAddressPerS: Number.NaN }), /handshakesPerAddressPerS must be between/);
  await assert.rejects(QuicServer.bind({ ...base, handshakesPerAddressPerS: 5, handshakeBurstPerAddress: 0 }), /handshakeBurstPerAddress must be between 1 and/);
});
