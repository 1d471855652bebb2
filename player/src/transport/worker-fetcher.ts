// Page-side handle of the WebTransport worker: a MediaFetcher whose requests run in the worker.
import type { ByteRange, MediaFetcher, MediaResponse, ProgressCallback } from './media-fetcher.ts';
import type { WorkerScript } from '../config/session-params.ts';
import { startTransportWorker } from './worker-script.ts';
import type { ConnectOptions, FromWorker, SessionOpenTiming, TelemetryPoint, ToWorker, TransportCounters } from './worker-messages.ts';

interface Pending {
  resolve: (r: MediaResponse) => void;
  reject: (e: Error) => void;
  onProgress: ProgressCallback;
  onChunk?: (bytes: Uint8Array) => void;
}

export interface WorkerFetcherEvents {
  onTelemetry?: (point: TelemetryPoint) => void;
  onCounters?: (counters: TransportCounters) => void;
  onClosed?: (reason: string) => void;
}

export class WorkerFetcher implements MediaFetcher {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly readyPromise: Promise<void>;
  private readonly connectingPromise: Promise<void>;
  private failure: Error | null = null;
  /** When the worker got to each step of opening the session; null until it is ready. */
  openTiming: SessionOpenTiming | null = null;
  /** The scheme of the URL the worker's script ran from (worker-messages.ts `connecting`); null until then. */
  scriptProtocol: string | null = null;

  constructor(options: ConnectOptions, events: WorkerFetcherEvents = {}, script: WorkerScript = 'inline') {
    this.worker = startTransportWorker(script);
    let settle: { resolve: () => void; reject: (e: Error) => void } | null = null;
    this.readyPromise = new Promise<void>((resolve, reject) => { settle = { resolve, reject }; });
    let connecting: () => void = () => {};
    this.connectingPromise = new Promise<void>((resolve) => { connecting = resolve; });
    // A worker that never gets there (it crashed, or failed first) does not hold up whoever waits for it.
    this.readyPromise.then(connecting, connecting);
    this.worker.onmessage = (ev: MessageEvent<FromWorker>) => {
      const msg = ev.data;
      switch (msg.type) {
        case 'connecting': this.scriptProtocol = msg.scriptProtocol; connecting(); break;
        case 'ready': this.openTiming = msg.timing; settle?.resolve(); break;
        case 'fatal': this.fail(new Error(msg.message)); settle?.reject(new Error(msg.message)); break;
        case 'closed': this.fail(new Error(`session closed: ${msg.reason}`)); events.onClosed?.(msg.reason); break;
        case 'progress': {
          const p = this.pending.get(msg.id);
          if (msg.bytes) p?.onChunk?.(new Uint8Array(msg.bytes));
          p?.onProgress(msg.loaded, msg.total);
          break;
        }
        case 'response': {
          const p = this.pending.get(msg.id);
          this.pending.delete(msg.id);
          p?.resolve({
            status: msg.status, statusText: msg.statusText, contentType: msg.contentType, body: msg.body,
            cmsdStatic: msg.cmsdStatic, cmsdDynamic: msg.cmsdDynamic,
          });
          break;
        }
        case 'failed': {
          const p = this.pending.get(msg.id);
          this.pending.delete(msg.id);
          p?.reject(new Error(msg.message));
          break;
        }
        case 'telemetry': events.onTelemetry?.(msg.point); break;
        case 'counters': events.onCounters?.(msg.counters); break;
      }
    };
    this.worker.onerror = (ev) => {
      const err = new Error(`transport worker crashed: ${ev.message}`);
      this.fail(err);
      settle?.reject(err);
    };
    this.post({ type: 'connect', options });
  }

  /** Resolves once the WebTransport session is up; rejects with a readable reason otherwise. */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  /** Resolves once the worker has constructed its WebTransport, or once its session is up or failed, whichever is
   *  first; never rejects. */
  connecting(): Promise<void> {
    return this.connectingPromise;
  }

  fetch(path: string, range: ByteRange | null, onProgress: ProgressCallback, signal: AbortSignal): Promise<MediaResponse> {
    return this.request(path, range, onProgress, signal);
  }

  /** StreamSource (continuous-stream-fetcher.ts): the body in order as it arrives; the response's own body is empty. */
  stream(path: string, onChunk: (bytes: Uint8Array) => void, signal: AbortSignal): Promise<MediaResponse> {
    return this.request(path, null, () => {}, signal, onChunk);
  }

  private request(path: string, range: ByteRange | null, onProgress: ProgressCallback, signal: AbortSignal, onChunk?: (bytes: Uint8Array) => void): Promise<MediaResponse> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<MediaResponse>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress, ...(onChunk ? { onChunk } : {}) });
      signal.addEventListener('abort', () => {
        if (!this.pending.delete(id)) return;
        this.post({ type: 'cancel', id });
        reject(new Error('aborted'));
      }, { once: true });
      this.post({ type: 'fetch', id, path, range, ...(onChunk ? { chunks: true } : {}) });
    });
  }

  close(): void {
    this.post({ type: 'close' });
    setTimeout(() => this.worker.terminate(), 500);
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  private post(msg: ToWorker): void {
    this.worker.postMessage(msg);
  }
}
