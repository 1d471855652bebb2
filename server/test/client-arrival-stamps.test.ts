// The Node client dates each DATA datagram by when the QUIC addon took it off the connection, not by when its event
// loop read the batch: a datagram that waited behind a busy loop is acknowledged with an ACK delay that covers the
// wait, so the sender removes it from its RTT sample (PROTOCOL.md §3.2). Real QUIC over loopback, the real PccClient;
// the server end is the bare addon, sending DATA and reading the client's ACKs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeAckDatagram, encodeDataDatagram, type AckDatagram } from '@pcc-stream/protocol';
import { QuicServer, generateSelfSignedCert } from '@pcc-stream/quic';
import { PccClient } from '../src/client/pcc-client.ts';

const GAP_MS = 10;
const BLOCK_MS = 60;

/** Busy-waits: the event loop is blocked, as under a long synchronous task. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

test(`a DATA datagram that waited ${BLOCK_MS} ms for the client's event loop is acknowledged with that wait as ACK delay`, { timeout: 30_000 }, async () => {
  const cert = generateSelfSignedCert(['127.0.0.1'], 1);
  const server = await QuicServer.bind({ host: '127.0.0.1', port: 0, certPem: cert.certPem, keyPem: cert.keyPem });
  const accepted = server.accept();
  const client = await PccClient.connect(`https://127.0.0.1:${server.port}`, { certSha256Hex: cert.certSha256Hex });
  const session = (await accepted)!;
  try {
    // DATA for a request the client never opened: acknowledged all the same (PROTOCOL.md §4), then dropped.
    const data = (packetNumber: number): Uint8Array =>
      encodeDataDatagram({ requestId: 7, packetNumber, offset: packetNumber * 100, payload: new Uint8Array(100) });
    // Packet 0 completes the client's pending read; packet 1 arrives GAP_MS later, while the loop is blocked and no
    // read is pending, and waits in the addon until the loop is free again.
    assert.equal(session.sendDatagram(data(0)), true);
    block(GAP_MS);
    const sentSecondAtNs = Number(process.hrtime.bigint());
    assert.equal(session.sendDatagram(data(1)), true);
    block(BLOCK_MS);
    const unblockedAtNs = Number(process.hrtime.bigint());

    let ack: AckDatagram | null = null;
    const deadline = Date.now() + 5000;
    while (ack === null && Date.now() < deadline) {
      const batch = await session.recvDatagramsTimed(16);
      for (const d of batch.datagrams) {
        const decoded = decodeAckDatagram(d);
        assert.ok(decoded.ok, 'the client sends only ACKs');
        if (decoded.value.ranges[0]!.largest === 1) ack = decoded.value;
      }
    }
    assert.ok(ack, 'packet 1 was acknowledged');
    // The loop was blocked from the second send until unblockedAtNs; the datagram arrived within a few ms of the send
    // (half the block is left for a loaded machine's addon thread to stamp it late).
    const heldAtLeastUs = (unblockedAtNs - sentSecondAtNs) / 1000 / 2;
    // Stamped when the loop read it, the delay would be the time from that read to the ACK: well under a millisecond
    // plus at most the 0.5 ms delayed-ACK timer.
    assert.ok(ack.ackDelayUs >= heldAtLeastUs, `ACK delay ${ack.ackDelayUs} µs; the datagram waited ≥ ${heldAtLeastUs} µs for the loop`);
  } finally {
    client.close();
    server.close();
  }
});
