// The origin with --pacer addon (the QUIC addon's pacer thread sends each datagram at its due time), end to end over
// loopback with the Node client: objects arrive bit-exact under vivace and a fixed rate, a client's abort mid-transfer
// frees its request (its datagrams already handed to the pacer depart and are accounted, then acknowledged), and the
// session goes on.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PccClient } from '../src/client/pcc-client.ts';
import { abortMidTransfer, fetchHash, makeMedia, startOrigin, waitFor, type MediaFixture, type RunningOrigin } from './helpers.ts';

let media: MediaFixture;
let origin: RunningOrigin;

before(async () => {
  media = makeMedia({ 'big.bin': 20_000_000, 'seg.m4s': 1_000_000 });
  origin = await startOrigin(media.dir, ['--cc', 'vivace', '--pacer', 'addon']);
});

after(async () => {
  await origin?.stop();
  media?.cleanup();
});

/** The pacer the origin's status names for `client`'s session: the flag reached the sender, not only the CLI. */
async function sessionPacer(client: PccClient): Promise<unknown> {
  return (await origin.status()).session_list.find((x) => x.id === client.quic.id)?.pacer;
}

test('--pacer addon: objects arrive bit-exact under vivace and at a fixed rate', { timeout: 120_000 }, async () => {
  for (const [cc, params] of [['vivace', {}], ['fixed', { rate_bps: 200e6 }]] as const) {
    const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc, params });
    try {
      const r = await fetchHash(client, '/big.bin');
      assert.equal(r.status, 200, cc);
      assert.equal(await sessionPacer(client), 'addon', cc);
      assert.equal(r.bytes, 20_000_000, cc);
      assert.equal(r.sha, media.files.get('big.bin')!.sha256, cc);
    } finally {
      client.close();
    }
  }
});

test('--pacer addon: an abort mid-transfer frees the request and nothing stays in flight; the session goes on', { timeout: 60_000 }, async () => {
  const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc: 'fixed', params: { rate_bps: 50e6 } });
  try {
    // Released means acknowledged too: the datagrams already handed to the pacer departed and were accounted.
    assert.ok((await abortMidTransfer(origin, client, '/big.bin', 10_000)).aborted);
    const next = await fetchHash(client, '/seg.m4s');
    assert.equal(next.status, 200);
    assert.equal(next.sha, media.files.get('seg.m4s')!.sha256);
  } finally {
    client.close();
  }
  await waitFor(async () => (await origin.status()).sessions === 0, 10_000, 'the session to be released');
});
