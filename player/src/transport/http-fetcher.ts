// A MediaFetcher over the origin's HTTPS/TCP baseline (fetch() on the kernel's TCP), for the aids that need our loader
// in front of dash.js on TCP too (client-side early requests, prefetching-fetcher.ts): the honest comparison gives the
// TCP baselines every aid that is not congestion control. Without aids dash.js's own XHR loader serves TCP.
import { CMSD_DYNAMIC_HEADER, CMSD_STATIC_HEADER } from '@pcc-stream/protocol';
import type { ByteRange, MediaFetcher, MediaResponse, ProgressCallback } from './media-fetcher.ts';

export class HttpsFetcher implements MediaFetcher {
  /** Body bytes received (goodput accounting). */
  bytesReceived = 0;

  /** `origin`: `https://host:port` of the HTTPS baseline. */
  constructor(private readonly origin: string) {}

  async fetch(path: string, range: ByteRange | null, onProgress: ProgressCallback, signal: AbortSignal): Promise<MediaResponse> {
    const headers: Record<string, string> = {};
    if (range) headers.range = `bytes=${range.firstByte}-${range.lastByte ?? ''}`;
    const response = await fetch(this.origin + path, { headers, signal, cache: 'no-store' });
    const total = Number(response.headers.get('content-length') ?? 0);
    const chunks: Uint8Array[] = [];
    let loaded = 0;
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        chunks.push(value);
        loaded += value.byteLength;
        this.bytesReceived += value.byteLength;
        onProgress(loaded, total);
      }
    }
    const body = new Uint8Array(loaded);
    let at = 0;
    for (const c of chunks) {
      body.set(c, at);
      at += c.byteLength;
    }
    return {
      status: response.status, statusText: response.statusText, contentType: response.headers.get('content-type') ?? '',
      body: body.buffer, cmsdStatic: response.headers.get(CMSD_STATIC_HEADER) ?? '', cmsdDynamic: response.headers.get(CMSD_DYNAMIC_HEADER) ?? '',
    };
  }
}
