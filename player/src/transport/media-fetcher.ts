// What the dash.js loader needs from a transport: fetch one resource with progress and cancellation.

/** Inclusive byte range, as in an HTTP Range header; `lastByte` null means "to the end". */
export interface ByteRange {
  firstByte: number;
  lastByte: number | null;
}

export interface MediaResponse {
  /** HTTP-like status from the server (200, 206, 404, ...). */
  status: number;
  statusText: string;
  contentType: string;
  body: ArrayBuffer;
  /** CTA-5006 CMSD values the origin sent with the response (PROTOCOL.md §2.7); absent or '' when none. */
  cmsdStatic?: string;
  cmsdDynamic?: string;
}

/** `durationMs`: how long the bytes since the previous call took to arrive, when they arrived earlier than this call
 *  (a segment served from an early request, prefetching-fetcher.ts); absent for bytes arriving now. */
export type ProgressCallback = (loadedBytes: number, totalBytes: number, durationMs?: number) => void;

export interface MediaFetcher {
  fetch(path: string, range: ByteRange | null, onProgress: ProgressCallback, signal: AbortSignal): Promise<MediaResponse>;
}

/** Parses "bytes=a-b" / "bytes=a-"; anything else (suffix or multi ranges, which dash.js never sends) is null. */
export function parseRangeHeader(value: string | undefined): ByteRange | null {
  if (!value) return null;
  const m = /^bytes=(\d+)-(\d*)$/.exec(value.trim());
  if (!m) return null;
  const firstByte = Number(m[1]);
  const lastByte = m[2] === '' ? null : Number(m[2]);
  if (lastByte !== null && lastByte < firstByte) return null;
  return { firstByte, lastByte };
}
