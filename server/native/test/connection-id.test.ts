// What the server's full-size DATAGRAM packets cost on the wire, read off the UDP payloads between a client and the
// server: the client's connection ID length (every server packet carries it as its destination CID) and the largest
// UDP payload the server sends. Bytes per packet are the bench's "wire bytes per byte delivered" (issue 17).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { QuicClient, QuicServer, type ClientOptions } from '../index.js';
import { receiveDatagrams, testCert } from './loopback.ts';
import { longHeaderScidBytes, startUdpRelay } from './udp-relay.ts';

const INITIAL_MTU = 1452;
const DATAGRAMS = 20;
/** A 1-RTT packet carrying one DATAGRAM frame with a zero-length destination CID: 1 B first byte, a packet number of at
 *  most 4 B, the frame's type (1 B) and length (2 B for ≥ 64 B), the AEAD tag (16 B) (RFC 9000 §17.3, RFC 9221 §4). */
const MAX_OVERHEAD_ZERO_CID = 1 + 4 + 1 + 2 + 16;
/** The same with an 8-byte destination CID and the shortest packet number (1 B). */
const MIN_OVERHEAD_8_BYTE_CID = 1 + 8 + 1 + 1 + 2 + 16;

interface Observed {
  /** The client's first packet (its Initial). */
  clientInitial: Buffer;
  /** Payload sizes of the server's packets once the session is open (its handshake datagrams are padded). */
  serverPayloadBytes: number[];
  maxDatagramBytes: number;
}

/** Connects through a relay that records every packet, sends DATAGRAMS full-size datagrams from the server. */
async function observe(client: Partial<ClientOptions>): Promise<Observed> {
  const cert = testCert();
  const server = await QuicServer.bind({ host: '127.0.0.1', port: 0, certPem: cert.certPem, keyPem: cert.keyPem, initialMtu: INITIAL_MTU });
  const fromClient: Buffer[] = [];
  const serverPayloadBytes: number[] = [];
  let open = false;
  const relay = await startUdpRelay(server.port, (isClient, payload) => {
    if (isClient) fromClient.push(Buffer.from(payload));
    else if (open) serverPayloadBytes.push(payload.length);
  });
  try {
    const accepted = server.accept();
    const clientSession = await QuicClient.connect(`https://127.0.0.1:${relay.port}/cid`, { certSha256Hex: cert.certSha256Hex, ...client });
    const serverSession = await accepted;
    assert.ok(serverSession);
    open = true;
    try {
      const maxDatagramBytes = serverSession.maxDatagramSize();
      for (let i = 0; i < DATAGRAMS; i++) assert.equal(serverSession.sendDatagram(Buffer.alloc(maxDatagramBytes, i)), true);
      const received = await receiveDatagrams(clientSession, DATAGRAMS);
      assert.equal(received.length, DATAGRAMS, 'every datagram arrives on an idle loopback');
      return { clientInitial: fromClient[0]!, serverPayloadBytes, maxDatagramBytes };
    } finally {
      clientSession.close(0, 'test done');
    }
  } finally {
    relay.close();
    server.close();
  }
}

test('connectionIdBytes: 0 makes the client issue zero-length connection IDs; the default stays 8', async () => {
  assert.equal(longHeaderScidBytes((await observe({ connectionIdBytes: 0 })).clientInitial), 0);
  assert.equal(longHeaderScidBytes((await observe({})).clientInitial), 8);
});

test('with a zero-length client CID a full-size datagram costs at most 24 B of QUIC and the UDP payload stays within the MTU', async () => {
  const lean = await observe({ connectionIdBytes: 0 });
  const reference = await observe({ connectionIdBytes: 8 });
  // The 8 bytes the client's CID no longer takes go to the application's datagrams.
  assert.equal(lean.maxDatagramBytes - reference.maxDatagramBytes, 8);
  // Every full-size datagram went out in a packet of its own, the largest the server sent once the session was open.
  assert.ok(lean.serverPayloadBytes.filter((b) => b > lean.maxDatagramBytes).length >= DATAGRAMS, 'a packet per datagram');
  const largest = Math.max(...lean.serverPayloadBytes);
  assert.ok(largest <= INITIAL_MTU, `largest UDP payload ${largest} B within the ${INITIAL_MTU} B MTU`);
  const overhead = largest - lean.maxDatagramBytes;
  assert.ok(overhead > 0 && overhead <= MAX_OVERHEAD_ZERO_CID, `QUIC bytes around a full-size datagram: ${overhead}`);
  // The check can fail: with the client's 8-byte CIDs the same packet carries 8 bytes more.
  const referenceOverhead = Math.max(...reference.serverPayloadBytes) - reference.maxDatagramBytes;
  assert.ok(referenceOverhead >= MIN_OVERHEAD_8_BYTE_CID, `QUIC bytes around a full-size datagram with 8-byte CIDs: ${referenceOverhead}`);
});

test('connectionIdBytes beyond 20 is refused with a clear error', async () => {
  await assert.rejects(QuicClient.connect('https://127.0.0.1:9/x', { certSha256Hex: '00'.repeat(32), connectionIdBytes: 21 }),
    /connectionIdBytes must be between 0 and 20, got 21/);
});
