// Client-side session receiver shared by the Node client and the player's worker: decodes DATA datagrams,
// feeds the ACK builder and each request's reassembly, and computes the receive window (PROTOCOL.md §4–§6).
// Pure state: the caller supplies the clock and sends the ACK bytes that poll() returns.
import { DATAGRAM_TYPE_DATA } from '../constants.ts';
import { fail, ok, type Result } from '../errors.ts';
import { decodeDataDatagram } from '../wire/data-datagram.ts';
import { AckBuilder, type AckPolicy } from './ack-builder.ts';
import { BodyReassembly } from './body-reassembly.ts';

export interface DatagramReceiverOptions extends Partial<AckPolicy> {
  /** Most bytes this receiver holds un-taken across all requests; advertised as the window (default 16 MiB). */
  maxWindowBytes?: number;
}

export interface ReceivedData {
  requestId: number;
  packetNumber: number;
  /** Bytes of this datagram that were new for the body (0 for duplicates and unknown requests). */
  newBytes: number;
}

export class DatagramReceiver {
  private readonly acks: AckBuilder;
  private readonly bodies = new Map<number, BodyReassembly>();
  readonly maxWindowBytes: number;
  private heldBytes = 0;
  private advertisedWindowBytes: number;
  datagramsReceived = 0;
  bytesReceived = 0;
  /** DATA for requests not (or no longer) open: acknowledged, then dropped. */
  datagramsIgnored = 0;
  datagramsMalformed = 0;

  constructor(options: DatagramReceiverOptions = {}) {
    this.acks = new AckBuilder(options);
    this.maxWindowBytes = options.maxWindowBytes ?? 16 * 1024 * 1024;
    this.advertisedWindowBytes = this.maxWindowBytes;
  }

  /** Starts accepting DATA for a request id (call before sending the REQUEST: datagrams may overtake the RESPONSE). */
  open(requestId: number): void {
    if (!this.bodies.has(requestId)) this.bodies.set(requestId, new BodyReassembly());
  }

  /** Applies the body length from the RESPONSE frame. */
  setBodyLength(requestId: number, bodyLength: number): Result<void> {
    const body = this.bodies.get(requestId);
    if (!body) return fail('invalid-field', `request ${requestId} is not open`);
    return body.setLength(bodyLength);
  }

  /** Stops accepting DATA for a request and frees what it held (completion or cancellation). */
  close(requestId: number): void {
    const body = this.bodies.get(requestId);
    if (!body) return;
    this.heldBytes -= body.bufferedBytes;
    this.bodies.delete(requestId);
    this.maybeWindowUpdate(0);
  }

  get openRequests(): number {
    return this.bodies.size;
  }

  /** Handles one received datagram. Errors are per-datagram; the session goes on. */
  onDatagram(bytes: Uint8Array, nowUs: number): Result<ReceivedData> {
    if (bytes.byteLength < 1 || bytes[0] !== DATAGRAM_TYPE_DATA) {
      this.datagramsMalformed++;
      return fail('unknown-type', 'datagram is not DATA');
    }
    const decoded = decodeDataDatagram(bytes);
    if (!decoded.ok) {
      this.datagramsMalformed++;
      return decoded;
    }
    const d = decoded.value;
    this.datagramsReceived++;
    this.bytesReceived += bytes.byteLength;
    this.acks.onPacket(d.packetNumber, nowUs);
    const body = this.bodies.get(d.requestId);
    if (!body) {
      this.datagramsIgnored++;
      return ok({ requestId: d.requestId, packetNumber: d.packetNumber, newBytes: 0 });
    }
    const stored = body.onData(d.offset, d.payload);
    if (!stored.ok) return stored;
    this.heldBytes += stored.value;
    return ok({ requestId: d.requestId, packetNumber: d.packetNumber, newBytes: stored.value });
  }

  /** In-order bytes of a request not yet taken (consumed; frees window). */
  take(requestId: number, nowUs = 0): Uint8Array[] {
    const body = this.bodies.get(requestId);
    if (!body) return [];
    const before = body.bufferedBytes;
    const chunks = body.take();
    this.heldBytes -= before - body.bufferedBytes;
    this.maybeWindowUpdate(nowUs);
    return chunks;
  }

  body(requestId: number): BodyReassembly | undefined {
    return this.bodies.get(requestId);
  }

  isComplete(requestId: number): boolean {
    return this.bodies.get(requestId)?.complete ?? false;
  }

  windowBytes(): number {
    return Math.max(0, this.maxWindowBytes - this.heldBytes);
  }

  /** After freeing space, tell a window-limited sender at once rather than at the next data packet. */
  private maybeWindowUpdate(nowUs: number): void {
    if (this.advertisedWindowBytes < this.maxWindowBytes / 2 && this.windowBytes() >= this.maxWindowBytes / 2) {
      this.acks.requestImmediateAck(nowUs);
    }
  }

  /** When poll() will next have an ACK to send (µs), or null. */
  ackDueAtUs(): number | null {
    return this.acks.ackDueAtUs();
  }

  /**
   * The ACK datagram to send now, if one is due. `force` sends it at once when any packet awaits acknowledgement,
   * whatever the delayed-ACK timer says: a tail ACK when a body completes, so the sender does not wait for a timer
   * that a busy thread may fire late (its probe timeout and RTT samples would suffer).
   */
  poll(nowUs: number, force = false): Uint8Array | null {
    const window = this.windowBytes();
    const ack = this.acks.poll(nowUs, window, force && this.acks.ackDueAtUs() !== null);
    if (ack) this.advertisedWindowBytes = window;
    return ack;
  }

  /** Largest packet number received, -1 before any. */
  get largestReceived(): number {
    return this.acks.largestReceived;
  }

  get acksSent(): number {
    return this.acks.acksBuilt;
  }
}
