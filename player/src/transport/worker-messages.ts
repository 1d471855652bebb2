// Messages between the page and the WebTransport worker (which owns the session, datagram receipt and ACKs).
import type { ProgressMode } from './body-buffer.ts';
import type { ByteRange } from './media-fetcher.ts';

export interface ConnectOptions {
  /** https://host:port/path?cc=... of the WebTransport session. */
  sessionUrl: string;
  /** SHA-256 of the origin's self-signed certificate (DER), hex; null to rely on normal certificate checks. */
  certHashHex: string | null;
  /** Ask the server for its per-interval controller telemetry. */
  telemetry: boolean;
  /** What progress messages count as `loaded` (body-buffer.ts); `received` if absent. */
  progress?: ProgressMode;
}

export type ToWorker =
  | { type: 'connect'; options: ConnectOptions }
  /** `chunks`: hand over the body as it arrives, in order, in the progress messages (a continuous stream,
   *  continuous-stream-fetcher.ts), and not again whole in the response. */
  | { type: 'fetch'; id: number; path: string; range: ByteRange | null; chunks?: boolean }
  | { type: 'cancel'; id: number }
  | { type: 'close' };

/** Server-side controller state for one monitor interval, as the page charts it. */
export interface TelemetryPoint {
  /** Wall-clock-free: milliseconds on the worker's performance.now() clock when received. */
  receivedAtMs: number;
  sendRateBps: number | null;
  rttUs: number | null;
  lossRate: number | null;
  raw: Record<string, unknown>;
}

export interface TransportCounters {
  datagramsReceived: number;
  /** DATA datagrams sent (per completed requests' DONE frames) that never arrived: dropped by the network, the
   *  browser's network stack or its incoming datagram queue. */
  datagramsLost: number;
  /** Packets the sender declared lost (DONE frames); exceeds datagramsLost when ACKs arrive late. */
  datagramsDeclaredLost: number;
  /** Media body bytes received (each byte once, as an HTTP body counts them; no DATA headers, no duplicates). */
  bytesReceived: number;
  acksSent: number;
  /** Wall clock (epoch ms) when the worker read these counts: what a harness cuts its own byte count at. */
  countedAtEpochMs: number;
}

/** When the worker got to each step of opening its session (epoch ms: the worker's performance clock starts at its
 *  own creation, not the page's), for the page's start-up timeline. */
export interface SessionOpenTiming {
  /** The worker's module ran (its script was loaded and evaluated). */
  workerRunningEpochMs: number;
  /** The worker constructed its WebTransport (the QUIC handshake and the HTTP/3 CONNECT begin). */
  connectStartEpochMs: number;
  /** The session is ready. */
  readyEpochMs: number;
}

export type FromWorker =
  /** Posted once the worker constructed its WebTransport (the handshake is under way): `scriptProtocol` is its script
   *  URL's scheme (`blob:` for the inline script, the page's `http:`/`https:` for a fetched one; worker-script.ts). */
  | { type: 'connecting'; scriptProtocol: string }
  | { type: 'ready'; timing: SessionOpenTiming }
  | { type: 'fatal'; message: string }
  /** `bytes`: the in-order body bytes since the previous progress message, for a request fetched with `chunks`. */
  | { type: 'progress'; id: number; loaded: number; total: number; bytes?: ArrayBuffer }
  | { type: 'response'; id: number; status: number; statusText: string; contentType: string; body: ArrayBuffer; cmsdStatic: string; cmsdDynamic: string }
  | { type: 'failed'; id: number; message: string }
  | { type: 'telemetry'; point: TelemetryPoint }
  | { type: 'counters'; counters: TransportCounters }
  | { type: 'closed'; reason: string };
