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

for (const rateBps of [5e6, 50e6, 200e6]) {
  test(`fixed at ${rateBps / 1e6} Mbit/s is achieved within ±2% in every second`, { timeout: 60_000 }, async (t) => {
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
    const r = await fetching;
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
    t.diagnostic(`per-second rates (Mbit/s of DATA datagrams): ${rates.map((x) => (x / 1e6).toFixed(3)).join(', ')}; client received ${r.bytes} B`);
    for (const x of rates) assert.ok(Math.abs(x - rateBps) <= 0.02 * rateBps, `${(x / 1e6).toFixed(3)} Mbit/s is not within 2% of ${rateBps / 1e6}`);
    // What was sent during the windows also arrived: the client holds at least the bytes sent before the last window ended.
    assert.ok(client.datagramReceiver.bytesReceived >= at(start + WINDOWS * 1e6) * 0.99, 'the client received what was sent');
  });
}
