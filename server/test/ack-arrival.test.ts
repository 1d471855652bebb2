// The origin tells its controller when each ACK arrived, not when its event loop got to it: the addon stamps the ACK
// (CLOCK_MONOTONIC) as it comes off the connection, the receive loop puts the stamp on the process clock, and the
// sender dates the controller's ack events with it. Real QUIC over loopback, the origin's own receive loop and sender,
// the real `fixed` controller (watched, not replaced); the event loop is blocked while the ACK is on its way.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadControllerModule } from '@pcc-stream/controller';
import { decodeDataDatagram, encodeAckDatagram } from '@pcc-stream/protocol';
import { QuicClient, QuicServer, generateSelfSignedCert } from '@pcc-stream/quic';
import { nowUs } from '../src/clock.ts';
import { DatagramSender } from '../src/datagram/datagram-sender.ts';
import { OutgoingRequest } from '../src/datagram/outgoing-request.ts';
import { receiveDatagramBatches } from '../src/datagram/receive-batches.ts';
import { MemoryBodySource } from '../src/media/body-source.ts';

const BLOCK_MS = 200;

/** Busy-waits: the event loop is blocked, as under a long synchronous task. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

test(`an ACK that waited ${BLOCK_MS} ms for the origin's event loop reaches the controller dated by its arrival`, { timeout: 30_000 }, async (t) => {
  const cert = generateSelfSignedCert(['127.0.0.1'], 1);
  const server = await QuicServer.bind({ host: '127.0.0.1', port: 0, certPem: cert.certPem, keyPem: cert.keyPem });
  const accepted = server.accept();
  const client = await QuicClient.connect(`https://127.0.0.1:${server.port}/ack-arrival`, { certSha256Hex: cert.certSha256Hex });
  const session = (await accepted)!;
  const module = await loadControllerModule();
  const real = module.create('fixed', { nowUs: nowUs(), params: { rate_bps: 100e6 } });
  const ackedAtUs: number[] = [];
  const controller = new Proxy(real, {
    get(target, key) {
      if (key === 'ack') return (pn: number, rttUs: number, recvUs: number, atUs: number) => (ackedAtUs.push(atUs), target.ack(pn, rttUs, recvUs, atUs));
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  let closed = false;
  try {
    let completed!: () => void;
    const complete = new Promise<void>((resolve) => (completed = resolve));
    const sender = new DatagramSender(controller, session, {
      onFatal: (code, reason) => assert.fail(`closed ${code}: ${reason}`),
      onRequestComplete: () => completed(),
      onProgress: () => undefined,
    }, { random: Math.random, maxDatagramBytes: session.maxDatagramSize(), initialWindowBytes: 1 << 20, nowUs: nowUs() });
    sender.addRequest(new OutgoingRequest(1, new MemoryBodySource(new Uint8Array(500)), 0, 500, nowUs()), 1 << 20);
    const batchesReadAtUs: number[] = [];
    const receiving = receiveDatagramBatches(session, () => closed, (datagrams, now, receivedAtUs) => {
      batchesReadAtUs.push(now);
      sender.onDatagrams(datagrams, now, receivedAtUs);
    });
    while (sender.tracker.packetsSent === 0) {
      sender.service(nowUs());
      await new Promise((resolve) => setTimeout(resolve, 1));
    }

    const batch = await client.recvDatagramsTimed(16);
    const data = decodeDataDatagram(batch.datagrams[0]!);
    assert.ok(data.ok);
    const pn = data.value.packetNumber;
    const ackSentUs = nowUs();
    client.sendDatagram(encodeAckDatagram({ ranges: [{ smallest: pn, largest: pn }], ackDelayUs: 0, largestRecvTimeUs: 1, windowBytes: 1 << 20 }));
    block(BLOCK_MS); // the ACK arrives meanwhile; the origin's receive loop cannot read it until this returns
    const unblockedUs = nowUs();
    await complete;

    assert.equal(ackedAtUs.length, 1);
    assert.ok(batchesReadAtUs[0]! >= unblockedUs, 'the ACK was read after the block');
    // Loopback takes well under a millisecond; half the block leaves room for a loaded machine's scheduling.
    const arrivalLagUs = ackedAtUs[0]! - ackSentUs;
    t.diagnostic(`ack dated ${arrivalLagUs} µs after it was sent, read ${batchesReadAtUs[0]! - ackSentUs} µs after`);
    assert.ok(arrivalLagUs >= 0 && arrivalLagUs < (BLOCK_MS * 1000) / 2,
      `ack dated ${arrivalLagUs} µs after it was sent; read ${batchesReadAtUs[0]! - ackSentUs} µs after`);
    assert.ok(sender.tracker.rtt.latestUs < (BLOCK_MS * 1000) / 2, `RTT sample ${sender.tracker.rtt.latestUs} µs holds the block`);
    closed = true;
    client.close(0, '');
    await receiving;
  } finally {
    closed = true;
    client.close(0, '');
    server.close();
    real.destroy();
  }
});
