// End to end over loopback: an origin child process and the Node client.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { QUIC_CONTROLLERS, WASM_CONTROLLERS } from '@pcc-stream/protocol';
import { PccClient } from '../src/client/pcc-client.ts';
import { abortMidTransfer, fetchHash, makeMedia, sha256, startOrigin, waitFor, type MediaFixture, type RunningOrigin } from './helpers.ts';

let media: MediaFixture;
let origin: RunningOrigin;
const logDir = mkdtempSync(join(tmpdir(), 'pcc-server-logs-'));

before(async () => {
  const sizes: Record<string, number> = { 'big.bin': 50_000_000, 'mid.bin': 5_000_000, 'empty.bin': 0 };
  for (let i = 0; i < 20; i++) sizes[`seg/seg-${i}.m4s`] = 1_000_000 + i * 1000;
  media = makeMedia(sizes);
  origin = await startOrigin(media.dir, ['--cc', 'vivace', '--log-dir', logDir]);
});

after(async () => {
  await origin?.stop();
  media?.cleanup();
  rmSync(logDir, { recursive: true, force: true });
});

// Controllers whose loopback behaviour would make 50 MB take minutes get a rate floor (their own
// min_rate_bps parameter): this test is about delivery being bit-exact under each controller's pacing.
const controllerParams: Record<string, Record<string, number>> = {
  fixed: { rate_bps: 400e6 },
  pcp: { min_rate_bps: 50e6 },
};

test('a 50 MB object arrives bit-exact with every controller', { timeout: 600_000 }, async (t) => {
  const expected = media.files.get('big.bin')!.sha256;
  for (const cc of WASM_CONTROLLERS) {
    const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc, params: controllerParams[cc] ?? {} });
    const started = performance.now();
    try {
      const r = await fetchHash(client, '/big.bin');
      const seconds = (performance.now() - started) / 1000;
      t.diagnostic(`${cc}: ${(r.bytes * 8 / seconds / 1e6).toFixed(1)} Mbit/s, ${r.retransmitted} B retransmitted`);
      assert.equal(r.status, 200, cc);
      assert.equal(r.bytes, 50_000_000, cc);
      assert.equal(r.sha, expected, cc);
    } finally {
      client.close();
    }
  }
});

test('20 concurrent clients each get their segments bit-exact', { timeout: 180_000 }, async () => {
  const clients = await Promise.all(Array.from({ length: 20 }, () => PccClient.connect(origin.origin, { certSha256Hex: origin.certHash })));
  try {
    const results = await Promise.all(clients.map(async (c, i) => {
      const a = await fetchHash(c, `/seg/seg-${i}.m4s`);
      const b = await fetchHash(c, `/seg/seg-${(i + 7) % 20}.m4s`);
      return [a, b, i] as const;
    }));
    for (const [a, b, i] of results) {
      assert.equal(a.sha, media.files.get(`seg/seg-${i}.m4s`)!.sha256);
      assert.equal(b.sha, media.files.get(`seg/seg-${(i + 7) % 20}.m4s`)!.sha256);
    }
    const status = await origin.status();
    assert.ok(status.sessions >= 20);
  } finally {
    for (const c of clients) c.close();
  }
  await waitFor(async () => (await origin.status()).sessions === 0, 10_000, 'sessions to be released');
});

test('concurrent requests on one session, a byte range, an empty file', async () => {
  const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash });
  try {
    const [a, b, c] = await Promise.all([client.fetch('/seg/seg-1.m4s'), client.fetch('/seg/seg-2.m4s'), client.fetch('/mid.bin', { range: { start: 1000, end: 1_000_999 } })]);
    assert.equal(sha256(a.body!), media.files.get('seg/seg-1.m4s')!.sha256);
    assert.equal(sha256(b.body!), media.files.get('seg/seg-2.m4s')!.sha256);
    assert.equal(c.status, 206);
    assert.equal(c.bodyOffset, 1000);
    assert.deepEqual(Buffer.from(c.body!), media.files.get('mid.bin')!.bytes.subarray(1000, 1_001_000));
    const empty = await client.fetch('/empty.bin');
    assert.equal(empty.status, 200);
    assert.equal(empty.bytes, 0);
    assert.ok(empty.done);
    const missing = await client.fetch('/nope.bin');
    assert.equal(missing.status, 404);
  } finally {
    client.close();
  }
});

test('a client aborting mid-transfer frees the request; the session goes on', async () => {
  const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc: 'fixed', params: { rate_bps: 50e6 } });
  try {
    const r = await abortMidTransfer(origin, client, '/big.bin');
    assert.ok(r.aborted);
    assert.ok(r.bytes < 50_000_000);
    const next = await fetchHash(client, '/seg/seg-3.m4s');
    assert.equal(next.sha, media.files.get('seg/seg-3.m4s')!.sha256);
  } finally {
    client.close();
  }
  await waitFor(async () => (await origin.status()).sessions === 0, 10_000, 'the session to be released');
  const status = await origin.status();
  assert.equal(status.send_loop_members, 0, 'the send loop forgets closed sessions');
});

test('QUIC-stream baseline under each of quinn\'s controllers (cubic, bbr, newreno)', async () => {
  for (const cc of QUIC_CONTROLLERS) {
    const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, transport: 'quic-stream', cc });
    try {
      const r = await fetchHash(client, '/mid.bin');
      assert.equal(r.sha, media.files.get('mid.bin')!.sha256, cc);
      assert.equal(client.quic.stats().congestion, 'none', 'the client side keeps its own controller');
    } finally {
      client.close();
    }
  }
});

test('telemetry: live feed per MI and a JSONL log per session', async () => {
  const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc: 'vivace' });
  const records: Array<Record<string, unknown>> = [];
  try {
    const stop = await client.telemetry((r) => records.push(r));
    await fetchHash(client, '/mid.bin');
    await waitFor(() => records.length >= 2, 5000, 'telemetry lines');
    stop();
  } finally {
    client.close();
  }
  for (const key of ['t_ms', 'algorithm', 'state', 'rate_bps', 'utility', 'srtt_us', 'loss_rate', 'mi']) assert.ok(key in records[0]!, key);
  assert.equal(records[0]!.algorithm, 'vivace');
  await waitFor(() => readdirSync(logDir).some((f) => f.includes(`session-${client.quic.id}-vivace`)), 5000, 'the log file');
  const file = readdirSync(logDir).find((f) => f.includes(`session-${client.quic.id}-vivace`))!;
  const lines = readFileSync(join(logDir, file), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.ok(lines.length >= 2);
  assert.ok(lines.every((l) => typeof l.rate_bps === 'number' && typeof l.t_ms === 'number'));
});

test('bad session parameters close the session with code 6 and a reason', async () => {
  for (const [params, cc, pattern] of [[{}, 'reno', /cc=reno/], [{ no_such_param: 1 }, 'vivace', /no_such_param/], [{ rate_bps: -5 }, 'fixed', /rate_bps/]] as const) {
    const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc, params });
    const closed = await Promise.race([client.quic.closed(), new Promise<null>((r) => setTimeout(() => r(null), 5000))]);
    assert.ok(closed, `session with cc=${cc} ${JSON.stringify(params)} was not closed`);
    assert.equal(closed.code, 6);
    assert.match(closed.reason, pattern);
    client.close();
  }
  // A datagram controller's name is not a QUIC congestion controller: a clear refusal, not a throw in onSession.
  const stream = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, transport: 'quic-stream', cc: 'vivace' });
  const closed = await Promise.race([stream.quic.closed(), new Promise<null>((r) => setTimeout(() => r(null), 5000))]);
  assert.ok(closed, 'session with transport=quic-stream&cc=vivace was not closed');
  assert.equal(closed.code, 6);
  assert.match(closed.reason, /cc=vivace is not one of cubic, bbr, newreno for transport=quic-stream/);
  stream.close();
  assert.ok((await origin.status()).sessions >= 0, 'the origin still answers');
});
