// The Node client's QUIC settings that decide what each origin packet costs on the wire (server/README.md, "QUIC bytes
// per DATA datagram"): it issues zero-length connection IDs (the destination CID of every origin packet) and asks the
// origin, with the ACK-frequency extension, for a QUIC ACK every 16 of its packets. Read off the UDP payloads.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PccClient } from '../src/client/pcc-client.ts';
import { longHeaderScidBytes, startUdpRelay } from '../native/test/udp-relay.ts';
import { makeMedia, startOrigin, type MediaFixture } from './helpers.ts';

let media: MediaFixture;

before(() => {
  media = makeMedia({ 'a.bin': 500_000 });
});

after(() => media?.cleanup());

test('the Node client issues zero-length connection IDs and asks the origin for fewer QUIC ACKs', async () => {
  const origin = await startOrigin(media.dir, []);
  const fromClient: Buffer[] = [];
  const relay = await startUdpRelay(origin.quicPort, (isClient, payload) => {
    if (isClient && fromClient.length === 0) fromClient.push(Buffer.from(payload));
  });
  try {
    const client = await PccClient.connect(`https://127.0.0.1:${relay.port}`, { certSha256Hex: origin.certHash });
    try {
      assert.equal((await client.fetch('/a.bin')).bytes, 500_000);
      assert.equal(longHeaderScidBytes(fromClient[0]!), 0);
      assert.ok(client.quic.stats().ackFrequencyFramesSent >= 1, `ACK_FREQUENCY frames: ${client.quic.stats().ackFrequencyFramesSent}`);
    } finally {
      client.close();
    }
  } finally {
    relay.close();
    await origin.stop();
  }
});
