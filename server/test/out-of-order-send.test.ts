// A bug of ours caught in one session (a datagram sent after a higher packet number: OUT_OF_ORDER_SEND; an exception
// while processing its ACKs) ends that session with its name: an error-level log line, the close reason, and a failed
// request at its client, never a hang nor the process's end. Another session of the same origin is served intact.
// The request the close cut off is reported `interrupted` (request.done, the prefetch counters), never `complete`.
// The real origin in this process (the bug is planted in its session), real QUIC over loopback, the Node client.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLOSE_PROTOCOL_VIOLATION } from '@pcc-stream/protocol';
import { nowUs } from '../src/clock.ts';
import { PccClient } from '../src/client/pcc-client.ts';
import { OUT_OF_ORDER_SEND } from '../src/datagram/datagram-sender.ts';
import { Origin } from '../src/origin.ts';
import { DatagramTransport } from '../src/session/datagram-transport.ts';
import type { OriginSession } from '../src/session/origin-session.ts';
import { captureLogLines, makeMedia, sha256, waitFor } from './helpers.ts';

interface BrokenSession {
  transport: DatagramTransport;
  session: OriginSession;
  /** The error its client's fetch failed with. */
  error: Error;
  /** The origin's log lines while the test ran (debug level included). */
  logLines: Array<Record<string, unknown>>;
}

/**
 * Two sessions fetch 3 MB each at 20 Mbit/s (over a second); `plant` breaks the first once its first body bytes
 * arrived. Checks that the first one's fetch fails with code 1, its request is logged `interrupted` with the close
 * reason and counted so (never complete), and the second one's body arrives intact on a session still open; returns
 * the first one for the caller's checks.
 */
async function breakOneOfTwoSessions(plant: (transport: DatagramTransport) => void): Promise<BrokenSession> {
  const media = makeMedia({ 'a.bin': 3_000_000, 'b.bin': 3_000_000 });
  const { lines: logLines, restore } = captureLogLines();
  const origin = await Origin.start({ mediaDir: media.dir, port: 0, httpPort: null, httpsPort: null, tcpPort: null });
  const clients: PccClient[] = [];
  try {
    const connect = async (): Promise<PccClient> => {
      const client = await PccClient.connect(`https://127.0.0.1:${origin.quicServer.port}`, {
        certSha256Hex: origin.certSha256Hex, cc: 'fixed', params: { rate_bps: 20e6 },
      });
      clients.push(client);
      return client;
    };
    const broken = await connect();
    await waitFor(() => origin.sessions.size === 1, 10_000, 'the first session');
    const session: OriginSession = [...origin.sessions.values()][0]!;
    const transport = session.transport;
    assert.ok(transport instanceof DatagramTransport);
    const other = await connect();

    let planted = false;
    let receivedBytes = 0;
    // Marked early (PROTOCOL.md §2.6): the prefetch counters that feed telemetry and bench results see it too.
    const failed = broken.fetch('/a.bin?pcc-prefetch=1', {
      onData: (chunk) => {
        receivedBytes += chunk.byteLength;
        if (!planted) plant(transport);
        planted = true;
      },
    });
    const intact = other.fetch('/b.bin');
    intact.catch(() => undefined); // awaited below; a failure before then must not surface as an unhandled rejection

    let error: Error | null = null;
    await assert.rejects(failed, (err: Error) => {
      error = err;
      return true;
    });
    assert.ok(error !== null);
    assert.match((error as Error).message, new RegExp(`^session closed \\(code ${CLOSE_PROTOCOL_VIOLATION}: internal error: `));
    assert.ok(planted && receivedBytes < 3_000_000, `${receivedBytes} B received`);
    assert.equal(session.closedWith?.code, CLOSE_PROTOCOL_VIOLATION);

    const result = await intact;
    assert.equal(result.status, 200);
    assert.equal(sha256(result.body!), media.files.get('b.bin')!.sha256);
    assert.equal(other.closeInfo, null, 'the other session stays open');

    await waitFor(() => session.requestsServed === 1, 10_000, "the broken session's request to end");
    const done = logLines.filter((l) => l['event'] === 'request.done' && l['session'] === session.quic.id);
    assert.equal(done.length, 1);
    assert.equal(done[0]!['outcome'], 'interrupted', 'a request its session closed under is not complete');
    assert.equal(done[0]!['why'], `session closed (code ${CLOSE_PROTOCOL_VIOLATION}: ${session.closedWith?.reason})`);
    const bodyBytesSent = done[0]!['body_bytes_sent'] as number;
    assert.ok(bodyBytesSent > 0 && bodyBytesSent < 3_000_000, `${bodyBytesSent} B sent`);
    assert.equal(session.requestsInterrupted, 1);
    assert.deepEqual(transport.telemetry.prefetch.fields(), {
      prefetch_requests: 1, prefetch_cancelled: 0, prefetch_cancelled_bytes_sent: 0, prefetch_interrupted: 1, prefetch_interrupted_bytes_sent: bodyBytesSent,
    });
    const totals = origin.status()['prefetch_totals'] as Record<string, number>;
    assert.equal(totals['prefetch_interrupted'], 1, "the origin's totals (what a bench run reads) count it interrupted");
    return { transport, session, error, logLines };
  } finally {
    for (const c of clients) c.close();
    await origin.stop();
    restore();
    media.cleanup();
  }
}

test(`${OUT_OF_ORDER_SEND} closes its session with that name and fails its request at the client; another session completes intact`, { timeout: 60_000 }, async () => {
  let stray = -1;
  const broken = await breakOneOfTwoSessions((transport) => {
    // As a send path that broke the allocation order would leave it: a number ahead of the sender's own recorded as
    // sent, so the sender's next packets come after a higher one.
    const tracker = transport.sender.tracker;
    stray = tracker.nextPacketNumberBound + 2;
    tracker.onPacketSent({ packetNumber: stray, sentTimeUs: nowUs(), bytes: 1200, requestId: 0, offset: 0, length: 0, retransmission: false });
  });
  assert.match(broken.error.message, new RegExp(`internal error: ${OUT_OF_ORDER_SEND.replaceAll('.', '\\.')}: packet \\d+ was sent after packet ${stray}\\)$`));
  assert.equal(broken.transport.stats()['out_of_order_sends'], 1);
  const bug = broken.logLines.filter((l) => l['event'] === OUT_OF_ORDER_SEND);
  assert.equal(bug.length, 1, 'logged once');
  assert.equal(bug[0]!['level'], 'error');
  assert.equal(bug[0]!['largest_sent'], stray);
});

test('an exception while processing ACKs closes only its session, with the error, not the origin process', { timeout: 60_000 }, async () => {
  const broken = await breakOneOfTwoSessions((transport) => {
    transport.sender.onDatagrams = () => {
      throw new Error('planted ACK-processing bug');
    };
  });
  assert.match(broken.error.message, /internal error: planted ACK-processing bug\)$/);
  const lines = broken.logLines.filter((l) => l['event'] === 'session.ack_processing_failed');
  assert.equal(lines.length, 1);
  assert.equal(lines[0]!['level'], 'error');
});
