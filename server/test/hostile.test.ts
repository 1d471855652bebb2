// Malformed and hostile input from clients: each offending session is closed with a clear code, the server
// survives, and a well-behaved session running at the same time keeps working and gets its bytes intact. How much
// goodput a good session keeps beside a hostile client is a figure, measured by the bench's `garbage` fault case
// (bench/harness/faults/garbage.ts: a real player behind linkem against a paired clean run, within 10 %), not here.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { CLOSE_OPTIMISTIC_ACK, CLOSE_PROTOCOL_VIOLATION, encodeAckDatagram, encodeStreamFrame } from '@pcc-stream/protocol';
import { QuicClient, type Session } from '@pcc-stream/quic';
import { PccClient } from '../src/client/pcc-client.ts';
import { makeMedia, sha256, startOrigin, waitFor, type MediaFixture, type RunningOrigin } from './helpers.ts';

let media: MediaFixture;
let origin: RunningOrigin;

before(async () => {
  media = makeMedia({ 'good.bin': 100_000_000, 'bait.bin': 20_000_000 });
  // One session per attack, all from 127.0.0.1 within a second or two: more new handshakes than the per-address
  // handshake limit's default burst admits. That limit has its own test (origin-limits); here it is off so each
  // attack reaches the session checks this file is about.
  origin = await startOrigin(media.dir, ['--cc', 'fixed', '--max-handshakes-per-address-per-s', '0']);
});

after(async () => {
  await origin?.stop();
  media?.cleanup();
});

async function rawSession(path = '/pcc?cc=fixed&rate_bps=20000000'): Promise<Session> {
  return QuicClient.connect(`${origin.origin}${path}`, { certSha256Hex: origin.certHash, congestion: 'none' });
}

async function closedWithin(session: Session, ms: number): Promise<{ code: number; reason: string } | null> {
  return Promise.race([session.closed(), new Promise<null>((r) => setTimeout(() => r(null), ms))]);
}

function ack(smallest: number, largest: number): Uint8Array {
  return encodeAckDatagram({ ranges: [{ smallest, largest }], ackDelayUs: 0, largestRecvTimeUs: 1, windowBytes: 1 << 20 });
}

type Attack = { name: string; code: number; path?: string; run: (s: Session) => Promise<void> };

const attacks: Attack[] = [
  { name: 'random bytes', code: CLOSE_PROTOCOL_VIOLATION, run: async (s) => void s.sendDatagram(randomBytes(300)) },
  { name: 'a one-byte datagram', code: CLOSE_PROTOCOL_VIOLATION, run: async (s) => void s.sendDatagram(Uint8Array.of(2)) },
  // A quic-stream session takes no datagram at all, not even an ACK.
  { name: 'an ACK on a quic-stream session', code: CLOSE_PROTOCOL_VIOLATION, path: '/pcc?transport=quic-stream&cc=cubic', run: async (s) => void s.sendDatagram(ack(0, 0)) },
  { name: 'a truncated ACK header', code: CLOSE_PROTOCOL_VIOLATION, run: async (s) => void s.sendDatagram(ack(0, 0).subarray(0, 15)) },
  {
    name: 'an absurd ACK range (below packet 0)', code: CLOSE_PROTOCOL_VIOLATION, run: async (s) => {
      const bytes = ack(0, 10);
      new DataView(bytes.buffer).setUint32(23, 0xffff_ffff);
      s.sendDatagram(bytes);
    },
  },
  // The largest number the ACK format can name from 0 (its range field is 32 bits): far beyond anything sent.
  { name: 'an ACK for a number never sent', code: CLOSE_OPTIMISTIC_ACK, run: async (s) => void s.sendDatagram(ack(0, 2 ** 32 - 1)) },
  {
    name: 'garbage on a request stream', code: CLOSE_PROTOCOL_VIOLATION, run: async (s) => {
      const bi = await s.openBi();
      await bi.write(Uint8Array.of(0x10, 0x00, 0x05, 9, 9, 9, 9, 9));
    },
  },
  {
    name: 'an unknown stream frame', code: CLOSE_PROTOCOL_VIOLATION, run: async (s) => {
      const bi = await s.openBi();
      await bi.write(encodeStreamFrame({ type: 'cancel', requestId: 1 }));
    },
  },
];

test('hostile sessions are closed one by one while a good session keeps working', { timeout: 120_000 }, async (t) => {
  // 100 MB at 50 Mbit/s: 16 s at the least, longer than the attacks below take.
  const goodRateBps = 50e6;
  const good = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc: 'fixed', params: { rate_bps: goodRateBps } });
  // The good session's bytes sent on the origin's clock (its telemetry): that it is sending, and what it sent meanwhile.
  const samples: Array<[number, number]> = [];
  const stopTelemetry = await good.telemetry((r) => {
    if (typeof r.t_us === 'number' && typeof r.sent_datagram_bytes === 'number') samples.push([r.t_us, r.sent_datagram_bytes]);
  });
  let goodSettled = false;
  const goodFetch = good.fetch('/good.bin').finally(() => { goodSettled = true; });
  const opened: Session[] = [];
  await waitFor(() => samples.some((x) => x[1] > 1_000_000), 10_000, 'the good session to be sending');
  const attackStart = samples[samples.length - 1]!;
  try {
    // The raw attacks are repeated for at least 2 s so they overlap the good transfer measurably.
    const attacksUntil = performance.now() + 2000;
    for (let round = 0; round === 0 || performance.now() < attacksUntil; round++)
    for (const attack of attacks) {
      const s = await rawSession(attack.path);
      opened.push(s);
      await attack.run(s);
      const closed = await closedWithin(s, 10_000);
      assert.ok(closed, `${attack.name}: the session was not closed`);
      assert.equal(closed.code, attack.code, `${attack.name}: ${closed.reason}`);
      if (round === 0) t.diagnostic(`${attack.name} → closed ${closed.code} "${closed.reason}"`);
    }

    // A real transfer whose client then acknowledges optimistically: numbers it cannot have received.
    for (const [name, make] of [
      ['ahead of what was sent', (largest: number) => ack(0, largest + 10_000)],
      ['covering the skipped numbers', (largest: number) => ack(0, largest)],
    ] as const) {
      const cheat = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc: 'fixed', params: { rate_bps: 5e6 } });
      let sent = false;
      const rx = cheat.datagramReceiver;
      const fetch = cheat.fetch('/bait.bin', {
        onData: () => {
          // Once a number was skipped (received numbers have a hole: loopback loses nothing), claim it all.
          if (!sent && rx.bytesReceived > 100_000 && rx.largestReceived + 1 > rx.datagramsReceived) {
            sent = true;
            cheat.quic.sendDatagram(make(rx.largestReceived));
          }
        },
      }).catch(() => null);
      try {
        const closed = await closedWithin(cheat.quic, 20_000);
        assert.ok(closed, `optimistic ACK ${name}: not closed`);
        assert.equal(closed.code, CLOSE_OPTIMISTIC_ACK, `optimistic ACK ${name}: ${closed.reason}`);
        t.diagnostic(`optimistic ACK ${name} → closed ${closed.code} "${closed.reason}"`);
      } finally {
        cheat.close();
        await fetch;
      }
    }

    // A flood of valid but repeated ACKs after a small transfer.
    const flooder = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc: 'fixed', params: { rate_bps: 20e6 } });
    await flooder.fetch('/bait.bin', { range: { start: 0, end: 99_999 } });
    const pn = flooder.datagramReceiver.largestReceived;
    for (let i = 0; i < 5000; i++) {
      try {
        flooder.quic.sendDatagram(ack(pn, pn));
      } catch {
        break;
      }
    }
    const flooded = await closedWithin(flooder.quic, 10_000);
    flooder.close();
    assert.ok(flooded, 'ACK flood: not closed');
    assert.equal(flooded.code, CLOSE_PROTOCOL_VIOLATION, flooded.reason);
    // Cut off by the QUIC addon as the datagrams arrived (client-datagram-limits.ts), not by JavaScript.
    assert.match(flooded.reason, /^datagram flood: \d+ datagrams for \d+ sent in [\d.]+ s \(at most 64 \+ 1 per datagram sent \+ 1000\/s\)$/);
    t.diagnostic(`ACK flood → closed ${flooded.code} "${flooded.reason}"`);
    flooder.close();

    const attackEnd = samples[samples.length - 1]!;
    // The attacks ran beside the good transfer, not after it: it was still in progress and had been sending.
    const overlap = `the good transfer ${goodSettled ? 'had ended' : 'was in progress'} when the attacks ended; it sent `
      + `${((attackEnd[1] - attackStart[1]) / 1e6).toFixed(1)} MB in the ${((attackEnd[0] - attackStart[0]) / 1e6).toFixed(1)} s of attacks `
      + `(fixed ${goodRateBps / 1e6} Mbit/s; an information, not a bound: the bench's garbage case measures goodput)`;
    t.diagnostic(overlap);
    assert.equal(goodSettled, false, overlap);
    assert.ok(attackEnd[1] > attackStart[1], overlap);
    const r = await goodFetch;
    stopTelemetry();
    assert.equal(r.status, 200, `the good session's transfer: ${r.status}`);
    assert.equal(sha256(r.body!), media.files.get('good.bin')!.sha256, 'the good session got its bytes intact');
  } finally {
    good.close();
    for (const s of opened) {
      try {
        s.close(0, 'test over');
      } catch {
        /* already closed */
      }
    }
  }
  const status = await origin.status();
  assert.equal(typeof status.sessions, 'number', 'the origin still answers');
  assert.equal(origin.exitCode(), null, 'the origin is still running');
});
