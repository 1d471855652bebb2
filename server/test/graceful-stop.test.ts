// Graceful stop (issue 20 item 4): SIGTERM makes the origin refuse new sessions, finish the segments it is sending
// (new requests wait unanswered), close the sessions with a reason once done or at --drain-ms, and exit 0.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CLOSE_SERVER_SHUTDOWN } from '@pcc-stream/protocol';
import { startOriginProcess, type OriginProcess } from '../src/cli/origin-process.ts';
import { PccClient } from '../src/client/pcc-client.ts';
import { makeMedia, waitFor, type MediaFixture } from './helpers.ts';

let media: MediaFixture;
const SEGMENT_BYTES = 2_000_000;

before(() => {
  media = makeMedia({ 'seg.bin': SEGMENT_BYTES, 'next.bin': 10_000 });
});

after(() => media?.cleanup());

async function origin(drainMs: number, extraArgs: string[] = []): Promise<OriginProcess> {
  return startOriginProcess({ mediaDir: media.dir, extraArgs: ['--drain-ms', String(drainMs), ...extraArgs], env: { ...process.env, PCC_LOG_LEVEL: 'info' } });
}

/** Starts fetching seg.bin at `rateBps` and resolves once its first bytes arrived (the request is in flight). */
async function fetchInFlight(client: PccClient): Promise<{ done: Promise<{ status: number; bytes: number; sha: string }> }> {
  const hash = createHash('sha256');
  let firstBytes: () => void = () => {};
  const started = new Promise<void>((resolve) => { firstBytes = resolve; });
  const done = client.fetch('/seg.bin', { onData: (chunk) => { hash.update(chunk); firstBytes(); } })
    .then((r) => ({ status: r.status, bytes: r.bytes, sha: hash.digest('hex') }));
  done.catch(() => undefined);
  await Promise.race([started, done]);
  return { done };
}

function logLines(output: string, event: string): Array<Record<string, unknown>> {
  return output.split('\n').filter((l) => l.includes(`"${event}"`)).map((l) => JSON.parse(l) as Record<string, unknown>);
}

test('SIGTERM: the segment in flight finishes bit-exact, new requests and sessions are not served, the session closes with a reason, exit 0', { timeout: 60_000 }, async () => {
  const logDir = mkdtempSync(join(tmpdir(), 'pcc-graceful-stop-'));
  const server = await origin(20_000, ['--log-dir', logDir]);
  const client = await PccClient.connect(`https://127.0.0.1:${server.webTransportPort}`, { certSha256Hex: server.certHashHex, cc: 'fixed', params: { rate_bps: 8e6 } });
  try {
    const inFlight = await fetchInFlight(client); // 2 MB at 8 Mbit/s: ~2 s
    const sigtermAt = Date.now();
    const exited = server.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    // A request made during the drain waits unanswered and fails with the session's close (the player asks it again
    // on its next session).
    const later = client.fetch('/next.bin');
    later.catch(() => undefined);
    // A new session is refused with the reason.
    const refused = await PccClient.connect(`https://127.0.0.1:${server.webTransportPort}`, { certSha256Hex: server.certHashHex, cc: 'fixed', params: { rate_bps: 8e6 }, connectTimeoutMs: 3000 })
      .then(async (c) => {
        try {
          await c.fetch('/next.bin');
          return 'served';
        } catch (error) {
          return (error as Error).message;
        } finally {
          c.close();
        }
      }, (error: unknown) => (error as Error).message);
    // Refused at once: its request fails with the close (code 5: server shutting down), the reset that precedes it,
    // or, when the close lands before the request goes out, a session already closed (on a busy machine the close
    // capsule can lose its race with web-transport-quinn's forced close, and the reason text with it).
    assert.match(refused, /shutting down|reset|session closed/i, `a new session during the drain: ${refused}`);
    assert.notEqual(refused, 'served');
    const first = await inFlight.done;
    assert.equal(first.status, 200);
    assert.equal(first.bytes, SEGMENT_BYTES);
    assert.equal(first.sha, media.files.get('seg.bin')?.sha256, 'the segment in flight arrived bit-exact');
    // The request made during the drain was never answered: it fails with the session's close (or the stream reset
    // that arrives just before it), and the session was closed with the reason.
    await assert.rejects(later, /session closed|reset/);
    assert.equal(await exited, 0, 'exit code 0 after a drain');
    await waitFor(() => client.closeInfo !== null, 10_000, 'the close to reach the client');
    assert.deepEqual(client.closeInfo, { code: CLOSE_SERVER_SHUTDOWN, reason: 'server shutting down' });
    const tookMs = Date.now() - sigtermAt;
    // The segment takes ~2 s; a deadline of 20 s leaves a loaded machine room, and a drain that waited for it fails.
    assert.ok(tookMs < 15_000, `the drain ended when the segment was done, not at its deadline (${tookMs} ms)`);
    const output = server.output();
    const [drained] = logLines(output, 'origin.drained');
    assert.ok(drained, output.slice(-2000));
    assert.equal(drained.requests_unfinished, 0);
    assert.ok(logLines(output, 'session.refused').some((l) => l.kind === 'shutting-down'), 'the refused session is logged with its kind');
    // The exit waited for the session's telemetry file: its last line is whole.
    const files = readdirSync(logDir).filter((f) => f.endsWith('-fixed.jsonl'));
    assert.equal(files.length, 1, `one telemetry file for the served session: ${readdirSync(logDir).join(', ')}`);
    const telemetry = readFileSync(join(logDir, files[0]!), 'utf8');
    assert.ok(telemetry.endsWith('\n'), 'the last telemetry line is whole');
    const last = JSON.parse(telemetry.trimEnd().split('\n').at(-1)!) as { sent_bytes: number };
    assert.ok(last.sent_bytes > 0);
  } finally {
    client.close();
    await server.stop();
    rmSync(logDir, { recursive: true, force: true });
  }
});

test('SIGTERM: a segment that cannot finish within --drain-ms is cut at the deadline and its session closed with the reason', { timeout: 60_000 }, async () => {
  const server = await origin(500);
  const client = await PccClient.connect(`https://127.0.0.1:${server.webTransportPort}`, { certSha256Hex: server.certHashHex, cc: 'fixed', params: { rate_bps: 1e6 } });
  try {
    const inFlight = await fetchInFlight(client); // 2 MB at 1 Mbit/s: ~16 s
    const sigtermAt = Date.now();
    const exited = server.kill('SIGTERM');
    await assert.rejects(inFlight.done, /session closed|reset/);
    assert.equal(await exited, 0);
    await waitFor(() => client.closeInfo !== null, 10_000, 'the close to reach the client');
    assert.deepEqual(client.closeInfo, { code: CLOSE_SERVER_SHUTDOWN, reason: 'server shutting down' });
    const tookMs = Date.now() - sigtermAt;
    // Not before the deadline, and long before the segment could finish (~16 s at 1 Mbit/s, more on a loaded machine).
    assert.ok(tookMs >= 450 && tookMs < 10_000, `closed at the 500 ms deadline (${tookMs} ms)`);
    const [drained] = logLines(server.output(), 'origin.drained');
    assert.equal(drained?.requests_unfinished, 1);
  } finally {
    client.close();
    await server.stop();
  }
});
