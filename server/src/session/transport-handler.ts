// What a session's transport (datagrams paced by our controller, or QUIC streams under quinn's CC)
// provides to the session: serving one opened body and the telemetry feed.
import type { RequestFrame } from '@pcc-stream/protocol';
import type { OpenedBody } from '../media/media-store.ts';
import type { RequestStream } from './request-stream.ts';

export interface TransportHandler {
  readonly transport: 'datagram' | 'quic-stream';
  /** Algorithm in charge, for logs. */
  readonly algorithm: string;
  /** Sends the RESPONSE frame and the body; resolves when the request completed or was cancelled. */
  serveBody(request: RequestFrame, stream: RequestStream, opened: OpenedBody): Promise<'complete' | 'cancelled'>;
  /** Subscribes the stream to this session's telemetry lines until the client cancels. */
  serveTelemetry(request: RequestFrame, stream: RequestStream): Promise<void>;
  /** Frees everything (session over). */
  close(): void;
  stats(): Record<string, number | string>;
}
