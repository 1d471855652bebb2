// A StreamSource over the origin's TCP baseline (fetch() on the kernel's TCP): one response read as it arrives, for the
// continuous-stream mode (continuous-stream-fetcher.ts), so the TCP baselines get the same one-stream delivery as datagrams.
import { CMSD_DYNAMIC_HEADER, CMSD_STATIC_HEADER } from '@pcc-stream/protocol';
import type { MediaResponse } from './media-fetcher.ts';
import type { StreamSource } from './continuous-stream-fetcher.ts';

export class HttpStreamSource implements StreamSource {
  /** Body bytes received (goodput accounting). */
  bytesReceived = 0;

  /** `origin`: scheme://host:port of the TCP baseline. */
  constructor(private readonly origin: string) {}

  async stream(path: string, onChunk: (bytes: Uint8Array) => void, signal: AbortSignal): Promise<MediaResponse> {
    const response = await fetch(this.origin + path, { signal, cache: 'no-store' });
    const ok = response.status >= 200 && response.status < 300;
    let errorBody = new ArrayBuffer(0);
    if (response.body && ok) {
      const reader = response.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.bytesReceived += value.byteLength;
        onChunk(value);
      }
    } else {
      errorBody = await response.arrayBuffer(); // the origin's reason, for the error message
    }
    return {
      status: response.status, statusText: response.statusText, contentType: response.headers.get('content-type') ?? '', body: errorBody,
      cmsdStatic: response.headers.get(CMSD_STATIC_HEADER) ?? '', cmsdDynamic: response.headers.get(CMSD_DYNAMIC_HEADER) ?? '',
    };
  }
}
