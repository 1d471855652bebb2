// The origin asks its clients, with QUIC's ACK-frequency extension, to acknowledge every 16th packet rather than every
// second (--quic-ack-frequency, on by default): the Node client, whose quinn advertises the extension, is asked once
// per session; with the option off nobody is.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PccClient } from '../src/client/pcc-client.ts';
import { makeMedia, startOrigin, type MediaFixture } from './helpers.ts';

let media: MediaFixture;

before(() => {
  media = makeMedia({ 'a.bin': 2_000_000 });
});

after(() => media?.cleanup());

/** Fetches a.bin over a datagram session and returns what /status says about the request and that session. */
async function askedWith(args: string[]): Promise<{ requested: unknown; framesSent: unknown }> {
  const origin = await startOrigin(media.dir, args);
  try {
    const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash });
    try {
      const r = await client.fetch('/a.bin');
      assert.equal(r.bytes, 2_000_000);
      const status = await origin.status();
      const sessions = status.session_list.filter((s) => s.transport === 'datagram');
      assert.equal(sessions.length, 1);
      return { requested: (status as Record<string, unknown>).request_ack_frequency, framesSent: sessions[0]!.quic_ack_frequency_frames_sent };
    } finally {
      client.close();
    }
  } finally {
    await origin.stop();
  }
}

test('by default the origin asks its QUIC clients for fewer ACKs; --quic-ack-frequency off asks nobody', async () => {
  const byDefault = await askedWith([]);
  assert.equal(byDefault.requested, true);
  assert.ok(Number(byDefault.framesSent) >= 1, `ACK_FREQUENCY frames sent to the Node client: ${String(byDefault.framesSent)}`);
  assert.deepEqual(await askedWith(['--quic-ack-frequency', 'off']), { requested: false, framesSent: 0 });
});
