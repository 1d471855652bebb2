// A bug of ours caught in one session's send path (a datagram sent after a higher packet number: OUT_OF_ORDER_SEND)
// ends that session with its name: an error-level log line, the close reason, and a failed request at its client,
// never a hang. Another session of the same origin is served intact. The real origin in this process (the bug is
// planted in its session's tracker), real QUIC over loopback, the Node client.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLOSE_PROTOCOL_VIOLATION } from '@pcc-stream/protocol';
import { nowUs } from '../src/clock.ts';
import { PccClient } from '../src/client/pcc-client.ts';
import { OUT_OF_ORDER_SEND } from '../src/datagram/datagram-sender.ts';
import { Origin } from '../src/origin.ts';
import { DatagramTransport } from '../src/session/datagram-transport.ts';
import type { OriginSession } from '../src/session/origin-session.ts';
import { makeMedia, sha256, waitFor } from './helpers.ts';

test(`${OUT_OF_ORDER_SEND} closes its session with that name and fails its request at the client; another session completes intact`, { timeout: 60_000 }, async () => {
  const media = makeMedia({ 'a.bin': 3_000_000, 'b.bin': 3_000_000 });
  const logLines: Array<Record<string, unknown>> = [];
  const stderrWrite = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n')) if (line.startsWith('{')) logLines.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  }) as typeof process.stderr.write;
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
    const brokenSession: OriginSession = [...origin.sessions.values()][0]!;
    const transport = brokenSession.transport;
    assert.ok(transport instanceof DatagramTransport);
    const other = await connect();

    // 3 MB at 20 Mbit/s take over a second: the bug is planted once the first body bytes arrived.
    let planted = -1;
    let receivedBytes = 0;
    const failed = broken.fetch('/a.bin', {
      onData: (chunk) => {
        receivedBytes += chunk.byteLength;
        if (planted >= 0) return;
        const tracker = transport.sender.tracker;
        planted = tracker.nextPacketNumberBound + 2;
        tracker.onPacketSent({ packetNumber: planted, sentTimeUs: nowUs(), bytes: 1200, requestId: 0, offset: 0, length: 0, retransmission: false });
      },
    });
    const intact = other.fetch('/b.bin');
    intact.catch(() => undefined); // awaited below; a failure before then must not surface as an unhandled rejection

    await assert.rejects(failed, (err: Error) => {
      assert.match(err.message, new RegExp(`code ${CLOSE_PROTOCOL_VIOLATION}: internal error: ${OUT_OF_ORDER_SEND.replaceAll('.', '\\.')}: packet \\d+ was sent after packet ${planted}`));
      return true;
    });
    assert.ok(planted >= 0 && receivedBytes < 3_000_000, `${receivedBytes} B received`);
    assert.equal(brokenSession.closedWith?.code, CLOSE_PROTOCOL_VIOLATION);
    assert.equal(transport.stats()['out_of_order_sends'], 1);
    const bug = logLines.filter((l) => l['event'] === OUT_OF_ORDER_SEND);
    assert.equal(bug.length, 1, 'logged once');
    assert.equal(bug[0]!['level'], 'error');
    assert.equal(bug[0]!['largest_sent'], planted);

    const result = await intact;
    assert.equal(result.status, 200);
    assert.equal(sha256(result.body!), media.files.get('b.bin')!.sha256);
    assert.equal(other.closeInfo, null, 'the other session stays open');
  } finally {
    for (const c of clients) c.close();
    await origin.stop();
    process.stderr.write = stderrWrite;
    media.cleanup();
  }
});
