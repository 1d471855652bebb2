// Test helpers shared by the early-request tests: an in-memory file server whose bytes arrive when the test says, on
// a clock the test moves, and the segment paths dash.js writes (CMCD in the query).
import type { ByteRange, MediaFetcher, MediaResponse, ProgressCallback } from '../src/transport/media-fetcher.ts';
import { ProgressPacer } from '../src/transport/progress-pacer.ts';

export interface Pending {
  path: string;
  range: ByteRange | null;
  body: Uint8Array;
  sent: number;
  signal: AbortSignal;
  onProgress: ProgressCallback;
  resolve: (r: MediaResponse) => void;
  reject: (e: Error) => void;
  /** Reports through the WebTransport worker's pacer (webtransport-worker.ts), or null: every event as it comes. */
  pacer: ProgressPacer | null;
}

export interface ManualServerOptions {
  /** Report progress as the WebTransport worker does (its ProgressPacer), not as an HTTP fetcher. */
  webTransport?: boolean;
  /** Called with every step of the clock (e.g. to move a mocked Date along). */
  onAdvance?: (ms: number) => void;
}

/** Files whose bytes arrive only when the test delivers them; ranges as HTTP (206, 416). */
export class ManualServer implements MediaFetcher {
  clockMs = 0;
  readonly requests: Pending[] = [];
  constructor(private readonly files: Record<string, Uint8Array>, private readonly options: ManualServerOptions = {}) {}
  fetch(path: string, range: ByteRange | null, onProgress: ProgressCallback, signal: AbortSignal): Promise<MediaResponse> {
    return new Promise((resolve, reject) => {
      const file = this.files[path.split('?', 1)[0]!];
      if (!file) return resolve({ status: 404, statusText: 'Not Found', contentType: 'text/plain', body: new ArrayBuffer(0) });
      if (range && range.firstByte >= file.byteLength) return resolve({ status: 416, statusText: 'Range Not Satisfiable', contentType: 'text/plain', body: new ArrayBuffer(0) });
      const body = range ? file.slice(range.firstByte, range.lastByte === null ? undefined : range.lastByte + 1) : file;
      const p: Pending = { path, range, body, sent: 0, signal, onProgress, resolve, reject, pacer: this.options.webTransport ? new ProgressPacer() : null };
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      this.requests.push(p);
    });
  }
  private advance(ms: number): void {
    this.clockMs += ms;
    this.options.onAdvance?.(ms);
  }
  /** Reports `p`'s progress: as it comes, or as the WebTransport worker's pacer lets it out. */
  private report(p: Pending, complete: boolean): void {
    if (!p.pacer) return p.onProgress(p.sent, p.body.byteLength);
    for (const loaded of p.pacer.reports(this.clockMs, p.sent, complete)) p.onProgress(loaded, p.body.byteLength);
  }
  /** Request `p`'s response head (an HTTP head, a WebTransport RESPONSE frame) arrives after `afterMs`, no body yet. */
  async head(p: Pending, afterMs: number): Promise<void> {
    this.advance(afterMs);
    if (p.signal.aborted) return;
    this.report(p, false);
    await new Promise((r) => setImmediate(r));
  }
  /** `bytes` more of request `p` arrive after `afterMs`; the response resolves with the last byte. */
  async deliver(p: Pending, bytes: number, afterMs: number): Promise<void> {
    this.advance(afterMs);
    if (p.signal.aborted) return;
    p.sent = Math.min(p.body.byteLength, p.sent + bytes);
    this.report(p, p.sent === p.body.byteLength);
    if (p.sent === p.body.byteLength) {
      p.resolve({ status: p.range ? 206 : 200, statusText: 'OK', contentType: 'video/mp4', body: p.body.slice().buffer });
    }
    await new Promise((r) => setImmediate(r));
  }
}

export function file(n: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
}

export function segmentPath(rep: string, n: number, next: boolean, buffer = 'bl=4000'): string {
  // As dash.js writes it (ot is a token; cmcdQueryArgument quotes strings).
  const members = [buffer, ...(next ? [`nor="${encodeURIComponent(`seg-${rep}-${n + 1}.m4s`)}"`] : []), 'ot=v'];
  return `/abr/seg-${rep}-${n}.m4s?CMCD=${encodeURIComponent(members.join(','))}`;
}

