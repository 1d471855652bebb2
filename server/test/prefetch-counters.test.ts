// The origin's count of the player's early requests (issue 18 item 5, PROTOCOL.md §2.6's `pcc-prefetch=1` mark):
// per session in /status, how many were served, how many cancelled and the body bytes it sent for those cancelled; the
// origin-wide totals (QUIC sessions and kernel-TCP connections, closed ones included) in /status prefetch_totals.
import assert from 'node:assert/strict';
import { get as httpGet } from 'node:http';
import { after, before, test } from 'node:test';
import { withPrefetchMark } from '@pcc-stream/protocol';
import { PccClient } from '../src/client/pcc-client.ts';
import { makeMedia, startOrigin, waitFor, type MediaFixture, type RunningOrigin } from './helpers.ts';

let media: MediaFixture;
let origin: RunningOrigin;

before(async () => {
  media = makeMedia({ 'v/seg-1.m4s': 4_000_000, 'v/seg-2.m4s': 100_000, 'v/big.m4s': 40_000_000, 'v/small.m4s': 1_000_000 });
  origin = await startOrigin(media.dir, ['--cc', 'fixed']);
});

after(async () => {
  await origin?.stop();
  media?.cleanup();
});

test('/status and the telemetry lines count early requests, those cancelled and the bytes sent for them; unmarked requests are not counted', async () => {
  // 20 Mbit/s: the 4 MB body takes 1.6 s, so a cancel after 0.4 s leaves most of it unsent.
  const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc: 'fixed', params: { rate_bps: 20e6 } });
  const lines: Array<Record<string, unknown>> = [];
  const stopTelemetry = await client.telemetry((record) => lines.push(record as Record<string, unknown>));
  try {
    assert.equal((await client.fetch('/v/seg-2.m4s')).status, 200);
    assert.ok(lines.every((l) => l.prefetch_requests === undefined), 'no prefetch fields before an early request');
    assert.equal((await client.fetch(withPrefetchMark('/v/seg-2.m4s'))).status, 200);
    const abort = new AbortController();
    let received = 0;
    const cancelled = client.fetch(withPrefetchMark('/v/seg-1.m4s'), { signal: abort.signal, onData: (chunk) => { received += chunk.byteLength; } });
    await waitFor(() => received > 200_000, 5000, 'bytes of the early request');
    abort.abort();
    const r = await cancelled;
    assert.equal(r.aborted, true);
    let row: Record<string, number | string> | undefined;
    await waitFor(async () => {
      row = (await origin.status()).session_list[0];
      return row?.prefetch_cancelled === 1;
    }, 5000, 'the cancel in /status');
    assert.equal(row!.prefetch_requests, 2, 'two marked requests, the unmarked one not counted');
    const sent = row!.prefetch_cancelled_bytes_sent as number;
    assert.ok(sent >= received && sent < 4_000_000, `bytes sent for the cancelled early request: ${sent} (received ${received})`);
    // Lines come while the sender works, every 100 ms for `fixed`: transfers carry the counts out. One 100 kB
    // transfer (~40 ms at 20 Mbit/s) can fall between two lines, so another goes until a line has them.
    const counted = (): boolean => lines.some((l) => l.prefetch_cancelled === 1 && l.prefetch_cancelled_bytes_sent === sent);
    await waitFor(async () => {
      if (!counted()) assert.equal((await client.fetch('/v/seg-2.m4s')).status, 200);
      return counted();
    }, 5000, 'the counts in a telemetry line');
  } finally {
    stopTelemetry();
    client.close();
  }
  // The origin's totals outlive the session: what a benchmark run reads once its players are gone.
  await waitFor(async () => (await origin.status()).sessions === 0, 5000, 'the session to close');
  const totals = (await origin.status()).prefetch_totals as Record<string, number>;
  assert.equal(totals.prefetch_requests, 2);
  assert.equal(totals.prefetch_cancelled, 1);
  assert.ok(totals.prefetch_cancelled_bytes_sent! >= 200_000, `origin-wide cancelled bytes: ${totals.prefetch_cancelled_bytes_sent}`);
});

/** The origin's prefetch_totals once one more early request than in `before` has ended. */
async function totalsAfterOneMore(before: Record<string, number>): Promise<Record<string, number>> {
  let totals: Record<string, number> = {};
  await waitFor(async () => {
    totals = (await origin.status()).prefetch_totals as Record<string, number>;
    return totals.prefetch_requests === before.prefetch_requests! + 1;
  }, 5000, 'the early request in the origin\'s totals');
  return totals;
}

test('the kernel-TCP origin counts the bytes it sent for a cancelled early request, in /status and its totals after the connection closed', async () => {
  const before = (await origin.status()).prefetch_totals as Record<string, number>;
  let received = 0;
  await new Promise<void>((resolve, reject) => {
    const req = httpGet({ host: '127.0.0.1', port: origin.tcpPort, path: withPrefetchMark('/v/big.m4s') }, (res) => {
      res.on('data', (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received > 200_000 && !res.isPaused()) {
          // the player abandons it mid-body; after a pause longer than the origin's TCP_INFO sampling
          // (BYTES_SENT_SAMPLE_MS), so its last sample has what the kernel sent before the receive window closed
          res.pause();
          setTimeout(() => req.destroy(), 100);
        }
      });
      res.on('error', () => undefined);
    });
    req.on('error', () => undefined);
    req.on('close', () => resolve());
    req.on('timeout', () => reject(new Error('no response')));
  });
  const totals = await totalsAfterOneMore(before);
  assert.equal(totals.prefetch_cancelled, before.prefetch_cancelled! + 1);
  const sent = totals.prefetch_cancelled_bytes_sent! - before.prefetch_cancelled_bytes_sent!;
  // the kernel may have sent more than the client read (loopback buffers: 40 MB is more than they hold, so the response
  // was still open when the client left), never less
  assert.ok(sent >= received && sent < 40_000_000, `kernel bytes sent for the cancelled early request: ${sent} (received ${received})`);
  assert.equal(totals.prefetch_requests, before.prefetch_requests! + 1);
});

test('the kernel-TCP origin counts an early response it handed whole to the kernel as cancelled when the client leaves before the kernel sent it', async () => {
  const before = (await origin.status()).prefetch_totals as Record<string, number>;
  // The client reads the headers and nothing more: the kernel takes the 1 MB body into its send buffer (the origin
  // has written it all) but can send only a receive window of it.
  await new Promise<void>((resolve) => {
    const req = httpGet({ host: '127.0.0.1', port: origin.tcpPort, path: withPrefetchMark('/v/small.m4s') }, (res) => {
      res.pause();
      setTimeout(() => req.destroy(), 1000);
    });
    req.on('error', () => undefined);
    req.on('close', () => resolve());
  });
  const totals = await totalsAfterOneMore(before);
  const sent = totals.prefetch_cancelled_bytes_sent! - before.prefetch_cancelled_bytes_sent!;
  assert.equal(totals.prefetch_cancelled, before.prefetch_cancelled! + 1, 'cancelled, not complete');
  assert.ok(sent > 0 && sent < 1_000_000, `kernel bytes sent for the cancelled early request: ${sent}`);
});
