// Session churn for the `churn` case (issue 20): waves of Node clients, each from its own 127.x address, open a
// WebTransport session, start a segment and abandon it mid-transfer (most close the session; every fourth cancels
// the request first). After each wave, once the origin reports no session left, its memory (RSS, V8 heap, external,
// WASM), live controllers, open fds, timers and send loop entries are read from /status: what a session leaks stays
// behind there; the same is sampled every second while the waves run. Bounded; loopback only.
import { PccClient } from '@pcc-stream/server/client';
import { assertLocalTarget, loopbackSource } from './local-target.ts';

export const MAX_CHURN_SESSIONS = 50_000;
/** Abandon a transfer once this much of its body arrived (mid-segment) or after ABANDON_AFTER_MS, whichever first. */
const ABANDON_AFTER_BYTES = 16 * 1024;
const ABANDON_AFTER_MS = 3000;
/** How long the origin may take to release a wave's sessions before the wave counts as leaving some behind. */
const SETTLE_TIMEOUT_MS = 45_000;
const SETTLE_POLL_MS = 100;
const SAMPLE_EVERY_MS = 1000;

export interface ChurnOptions {
  host: string;
  port: number;
  httpBase: string;
  certSha256Hex: string;
  sessions: number;
  waves: number;
  /** Sessions being opened at once within a wave. */
  concurrency: number;
  fetchPath: string;
  log?: (event: string, detail: Record<string, unknown>) => void;
}

export interface OriginResources {
  rss_bytes: number;
  heap_used_bytes: number;
  heap_total_bytes: number;
  /** Memory of C++ objects bound to JS (Buffers, the WASM module's ArrayBuffer, the addon's handles). */
  external_bytes: number;
  array_buffers_bytes: number;
  /** The controllers' WASM linear memory (never shrinks), what is malloc'd in it, and controllers not yet destroyed. */
  wasm_memory_bytes: number;
  wasm_heap_in_use_bytes: number;
  live_controllers: number;
  /** Remote addresses with an open session (the per-address limit's map). */
  addresses: number;
  open_fds: number | null;
  active_timers: number;
  active_handles: number;
  sessions: number;
  send_loop_members: number;
}

/** The origin's resources read every SAMPLE_EVERY_MS while the churn runs, sessions open or not. */
export interface ChurnSample extends OriginResources {
  t_s: number;
  /** Sessions opened by the churn so far. */
  opened: number;
}

export interface ChurnWave {
  wave: number;
  opened: number;
  abandoned_mid_segment: number;
  completed_before_abandon: number;
  failures: number;
  wave_s: number;
  /** Seconds until the origin held no session after the wave's last abandon (null: it never got there). */
  settle_s: number | null;
  after: OriginResources;
}

export interface ChurnSummary {
  sessions: number;
  duration_s: number;
  sessions_per_s: number;
  before: OriginResources;
  waves: ChurnWave[];
  samples: ChurnSample[];
  first_error: string | null;
}

async function resources(httpBase: string): Promise<OriginResources> {
  const s = (await (await fetch(`${httpBase}/status`, { signal: AbortSignal.timeout(5000) })).json()) as Record<string, unknown>;
  const num = (k: string): number => (typeof s[k] === 'number' ? s[k] : Number.NaN);
  return {
    rss_bytes: num('rss_bytes'), heap_used_bytes: num('heap_used_bytes'), heap_total_bytes: num('heap_total_bytes'),
    external_bytes: num('external_bytes'), array_buffers_bytes: num('array_buffers_bytes'), wasm_memory_bytes: num('wasm_memory_bytes'),
    wasm_heap_in_use_bytes: num('wasm_heap_in_use_bytes'), live_controllers: num('live_controllers'), addresses: num('addresses'),
    open_fds: typeof s.open_fds === 'number' ? s.open_fds : null,
    active_timers: num('active_timers'), active_handles: num('active_handles'), sessions: num('sessions'), send_loop_members: num('send_loop_members'),
  };
}

export async function runChurn(options: ChurnOptions): Promise<ChurnSummary> {
  assertLocalTarget(options.host);
  if (!(Number.isInteger(options.sessions) && options.sessions > 0 && options.sessions <= MAX_CHURN_SESSIONS)) throw new Error(`sessions must be 1..${MAX_CHURN_SESSIONS}`);
  if (!(Number.isInteger(options.waves) && options.waves >= 2 && options.waves <= options.sessions)) throw new Error('waves must be 2..sessions');
  const origin = `https://${options.host}:${options.port}`;
  const startMs = Date.now();
  const before = await resources(options.httpBase);
  const waves: ChurnWave[] = [];
  let firstError: string | null = null;
  let next = 0;
  let openedSoFar = 0;
  const samples: ChurnSample[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await new Promise((r) => setTimeout(r, SAMPLE_EVERY_MS));
      if (!sampling) break;
      try {
        samples.push({ t_s: (Date.now() - startMs) / 1000, opened: openedSoFar, ...(await resources(options.httpBase)) });
      } catch {
        // a /status that does not answer within its timeout is a gap in the series, not a failed run
      }
    }
  })();
  for (let w = 0; w < options.waves; w++) {
    const waveStart = Date.now();
    const size = Math.floor(options.sessions / options.waves) + (w < options.sessions % options.waves ? 1 : 0);
    let opened = 0;
    let abandoned = 0;
    let completed = 0;
    let failures = 0;
    const one = async (i: number): Promise<void> => {
      let client: PccClient | null = null;
      try {
        client = await PccClient.connect(origin, { certSha256Hex: options.certSha256Hex, localAddress: loopbackSource(i), connectTimeoutMs: 10_000 });
        opened++;
        openedSoFar++;
        const abort = new AbortController();
        const cancelFirst = i % 4 === 0;
        let received = 0;
        let abandon!: () => void;
        const abandonAt = new Promise<'abandon'>((resolve) => { abandon = () => resolve('abandon'); });
        const timer = setTimeout(abandon, ABANDON_AFTER_MS);
        const fetch = client.fetch(options.fetchPath, {
          signal: abort.signal,
          onData: (chunk) => {
            received += chunk.byteLength;
            if (received >= ABANDON_AFTER_BYTES) abandon();
          },
        }).then(() => 'complete' as const, () => 'failed' as const);
        const first = await Promise.race([fetch, abandonAt]);
        clearTimeout(timer);
        if (first === 'complete') completed++;
        else if (first === 'abandon') {
          abandoned++;
          if (cancelFirst) abort.abort();
        } else failures++;
      } catch (err) {
        failures++;
        firstError ??= err instanceof Error ? err.message : String(err);
      } finally {
        client?.close();
      }
    };
    const queue = Array.from({ length: size }, () => next++);
    await Promise.all(Array.from({ length: Math.min(options.concurrency, size) }, async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) await one(i);
    }));
    const abandonedAtMs = Date.now();
    let after = await resources(options.httpBase);
    while ((after.sessions > 0 || after.send_loop_members > 0) && Date.now() - abandonedAtMs < SETTLE_TIMEOUT_MS) {
      await new Promise((r) => setTimeout(r, SETTLE_POLL_MS));
      after = await resources(options.httpBase);
    }
    const settled = after.sessions === 0 && after.send_loop_members === 0;
    const wave: ChurnWave = {
      wave: w + 1, opened, abandoned_mid_segment: abandoned, completed_before_abandon: completed, failures,
      wave_s: (Date.now() - waveStart) / 1000, settle_s: settled ? (Date.now() - abandonedAtMs) / 1000 : null, after,
    };
    waves.push(wave);
    options.log?.('churn-wave', { ...wave, eta_s: Math.round(((Date.now() - startMs) / (w + 1)) * (options.waves - w - 1) / 1000) });
  }
  sampling = false;
  await sampler;
  const durationS = (Date.now() - startMs) / 1000;
  const total = waves.reduce((s, w) => s + w.opened, 0);
  return { sessions: total, duration_s: durationS, sessions_per_s: total / durationS, before, waves, samples, first_error: firstError };
}
