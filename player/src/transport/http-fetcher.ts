// A MediaFetcher over the origin's TCP baseline: fetch() on the kernel's TCP, plain HTTP/1.1 by default or HTTPS when
// asked for (the URL's scheme decides). Every TCP session's dash.js loads through it (transport-loader.ts), as the
// WebTransport sessions load through theirs, so the ABR's throughput samples are measured the same way on every
// transport: from the loader's progress events, never from Chromium's XHR progress throttling or Resource Timing.
// It is also the TCP StreamSource of the continuous-stream mode (continuous-stream-fetcher.ts), as WorkerFetcher is
// on datagrams, so the TCP baselines get the same one-stream delivery.
import { CMSD_DYNAMIC_HEADER, CMSD_STATIC_HEADER } from '@pcc-stream/protocol';
import type { StreamSource } from './continuous-stream-fetcher.ts';
import type { ByteRange, MediaFetcher, MediaResponse, ProgressCallback } from './media-fetcher.ts';

export class HttpFetcher implements MediaFetcher, StreamSource {
  /** Body bytes received (goodput accounting), by fetch() and stream() alike. */
  bytesReceived = 0;

  /** `origin`: `http://host:port` (or `https://host:port`) of the TCP baseline. */
  constructor(private readonly origin: string) {}

  async fetch(path: string, range: ByteRange | null, onProgress: ProgressCallback, signal: AbortSignal): Promise<MediaResponse> {
    const headers: Record<string, string> = {};
    if (range) headers.range = `bytes=${range.firstByte}-${range.lastByte ?? ''}`;
    const response = await fetch(this.origin + path, { headers, signal, cache: 'no-store' });
    const total = Number(response.headers.get('content-length') ?? 0);
    // The response head is the first byte's time: dash.js takes its first progress event as the request's latency
    // and counts the bytes after it, so the head goes alone. Were the first body read the first event, a body that
    // arrives in one read (loopback, a busy page) would leave dash.js no bytes to count and no throughput sample.
    onProgress(0, total);
    const chunks: Uint8Array[] = [];
    let loaded = 0;
    await this.readBody(response, (value) => {
      chunks.push(value);
      loaded += value.byteLength;
      onProgress(loaded, total);
    });
    // A body that ended short of its Content-Length is an error, never a segment: dash.js retries it (status 0 from the
    // loader) instead of appending a cut moof/mdat that the next append would be parsed into. Chromium already fails
    // such a read (ERR_CONTENT_LENGTH_MISMATCH); this holds whatever the fetch below us does. A coded body's length is
    // not the header's.
    const declared = response.headers.get('content-length');
    if (declared !== null && response.headers.get('content-encoding') === null && loaded !== Number(declared)) {
      throw new Error(`${path}: the body ended after ${loaded} of its ${declared} bytes`);
    }
    const body = new Uint8Array(loaded);
    let at = 0;
    for (const c of chunks) {
      body.set(c, at);
      at += c.byteLength;
    }
    return { ...responseHead(response), body: body.buffer };
  }

  /** StreamSource: a 2xx body handed to `onChunk` read by read; the response's own body is empty, or the origin's
   *  reason when it refused (for the error message). */
  async stream(path: string, onChunk: (bytes: Uint8Array) => void, signal: AbortSignal): Promise<MediaResponse> {
    const response = await fetch(this.origin + path, { signal, cache: 'no-store' });
    if (response.status < 200 || response.status >= 300) return { ...responseHead(response), body: await response.arrayBuffer() };
    await this.readBody(response, onChunk);
    return { ...responseHead(response), body: new ArrayBuffer(0) };
  }

  private async readBody(response: Response, onChunk: (bytes: Uint8Array) => void): Promise<void> {
    if (!response.body) return;
    const reader = response.body.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      this.bytesReceived += value.byteLength;
      onChunk(value);
    }
  }
}

function responseHead(response: Response): Omit<MediaResponse, 'body'> {
  return {
    status: response.status, statusText: response.statusText, contentType: response.headers.get('content-type') ?? '',
    cmsdStatic: response.headers.get(CMSD_STATIC_HEADER) ?? '', cmsdDynamic: response.headers.get(CMSD_DYNAMIC_HEADER) ?? '',
  };
}
