// A request whose session ends mid-body (the peer going away, the origin shutting down) is reported `interrupted`,
// never `complete`: in its request.done line, the session's requests_interrupted, and the prefetch counters a bench run
// reads (prefetch_totals). Both transports (datagrams, quic-stream). The internal-error closes are checked in
// out-of-order-send.test.ts. The real origin in this process, real QUIC over loopback, the Node client.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLOSE_SERVER_SHUTDOWN } from '@pcc-stream/protocol';
import { PccClient } from '../src/client/pcc-client.ts';
import { Origin } from '../src/origin.ts';
import type { OriginSession } from '../src/session/origin-session.ts';
import { captureLogLines, makeMedia, waitFor } from './helpers.ts';

const BODY_BYTES = 20_000_000;

/**
 * One session fetches a 20-MB early request (at 20 Mbit/s over datagrams: 8 s) and `cut` ends it once the first body
 * bytes arrived. Returns the request's request.done line and the origin's prefetch_totals.
 */
async function cutMidBody(
  transport: 'datagram' | 'quic-stream',
  cut: (ctx: { origin: Origin; client: PccClient }) => void,
): Promise<{ done: Record<string, unknown>; session: OriginSession; totals: Record<string, number> }> {
  const media = makeMedia({ 'a.bin': BODY_BYTES });
  const { lines: logLines, restore } = captureLogLines();
  const origin = await Origin.start({ mediaDir: media.dir, port: 0, httpPort: null, httpsPort: null, tcpPort: null });
  let client: PccClient | null = null;
  try {
    client = await PccClient.connect(`https://127.0.0.1:${origin.quicServer.port}`, {
      certSha256Hex: origin.certSha256Hex, transport, ...(transport === 'datagram' ? { cc: 'fixed', params: { rate_bps: 20e6 } } : {}),
    });
    await waitFor(() => origin.sessions.size === 1, 10_000, 'the session');
    const session: OriginSession = [...origin.sessions.values()][0]!;
    let received = 0;
    const c = client;
    const fetched = c.fetch('/a.bin?pcc-prefetch=1', {
      onData: (chunk) => {
        if (received === 0) cut({ origin, client: c });
        received += chunk.byteLength;
      },
    });
    await fetched.catch(() => undefined); // the client's view is not what is checked here
    await waitFor(() => session.requestsServed === 1, 10_000, 'the request to end at the origin');
    assert.ok(received < BODY_BYTES, `${received} B received: the cut came too late to test anything`);
    const done = logLines.filter((l) => l['event'] === 'request.done');
    assert.equal(done.length, 1);
    const totals = origin.status()['prefetch_totals'] as Record<string, number>;
    return { done: done[0]!, session, totals };
  } finally {
    client?.close();
    await origin.stop();
    restore();
    media.cleanup();
  }
}

function assertInterrupted(r: { done: Record<string, unknown>; session: OriginSession; totals: Record<string, number> }, why: RegExp): void {
  assert.equal(r.done['outcome'], 'interrupted', 'a request its session ended under is not complete');
  assert.match(String(r.done['why']), why);
  const sent = r.done['body_bytes_sent'] as number;
  assert.ok(sent > 0 && sent < BODY_BYTES, `${sent} B sent`);
  assert.equal(r.session.requestsInterrupted, 1);
  assert.equal(r.totals['prefetch_requests'], 1);
  assert.equal(r.totals['prefetch_cancelled'], 0, 'not a cancel either: the player asked for nothing of the kind');
  assert.equal(r.totals['prefetch_interrupted'], 1);
  assert.equal(r.totals['prefetch_interrupted_bytes_sent'], sent);
}

for (const transport of ['datagram', 'quic-stream'] as const) {
  test(`${transport}: the client closing its session mid-body leaves its request interrupted, not complete`, { timeout: 60_000 }, async () => {
    const r = await cutMidBody(transport, ({ client }) => client.close(0, 'went away'));
    assertInterrupted(r, /session closed/);
  });

  test(`${transport}: the origin shutting down mid-body leaves its request interrupted, with the shutdown's reason`, { timeout: 60_000 }, async () => {
    let stopped: Promise<void> | null = null;
    const r = await cutMidBody(transport, ({ origin }) => {
      stopped = origin.stop();
    });
    await stopped;
    assertInterrupted(r, new RegExp(`^session closed \\(code ${CLOSE_SERVER_SHUTDOWN}: server shutting down\\)$`));
  });
}
