// The origin with --pacer addon (the QUIC addon's pacer thread sends each datagram at its due time), end to end over
// loopback with the Node client: objects arrive bit-exact under vivace and a fixed rate, a client's abort mid-transfer
// frees its request (its datagrams already handed to the pacer depart and are accounted, then acknowledged), and the
// session goes on.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import { PccClient } from '../src/client/pcc-client.ts';
import { abortMidTransfer, makeMedia, startOrigin, waitFor, type MediaFixture, type RunningOrigin } from './helpers.ts';

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

async function fetchSha(client: PccClient, path: string): Promise<{ sha: string; bytes: number }> {
  const hash = createHash('sha256');
  const r = await client.fetch(path, { onData: (c) => hash.update(c) });
  assert.equal(r.status, 200, path);
  return { sha: hash.digest('hex'), bytes: r.bytes };
}

test('--pacer addon: objects arrive bit-exact under vivace and at a fixed rate', { timeout: 120_000 }, async () => {
  for (const [cc, params] of [['vivace', {}], ['fixed', { rate_bps: 200e6 }]] as const) {
    const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc, params });
    try {
      const r = await fetchSha(client, '/big.bin');
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
    const next = await fetchSha(client, '/seg.m4s');
    assert.equal(next.sha, media.files.get('seg.m4s')!.sha256);
  } finally {
    client.close();
  }
  await waitFor(async () => (await origin.status()).sessions === 0, 10_000, 'the session to be released');
});
