// Handshake flood for the `flood` case (issue 20): new WebTransport sessions at a fixed rate (open loop: attempts go
// out on schedule whether or not earlier ones finished), each from its own 127.x address, each closed as soon as its
// CONNECT was answered. Reports the handshakes the origin completed per second and how long they took. Bounded in
// rate, time and outstanding attempts; loopback or this host's own addresses only.
import { PccClient } from '@pcc-stream/server/client';
import { assertLocalTarget, loopbackSource } from './local-target.ts';

export const MAX_FLOOD_RATE_PER_S = 2000;
export const MAX_FLOOD_DURATION_S = 300;
/** Attempts in progress at once; beyond it the schedule waits (the generator's own memory and fds stay bounded). */
const MAX_OUTSTANDING = 400;
const CONNECT_TIMEOUT_MS = 5000;

export interface FloodOptions {
  host: string;
  port: number;
  certSha256Hex: string;
  ratePerS: number;
  durationS: number;
  /** First index into the 127.x source addresses (loopbackSource), so runs can use disjoint ones. */
  firstSource?: number;
}

export interface FloodSummary {
  duration_s: number;
  attempted: number;
  /** Sessions whose handshake and CONNECT completed. */
  completed: number;
  /** Completed, then closed by the origin with a limit (its reason in refusal_reasons). */
  refused: number;
  failed: number;
  /** Attempts the schedule had to hold back (MAX_OUTSTANDING reached): the origin fell behind. */
  delayed: number;
  attempted_per_s: number;
  completed_per_s: number;
  handshake_ms_p50: number | null;
  handshake_ms_p95: number | null;
  handshake_ms_max: number | null;
  source_addresses: number;
  refusal_reasons: Record<string, number>;
  first_error: string | null;
}

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export async function runFlood(options: FloodOptions): Promise<FloodSummary> {
  assertLocalTarget(options.host);
  if (!(options.ratePerS > 0 && options.ratePerS <= MAX_FLOOD_RATE_PER_S)) throw new Error(`rate must be 1..${MAX_FLOOD_RATE_PER_S} handshakes/s`);
  if (!(options.durationS > 0 && options.durationS <= MAX_FLOOD_DURATION_S)) throw new Error(`duration must be 0..${MAX_FLOOD_DURATION_S} s`);
  const origin = `https://${options.host}:${options.port}`;
  const startMs = Date.now();
  const total = Math.floor(options.ratePerS * options.durationS);
  const first = options.firstSource ?? 0;
  const handshakeMs: number[] = [];
  const refusalReasons: Record<string, number> = {};
  let completed = 0;
  let refused = 0;
  let failed = 0;
  let delayed = 0;
  let outstanding = 0;
  let firstError: string | null = null;
  const attempts: Array<Promise<void>> = [];

  const attempt = async (i: number): Promise<void> => {
    const t0 = performance.now();
    let client: PccClient | null = null;
    try {
      client = await PccClient.connect(origin, { certSha256Hex: options.certSha256Hex, localAddress: loopbackSource(first + i), connectTimeoutMs: CONNECT_TIMEOUT_MS });
      handshakeMs.push(performance.now() - t0);
      completed++;
      // A refusal arrives right after the CONNECT: give it a moment to show before closing ourselves.
      const closed = await Promise.race([client.quic.closed(), new Promise<null>((r) => setTimeout(() => r(null), 20))]);
      if (closed && closed.code !== 0) {
        refused++;
        const key = `${closed.code}: ${closed.reason.replace(/\d+(\.\d+)*/g, 'N')}`;
        refusalReasons[key] = (refusalReasons[key] ?? 0) + 1;
      }
    } catch (err) {
      failed++;
      firstError ??= err instanceof Error ? err.message : String(err);
    } finally {
      client?.close();
      outstanding--;
    }
  };

  for (let i = 0; i < total; i++) {
    const dueMs = startMs + (i / options.ratePerS) * 1000;
    const waitMs = dueMs - Date.now();
    if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
    if (outstanding >= MAX_OUTSTANDING) {
      delayed++;
      while (outstanding >= MAX_OUTSTANDING) await new Promise((r) => setTimeout(r, 5));
    }
    if (Date.now() > startMs + options.durationS * 1000 + 1000) break;
    outstanding++;
    attempts.push(attempt(i));
  }
  const scheduleS = (Date.now() - startMs) / 1000;
  await Promise.all(attempts);
  const durationS = (Date.now() - startMs) / 1000;
  handshakeMs.sort((a, b) => a - b);
  return {
    duration_s: durationS, attempted: attempts.length, completed, refused, failed, delayed,
    attempted_per_s: attempts.length / scheduleS, completed_per_s: completed / durationS,
    handshake_ms_p50: percentile(handshakeMs, 50), handshake_ms_p95: percentile(handshakeMs, 95), handshake_ms_max: handshakeMs.at(-1) ?? null,
    source_addresses: attempts.length, refusal_reasons: refusalReasons, first_error: firstError,
  };
}
