import assert from 'node:assert/strict';
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

test('handshakes from one address beyond its burst are refused before TLS, with CONNECTION_REFUSED; other addresses keep theirs', async () => {
  const cert = testCert();
  // A refill of one handshake per 1,000 s: however slowly this machine runs the attempts, no token comes back, so
  // exactly the burst opens and the count cannot depend on timing.
  const server = await QuicServer.bind({
    host: '127.0.0.1', port: 0, certPem: cert.certPem, keyPem: cert.keyPem, handshakesPerAddressPerS: 0.001, handshakeBurstPerAddress: 3,
  });
  const sessions: Session[] = [];
  // Sessions are taken as they arrive, so the accept queue never pushes back on the handshakes.
  const accepting = (async () => {
    for (let s = await server.accept(); s !== null; s = await server.accept()) sessions.push(s);
  })();
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
    for (const s of sessions) s.close(0, 'test done');
    server.close();
    await accepting;
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
