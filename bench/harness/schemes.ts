// What each benchmark scheme means for the player page and the Node client.
import type { Scheme } from './scenario.ts';

export interface SchemeTransport {
  /** The player's `transport` URL parameter and the fetch CLI's --transport. */
  transport: 'datagram' | 'quic-stream' | 'tcp';
  /** The congestion controller: a WASM controller (datagram), quinn's (quic-stream) or the kernel's (tcp). */
  cc: string;
}

export function schemeTransport(scheme: Scheme): SchemeTransport {
  if (scheme.startsWith('quic-')) return { transport: 'quic-stream', cc: scheme.slice('quic-'.length) };
  if (scheme.startsWith('tcp-')) return { transport: 'tcp', cc: scheme.slice('tcp-'.length) };
  return { transport: 'datagram', cc: scheme };
}
