// What a session's transport (datagrams paced by our controller, or QUIC streams under quinn's CC)
// provides to the session: serving one opened body and the telemetry feed.
import type { CmcdState, CmsdDynamic, RequestFrame } from '@pcc-stream/protocol';
import type { OpenedBody } from '../media/media-store.ts';
import type { MiTelemetry } from '../telemetry/mi-telemetry.ts';
import type { RequestStream } from './request-stream.ts';

/** The CTA-5006 strings a RESPONSE frame carries (PROTOCOL.md §2.2). */
export interface ResponseCmsd {
  cmsdStatic: string;
  cmsdDynamic: string;
}

/**
 * How serving one body ended: `complete` (datagrams: every body byte acknowledged and DONE written; quic-stream: the
 * body written to QUIC and FIN sent), `cancelled` by its client, or `interrupted` by its session's end (or a DONE that
 * could not be written) before it completed; and the body bytes the transport sent for it (retransmissions
 * included). An interrupted one carries `why`, the error that showed it when there was one (the session's own close
 * reason is the session's to add).
 */
export type ServeOutcome =
  | { outcome: 'complete' | 'cancelled'; bodyBytesSent: number }
  | { outcome: 'interrupted'; bodyBytesSent: number; why: string | null };

/** How one request ended, as request.done lines and the prefetch counters name it. */
export type RequestOutcome = ServeOutcome['outcome'];

/**
 * How serving a body ended, `outcome` unless the session ended first: `sessionEnded` (the transport saw its session
 * close) or the stream's failure that showed the session closed (RequestStream.sessionClosed). A session's end is no
 * cancel by the client, and a body it cut off never counts complete.
 */
export function servedOutcome(outcome: 'complete' | 'cancelled', bodyBytesSent: number, sessionEnded: boolean, stream: RequestStream): ServeOutcome {
  return sessionEnded || stream.sessionClosed !== null ? { outcome: 'interrupted', bodyBytesSent, why: stream.sessionClosed } : { outcome, bodyBytesSent };
}

export interface TransportHandler {
  readonly transport: 'datagram' | 'quic-stream';
  /** Algorithm in charge, for logs. */
  readonly algorithm: string;
  /** The session's telemetry lines (and the player state and early-request counts they carry). */
  readonly telemetry: MiTelemetry;
  /** Sends the RESPONSE frame and the body; resolves when the request completed, was cancelled or was interrupted. */
  serveBody(request: RequestFrame, stream: RequestStream, opened: OpenedBody, cmsd: ResponseCmsd): Promise<ServeOutcome>;
  /** The transport's view of the delivery for CMSD-Dynamic (PROTOCOL.md §2.7): etp and rtt once it has an RTT sample. */
  deliveryEstimate(): Pick<CmsdDynamic, 'etpKbps' | 'rttMs'>;
  /** The player's latest valid CMCD (PROTOCOL.md §2.6): kept for /status and telemetry, and told to the controller. */
  onPlayerState(state: CmcdState, nowUs: number): void;
  /** Subscribes the stream to this session's telemetry lines until the client cancels. */
  serveTelemetry(request: RequestFrame, stream: RequestStream): Promise<void>;
  /** Frees everything (session over); resolves once its files (telemetry) are written and closed. Repeatable. */
  close(): Promise<void>;
  stats(): Record<string, number | string>;
}
