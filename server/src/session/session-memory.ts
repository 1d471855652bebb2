// One session's memory bound (--session-memory-mb) and how the origin divides it. What a client can make the origin
// hold for it: stream data it sends and we have not read (QUIC receive window), ACK datagrams not yet taken off the
// connection (quinn's datagram receive buffer) and a loss-detection record per packet in flight (the sender's
// tracker; retransmissions re-read the body, so in-flight data itself costs no memory). Each part is capped, so a
// hostile client's session costs at most this, and an honest one never comes near it.

/** Default bound per session: 8 MiB is ~36,000 packets in flight (50 MB, 400 ms at 1 Gbit/s). */
export const DEFAULT_SESSION_MEMORY_BYTES = 8 * 1024 * 1024;
/** The smallest bound the flag accepts: the QUIC receive window and datagram buffer minimums below fit in it. */
export const MIN_SESSION_MEMORY_BYTES = 1024 * 1024;
/** Estimated cost of one tracked packet: its SentPacket record, the tracker's map entry and the controller's. */
export const TRACKED_PACKET_BYTES = 200;
/** Shares of the bound: requests are a few hundred bytes and ACKs ~40 B, so 1/8 each is ample for both. */
const RECEIVE_WINDOW_SHARE = 1 / 8;
const DATAGRAM_RECEIVE_SHARE = 1 / 8;

export interface SessionMemoryBudget {
  sessionMemoryBytes: number;
  /** QUIC receive window (connection and stream): stream bytes a peer may leave unread. */
  receiveWindowBytes: number;
  /** quinn's datagram receive buffer: ACKs waiting for the receive loop (the oldest are dropped beyond it). */
  datagramReceiveBufferBytes: number;
  /** Loss-detection records a session may hold: packets in flight beyond this wait, whatever cwnd and window say. */
  maxTrackedPackets: number;
}

export function sessionMemoryBudget(sessionMemoryBytes: number): SessionMemoryBudget {
  if (!(sessionMemoryBytes >= MIN_SESSION_MEMORY_BYTES)) {
    throw new RangeError(`session memory must be at least ${MIN_SESSION_MEMORY_BYTES} bytes, got ${sessionMemoryBytes}`);
  }
  const receiveWindowBytes = Math.floor(sessionMemoryBytes * RECEIVE_WINDOW_SHARE);
  const datagramReceiveBufferBytes = Math.floor(sessionMemoryBytes * DATAGRAM_RECEIVE_SHARE);
  const trackedBytes = sessionMemoryBytes - receiveWindowBytes - datagramReceiveBufferBytes;
  return { sessionMemoryBytes, receiveWindowBytes, datagramReceiveBufferBytes, maxTrackedPackets: Math.floor(trackedBytes / TRACKED_PACKET_BYTES) };
}
