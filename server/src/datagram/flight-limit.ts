// How many bytes one session may have in flight (PROTOCOL.md §6): min(cwnd, the receiver's window), and no
// more than a couple of packets to a peer that has stopped acknowledging, whatever a rate-based controller
// would allow: do not stream into a dead client. The session's memory bound caps the packets tracked for loss
// detection (session-memory.ts), so no window a client advertises makes the origin hold more for it.
/** No ACK for this long with packets in flight makes a peer silent: far beyond any RTT plus ack delay we serve. */
export const SILENT_PEER_US = 1_000_000;
/** A silent peer is held to this many packets in flight (enough to probe it). */
export const SILENT_PEER_MAX_PACKETS = 2;
/** After an idle spell (nothing in flight) the peer counts as heard from at most this long ago: new data gets
 *  SILENT_PEER_US - this before the cap applies, not nothing because the last ACK was long ago. */
export const IDLE_SILENCE_CREDIT_US = SILENT_PEER_US / 2;

export class FlightLimit {
  private peerWindow: number;
  private windowFromLargestAcked = -1;
  private lastAckUs: number;

  /** `maxPacketsInFlight`: the session memory's cap on tracked packets (Infinity = none). */
  constructor(initialWindowBytes: number, nowUs: number, private readonly maxPacketsInFlight = Infinity) {
    this.peerWindow = initialWindowBytes;
    this.lastAckUs = nowUs;
  }

  get peerWindowBytes(): number {
    return this.peerWindow;
  }

  /** A REQUEST carries the receiver's current window too: the newest information wins until the next ACK. */
  onRequestWindow(windowBytes: number): void {
    this.peerWindow = windowBytes;
  }

  /** A valid ACK: the window it carries counts unless an ACK with a larger largest-acked number came first (reordering). */
  onAck(nowUs: number, largestAcked: number, windowBytes: number): void {
    this.lastAckUs = nowUs;
    if (largestAcked >= this.windowFromLargestAcked) {
      this.windowFromLargestAcked = largestAcked;
      this.peerWindow = windowBytes;
    }
  }

  /** Called at the start of each send turn. */
  onTurn(nowUs: number, packetsInFlight: number): void {
    if (packetsInFlight === 0) this.lastAckUs = Math.max(this.lastAckUs, nowUs - IDLE_SILENCE_CREDIT_US);
  }

  /** Whether the peer has been silent too long with packets in flight. */
  silent(nowUs: number, packetsInFlight: number): boolean {
    return packetsInFlight > 0 && nowUs - this.lastAckUs > SILENT_PEER_US;
  }

  /** Which of the limits in allowedBytes binds now (the smallest; cwnd on ties). */
  binding(nowUs: number, cwndBytes: number, packetsInFlight: number, packetBytes: number): 'cwnd' | 'receiver-window' | 'silent-peer' | 'session-memory' {
    const silentCap = this.silent(nowUs, packetsInFlight) ? SILENT_PEER_MAX_PACKETS * packetBytes : Infinity;
    if (silentCap < Math.min(cwndBytes, this.peerWindow)) return 'silent-peer';
    if (this.maxPacketsInFlight * packetBytes < Math.min(cwndBytes, this.peerWindow)) return 'session-memory';
    return this.peerWindow < cwndBytes ? 'receiver-window' : 'cwnd';
  }

  /** Bytes that may be in flight now. */
  allowedBytes(nowUs: number, cwndBytes: number, packetsInFlight: number, packetBytes: number): number {
    const silentCap = this.silent(nowUs, packetsInFlight) ? SILENT_PEER_MAX_PACKETS * packetBytes : Infinity;
    return Math.min(cwndBytes, this.peerWindow, silentCap, this.maxPacketsInFlight * packetBytes);
  }
}
