/// <reference types="vite/client" />
// The one place the page starts its WebTransport worker (issue 18, start-up): from the script inlined in the main
// bundle (`workerScript=inline`, the default) or from its own file (`fetched`). Vite builds both from
// webtransport-worker.ts: `?worker&inline` puts the worker's bundle in this module as a string and starts it from a
// Blob URL, so creating the worker fetches nothing; `new URL(…, import.meta.url)` emits the file the `fetched` worker
// asks the page's server for, a round trip on the session's path after the page's own bundle
// (bench/published/2026-11-25/session-setup: 76–86 ms on ATT-LTE-driving-2016). Both are plain module workers.
import type { WorkerScript } from '../config/session-params.ts';
import InlineTransportWorker from './webtransport-worker.ts?worker&inline';

const WORKER_NAME = 'webtransport';

export function startTransportWorker(script: WorkerScript): Worker {
  if (script === 'inline') return new InlineTransportWorker({ name: WORKER_NAME });
  return new Worker(new URL('./webtransport-worker.ts', import.meta.url), { type: 'module', name: WORKER_NAME });
}
