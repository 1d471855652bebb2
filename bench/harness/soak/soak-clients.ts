// The soak's clients, all in one Node process inside the emulated link's namespace (soak-clients-main.ts): each
// session of the plan (soak-plan.ts) fetches from the origin until the deadline and counts what it received; every
// SAMPLE_INTERVAL_S a line with each session's byte count goes to `onSample`. A session that fails is reopened (and
// counted), so one error does not end a long soak. Bounded by the deadline.
import { PccClient } from '@pcc-stream/server/client';
import { SAMPLE_INTERVAL_S, SEGMENT_S, type SoakSession } from './soak-plan.ts';

/** A sparse object of the bench media directory (run-bulk.ts's BULK_OBJECT), larger than any soak reads. */
export const SOAK_OBJECT = '/bulk/blob-4g.bin';
const OBJECT_BYTES = 4 * 1024 ** 3;
/** Wait before reopening a failed session. */
const REOPEN_AFTER_MS = 1000;

export interface SoakClientOptions {
  origin: string;
  certSha256Hex: string;
  sessions: SoakSession[];
  durationS: number;
}

export interface SoakClientSample {
  t_s: number;
  /** Bytes received so far, per session index. */
  bytes: number[];
  /** Sessions opened so far per index (1 = never reopened). */
  opens: number[];
  errors: number;
  last_error: string | null;
}

export async function runSoakClients(options: SoakClientOptions, onSample: (s: SoakClientSample) => void): Promise<SoakClientSample> {
  const startMs = Date.now();
  const endMs = startMs + options.durationS * 1000;
  const bytes = options.sessions.map(() => 0);
  const opens = options.sessions.map(() => 0);
  let errors = 0;
  let lastError: string | null = null;
  const sample = (): SoakClientSample => ({ t_s: (Date.now() - startMs) / 1000, bytes: [...bytes], opens: [...opens], errors, last_error: lastError });

  const session = async (s: SoakSession): Promise<void> => {
    let offset = s.index * 64 * 1024 * 1024;
    while (Date.now() < endMs) {
      let client: PccClient | null = null;
      try {
        const params: Record<string, number> = s.cc === 'fixed' ? { rate_bps: s.bitrateMbps * 1e6 } : {};
        client = await PccClient.connect(options.origin, { certSha256Hex: options.certSha256Hex, cc: s.cc, params });
        opens[s.index]!++;
        const onData = (chunk: Uint8Array): void => { bytes[s.index]! += chunk.byteLength; };
        if (s.cc === 'fixed') {
          // One long object at the session's constant rate, aborted at the deadline.
          const abort = new AbortController();
          const timer = setTimeout(() => abort.abort(), Math.max(0, endMs - Date.now()));
          try {
            await client.fetch(SOAK_OBJECT, { onData, signal: abort.signal, range: { start: offset % (OBJECT_BYTES / 2), end: OBJECT_BYTES - 1 } });
          } finally {
            clearTimeout(timer);
          }
        } else {
          // A segment every SEGMENT_S, as a player at a fixed rendition would ask; a late one is followed at once.
          const segmentBytes = Math.round((s.bitrateMbps * 1e6 * SEGMENT_S) / 8);
          let nextMs = Date.now();
          while (Date.now() < endMs) {
            const start = offset % (OBJECT_BYTES - segmentBytes);
            await client.fetch(SOAK_OBJECT, { onData, range: { start, end: start + segmentBytes - 1 } });
            offset += segmentBytes;
            nextMs += SEGMENT_S * 1000;
            const waitMs = Math.min(nextMs, endMs) - Date.now();
            if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
            else nextMs = Date.now();
          }
        }
      } catch (err) {
        errors++;
        lastError = err instanceof Error ? err.message : String(err);
        await new Promise((r) => setTimeout(r, REOPEN_AFTER_MS));
      } finally {
        client?.close();
      }
    }
  };

  const timer = setInterval(() => onSample(sample()), SAMPLE_INTERVAL_S * 1000);
  try {
    await Promise.all(options.sessions.map(session));
  } finally {
    clearInterval(timer);
  }
  return sample();
}
