// The `fixed` controller's rate over consecutive one-second windows. The windows are cut on the origin's clock
// (its telemetry lines carry the DATA bytes sent and the time), so a starved client process cannot distort
// them; the client checks that everything sent arrived.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PccClient } from '../src/client/pcc-client.ts';
import { makeMedia, startOrigin, waitFor, type MediaFixture, type RunningOrigin } from './helpers.ts';

let media: MediaFixture;
let origin: RunningOrigin;

before(async () => {
  media = makeMedia({ 'stream.bin': 120_000_000 });
  origin = await startOrigin(media.dir, ['--cc', 'fixed']);
});

after(async () => {
  await origin?.stop();
  media?.cleanup();
});

const WINDOWS = 3;
const SKIP_US = 500_000; // the first half second: handshake, first ACKs

async function measure(rateBps: number): Promise<{ rates: number[]; sentBytes: number; receivedBytes: number }> {
  const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc: 'fixed', params: { rate_bps: rateBps } });
  const samples: Array<[number, number]> = [];
  const stopTelemetry = await client.telemetry((r) => {
    if (typeof r.t_us === 'number' && typeof r.sent_datagram_bytes === 'number') samples.push([r.t_us, r.sent_datagram_bytes]);
  });
  const abort = new AbortController();
  const fetching = client.fetch('/stream.bin', { signal: abort.signal, onData: () => undefined });
  const firstSendUs = (): number => samples.find((s) => s[1] > 0)?.[0] ?? Infinity;
  await waitFor(() => samples.length > 0 && samples[samples.length - 1]![0] > firstSendUs() + SKIP_US + WINDOWS * 1e6 + 200_000, 30_000, 'the measurement windows');
  abort.abort();
  await fetching;
  stopTelemetry();
  client.close();
  const at = (timeUs: number): number => {
    let lo = 0;
    while (lo + 1 < samples.length && samples[lo + 1]![0] <= timeUs) lo++;
    const [t0, b0] = samples[lo]!;
    const next = samples[lo + 1];
    return next ? b0 + ((next[1] - b0) * (timeUs - t0)) / (next[0] - t0) : b0;
  };
  const start = firstSendUs() + SKIP_US;
  const rates = Array.from({ length: WINDOWS }, (_, w) => (at(start + (w + 1) * 1e6) - at(start + w * 1e6)) * 8);
  return { rates, sentBytes: at(start + WINDOWS * 1e6), receivedBytes: client.datagramReceiver.bytesReceived };
}

for (const rateBps of [5e6, 50e6, 200e6]) {
  test(`fixed at ${rateBps / 1e6} Mbit/s is achieved within ±2% in every second`, { timeout: 90_000 }, async (t) => {
    const within = (m: { rates: number[] }): boolean => m.rates.every((x) => Math.abs(x - rateBps) <= 0.02 * rateBps);
    let m = await measure(rateBps);
    t.diagnostic(`per-second rates (Mbit/s of DATA datagrams): ${m.rates.map((x) => (x / 1e6).toFixed(3)).join(', ')}`);
    if (!within(m)) {
      // One more measurement: on a shared 2-core machine another process can starve the origin for a while.
      m = await measure(rateBps);
      t.diagnostic(`second measurement: ${m.rates.map((x) => (x / 1e6).toFixed(3)).join(', ')}`);
    }
    for (const x of m.rates) assert.ok(Math.abs(x - rateBps) <= 0.02 * rateBps, `${(x / 1e6).toFixed(3)} Mbit/s is not within 2% of ${rateBps / 1e6}`);
    // What was sent during the windows also arrived.
    assert.ok(m.receivedBytes >= m.sentBytes * 0.99, 'the client received what was sent');
  });
}
