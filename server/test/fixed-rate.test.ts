// The `fixed` controller's rate over consecutive one-second windows. The windows are cut on the origin's clock
// (its telemetry lines carry the DATA bytes sent and the time), so a starved client process cannot distort
// them; the client checks that everything sent arrived. On a loaded 2-core machine the sender is sometimes not run
// for tens of milliseconds (descheduled, or held by a starved client's ACKs): the origin counts those stalls per
// session (/status stall_<reason>_ms), and a window is allowed what the stalls during the measurement explain and no
// more; the pacer's own waits (stall_tokens_ms) explain nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PccClient } from '../src/client/pcc-client.ts';
import { MAX_DEBT_DURATION_US } from '../src/datagram/token-bucket.ts';
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
const TOLERANCE = 0.02;
/** The token bucket keeps at most this much of credit a late sender lost as debt and repays it after. */
const MAX_REPAID_S = MAX_DEBT_DURATION_US / 1e6;

/** Milliseconds the session's sender stalled for anything but its own pacing, summed over the stall reasons. */
function nonPacingStallMs(session: Record<string, unknown> | undefined): number {
  if (!session) return 0;
  let ms = 0;
  for (const [key, value] of Object.entries(session)) {
    const m = /^stall_(.+)_ms$/.exec(key);
    if (m && m[1] !== 'tokens' && m[1] !== 'max' && typeof value === 'number') ms += value;
  }
  return ms;
}

/** The fixed-rate session with the most DATA bytes sent (one runs at a time; a closed one may linger a moment). */
async function sessionStallMs(): Promise<number> {
  const status = (await origin.status()) as { session_list: Array<Record<string, unknown>> };
  const sessions = status.session_list.filter((s) => s.transport === 'datagram');
  sessions.sort((a, b) => Number(b.sent_datagram_bytes) - Number(a.sent_datagram_bytes));
  return nonPacingStallMs(sessions[0]);
}

interface Measurement { rates: number[]; sentBytes: number; receivedBytes: number; stallS: number }

/** Whether every window's rate is within TOLERANCE of the target once the measured stalls are allowed for: a stall
 *  takes its time's worth off a window, and the debt repaid after it adds at most that much (≤ MAX_REPAID_S). */
function withinAllowance(m: Measurement, rateBps: number): boolean {
  const perWindow = m.rates.every((x) => x >= rateBps * (1 - TOLERANCE - m.stallS) && x <= rateBps * (1 + TOLERANCE + Math.min(m.stallS, MAX_REPAID_S)));
  // All windows together: the bits sent are the rate times the time the sender could send, within the tolerance.
  const sentBits = m.rates.reduce((a, b) => a + b, 0);
  const total = sentBits >= rateBps * (WINDOWS * (1 - TOLERANCE) - m.stallS) && sentBits <= rateBps * WINDOWS * (1 + TOLERANCE);
  return perWindow && total;
}

async function measure(rateBps: number): Promise<Measurement> {
  const client = await PccClient.connect(origin.origin, { certSha256Hex: origin.certHash, cc: 'fixed', params: { rate_bps: rateBps } });
  const samples: Array<[number, number]> = [];
  const stopTelemetry = await client.telemetry((r) => {
    if (typeof r.t_us === 'number' && typeof r.sent_datagram_bytes === 'number') samples.push([r.t_us, r.sent_datagram_bytes]);
  });
  const abort = new AbortController();
  const fetching = client.fetch('/stream.bin', { signal: abort.signal, onData: () => undefined });
  const firstSendUs = (): number => samples.find((s) => s[1] > 0)?.[0] ?? Infinity;
  const lastUs = (): number => samples.at(-1)?.[0] ?? -Infinity;
  // Stall counters read as the windows begin and end (telemetry lines come every 100 ms; the allowance is the whole
  // measurement's stall, so a stall counted a line early or late still counts).
  await waitFor(() => lastUs() >= firstSendUs() + SKIP_US, 30_000, 'the first window');
  const stallBeforeMs = await sessionStallMs();
  await waitFor(() => lastUs() > firstSendUs() + SKIP_US + WINDOWS * 1e6 + 200_000, 30_000, 'the measurement windows');
  const stallAfterMs = await sessionStallMs();
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
  return { rates, sentBytes: at(start + WINDOWS * 1e6), receivedBytes: client.datagramReceiver.bytesReceived, stallS: Math.max(0, stallAfterMs - stallBeforeMs) / 1000 };
}

// 200 Mbit/s is a speed target, measured by the origin bench (`npm run -s bench -w @pcc-stream/server`, its pacing
// table), not here: at that rate a window's outcome depends on how busy the machine is, not on the pacer.
for (const rateBps of [5e6, 50e6]) {
  test(`fixed at ${rateBps / 1e6} Mbit/s is achieved within ±2% in every second`, { timeout: 90_000 }, async (t) => {
    const show = (m: Measurement): string => `${m.rates.map((x) => (x / 1e6).toFixed(3)).join(', ')} (sender stalls not its pacing's: ${(m.stallS * 1000).toFixed(0)} ms)`;
    let m = await measure(rateBps);
    t.diagnostic(`per-second rates (Mbit/s of DATA datagrams): ${show(m)}`);
    if (!withinAllowance(m, rateBps)) {
      // One more measurement: a stall shorter than the origin's 5 ms stall threshold is not counted, and many of
      // them in one window on a busy machine can still cost a percent.
      m = await measure(rateBps);
      t.diagnostic(`second measurement: ${show(m)}`);
    }
    assert.ok(withinAllowance(m, rateBps), `per-second rates ${show(m)} are not within ${TOLERANCE * 100}% of ${rateBps / 1e6} Mbit/s once the stalls are allowed for`);
    // What was sent during the windows also arrived.
    assert.ok(m.receivedBytes >= m.sentBytes * 0.99, 'the client received what was sent');
  });
}
