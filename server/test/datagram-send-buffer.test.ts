// The origin's --datagram-send-buffer-bytes: honoured, and a full buffer makes the send loop wait, never lose what it
// stamped sent. quinn's plain send_datagram drops the OLDEST queued datagram when its buffer is full; the addon polls
// send_datagram_wait once instead (server/native/src/poll_once.rs) and the sender keeps what QUIC refused for its next
// turn (datagram-sender.ts). A datagram dropped after its stamp would be lost to the controller and retransmitted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { MIN_DATAGRAM_BUFFER_BYTES } from '@pcc-stream/quic';
import { PccClient } from '../src/client/pcc-client.ts';
import { makeMedia, startOrigin, type MediaFixture } from './helpers.ts';

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');
let media: MediaFixture;

before(() => {
  media = makeMedia({ 'a.bin': 3_000_000 });
});

after(() => media?.cleanup());


/** One 3 MB fetch at a fixed 100 Mbit/s from an origin started with `args`; the session's counters at its end. */
async function fetchThrough(args: string[]): Promise<Record<string, string | number>> {
  const origin = await startOrigin(media.dir, args);
  try {
    const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc: 'fixed', params: { rate_bps: 100e6 } });
    try {
      const r = await client.fetch('/a.bin');
      assert.equal(r.status, 200);
      assert.deepEqual(Buffer.from(r.body!), media.files.get('a.bin')!.bytes, 'the body arrives intact');
      const { session_list: sessions } = await origin.status();
      assert.equal(sessions.length, 1);
      return sessions[0]!;
    } finally {
      client.close();
    }
  } finally {
    await origin.stop();
  }
}

// --pacer loop: the send loop hands datagrams to QUIC itself and counts each refusal (backpressure_events); with the
// addon's pacer (the default) the pacer thread retries a full buffer itself and the sender never sees it.
test(`a ${MIN_DATAGRAM_BUFFER_BYTES}-byte datagram send buffer fills (the flag is honoured) and loses no datagram the origin stamped sent`, { timeout: 120_000 }, async (t) => {
  const small = await fetchThrough(['--pacer', 'loop', '--datagram-send-buffer-bytes', String(MIN_DATAGRAM_BUFFER_BYTES)]);
  t.diagnostic(`small buffer: ${JSON.stringify(small)}`);
  // A 1 ms pacing burst at 100 Mbit/s is ~12.5 KB, three times the buffer: QUIC refuses part of some batch.
  assert.ok(Number(small.backpressure_events) > 0, 'QUIC never refused a datagram: the small buffer was not applied');
  // Had quinn dropped queued datagrams to make room, the ones it dropped were stamped sent and never arrive: the
  // controller's tracker declares them lost and the sender retransmits their chunks.
  assert.equal(small.packets_lost, 0, 'datagrams stamped sent were lost');
  assert.equal(small.retransmitted_bytes, 0);

  // A 4 MiB buffer holds the whole 3 MB body: QUIC never refuses, so the refusals above came from the flag.
  const large = await fetchThrough(['--pacer', 'loop', '--datagram-send-buffer-bytes', String(4 * 1024 * 1024)]);
  t.diagnostic(`4 MiB buffer: ${JSON.stringify(large)}`);
  assert.equal(large.backpressure_events, 0, 'a 4 MiB buffer refused datagrams');
});

test(`--pacer addon with a ${MIN_DATAGRAM_BUFFER_BYTES}-byte send buffer: the pacer thread waits for room and loses no datagram it stamped sent`, { timeout: 120_000 }, async (t) => {
  const small = await fetchThrough(['--pacer', 'addon', '--datagram-send-buffer-bytes', String(MIN_DATAGRAM_BUFFER_BYTES)]);
  t.diagnostic(`small buffer, addon pacer: ${JSON.stringify(small)}`);
  assert.equal(small.pacer, 'addon');
  assert.equal(small.packets_lost, 0, 'datagrams stamped sent were lost');
});

test('origin CLI: --datagram-send-buffer-bytes outside the addon\'s bounds is a usage error', () => {
  for (const value of ['4095', '268435457', '65536.5', 'big']) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/origin-main.ts', '--datagram-send-buffer-bytes', value],
      { cwd: serverDir, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 2, value);
    assert.match(r.stderr, /--datagram-send-buffer-bytes must be (an integer from 4096 to 268435456 \(bytes\)|a number), got/, value);
  }
});
