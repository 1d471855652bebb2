// Send times are taken where QUIC takes the datagram, not when the sender's turn began: a JavaScript thread that is
// busy between the two (building a batch, a GC pause, another session's turn) must not read as RTT. Real QUIC over
// loopback, the real `fixed` controller and the shared receiver; the sink in between blocks the event loop before
// each hand-over, as a stalled thread would.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadControllerModule } from '@pcc-stream/controller';
import { DatagramReceiver } from '@pcc-stream/protocol';
import { QuicClient, QuicServer, generateSelfSignedCert, type Session } from '@pcc-stream/quic';
import { nowUs, usFromMonotonicNs } from '../src/clock.ts';
import { DatagramSender, type DatagramSink } from '../src/datagram/datagram-sender.ts';
import { OutgoingRequest } from '../src/datagram/outgoing-request.ts';
import { SendLoop } from '../src/datagram/send-loop.ts';
import { MemoryBodySource } from '../src/media/body-source.ts';

const BLOCK_MS = 15;
const PACKETS = 30;

/** Busy-waits: the event loop is blocked, as under a long synchronous task. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

test(`RTT samples exclude a ${BLOCK_MS} ms event-loop stall between a turn's start and the hand-over to QUIC`, { timeout: 60_000 }, async (t) => {
  const cert = generateSelfSignedCert(['127.0.0.1'], 1);
  const server = await QuicServer.bind({ host: '127.0.0.1', port: 0, certPem: cert.certPem, keyPem: cert.keyPem });
  const accepted = server.accept();
  const client = await QuicClient.connect(`https://127.0.0.1:${server.port}/stamp`, { certSha256Hex: cert.certSha256Hex });
  const session = (await accepted)!;
  const loop = new SendLoop();
  try {
    const stalling: DatagramSink = {
      sendDatagramBatch(payloads, lengths, count, queuedAtNs) {
        block(BLOCK_MS);
        return session.sendDatagramBatch(payloads, lengths, count, queuedAtNs);
      },
    };
    const module = await loadControllerModule();
    const maxDatagramBytes = session.maxDatagramSize();
    // One datagram every 40 ms: each ACK is back long before the next turn, so nothing else delays it.
    const controller = module.create('fixed', { nowUs: nowUs(), params: { rate_bps: (maxDatagramBytes * 8) / 0.04 } });
    let completed = false;
    const sender = new DatagramSender(controller, stalling, {
      onFatal: (code, reason) => assert.fail(`closed ${code}: ${reason}`),
      onRequestComplete: () => (completed = true),
      onProgress: () => undefined,
    }, { random: Math.random, maxDatagramBytes, initialWindowBytes: 1 << 20, nowUs: nowUs() });
    const body = new Uint8Array(PACKETS * (maxDatagramBytes - 10));
    sender.addRequest(new OutgoingRequest(1, new MemoryBodySource(body), 0, body.byteLength, nowUs()), 1 << 20);
    const member = { service: (now: number) => sender.service(now), onServiceError: (e: unknown) => { throw e; } };
    loop.add(member);

    // The receiving end: our shared receiver, acknowledging every batch at once.
    const receiver = new DatagramReceiver();
    receiver.open(1);
    const receiving = (async () => {
      while (!completed) {
        const batch = await client.recvDatagramsTimed(64);
        if (batch.datagrams.length === 0) return;
        const t = nowUs();
        for (const d of batch.datagrams) assert.ok(receiver.onDatagram(d, t).ok);
        receiver.take(1, t);
        const ack = receiver.poll(t, true);
        if (ack) client.sendDatagram(ack);
      }
    })();
    // The origin's ACK path: arrivals stamped by the addon (DatagramTransport's receive loop).
    const rttSamplesUs: number[] = [];
    while (!completed) {
      const batch = await session.recvDatagramsTimed(64);
      if (batch.datagrams.length === 0) break;
      const now = nowUs();
      const before = sender.tracker.rtt.latestUs;
      sender.onDatagrams(batch.datagrams, now, batch.receivedAtNs.map((ns) => usFromMonotonicNs(ns, now)));
      if (sender.tracker.rtt.latestUs !== before) rttSamplesUs.push(sender.tracker.rtt.latestUs);
      loop.wake(member);
    }
    loop.remove(member);
    client.close(0, '');
    await receiving;

    assert.ok(rttSamplesUs.length >= PACKETS / 3, `${rttSamplesUs.length} RTT samples`);
    const sorted = [...rttSamplesUs].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    t.diagnostic(`RTT samples µs: min ${sorted[0]}, median ${median}, max ${sorted[sorted.length - 1]}; hand-over lag max ${sender.handoverLagMaxUs} µs`);
    // Loopback RTT is well under a millisecond; a sample stamped at the turn's start would hold the whole stall.
    assert.ok(median < (BLOCK_MS * 1000) / 3, `median RTT sample ${median} µs includes the ${BLOCK_MS} ms stall`);
    assert.ok(sender.handoverLagMaxUs >= BLOCK_MS * 1000, `hand-over lag ${sender.handoverLagMaxUs} µs: the stall happened after the turn began`);
  } finally {
    loop.stop();
    session.close(0, '');
    server.close();
  }
});
