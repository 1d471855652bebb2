// Packetization for one session: request bodies cut into DATA datagrams (PROTOCOL.md §3.1) of at most the
// path's datagram size, written into one batch for the QUIC layer's sendDatagramBatch. Datagrams QUIC refuses
// (its send buffer is full) are kept, numbered and byte-exact, and go first in the next batch. Each header is laid
// out for the largest packet number and offset it may carry, so a body's full datagrams are all exactly the
// path's size.
import {
  DATA_MAX_HEADER_BYTES, DATA_MIN_HEADER_BYTES, MAX_DATAGRAM_BYTES, dataHeaderLayout, writeDataHeader, type SentPacket,
} from '@pcc-stream/protocol';
import type { Chunk, OutgoingRequest } from './outgoing-request.ts';

/** What the sender needs from a QUIC session (the native Session satisfies it). */
export interface DatagramSink {
  /**
   * Sends the first `count` datagrams (lengths in `lengths`, back to back in `payloads`); returns how many it took.
   * A sink that can sets `queuedAtNs[i]` to when datagram i was handed to QUIC (ns of CLOCK_MONOTONIC).
   */
  sendDatagramBatch(payloads: Uint8Array, lengths: Uint32Array, count: number, queuedAtNs?: Float64Array): number;
}

/** A sink that can pace (the native Session; the origin's --pacer addon, server/native/src/pacer.rs). */
export interface PacedDatagramSink extends DatagramSink {
  /** Queues the first `count` datagrams for the addon's pacer, datagram i due at `dueNs[i]` (ns of CLOCK_MONOTONIC); returns how many it took. */
  sendDatagramsAt(payloads: Uint8Array, lengths: Uint32Array, count: number, dueNs: Float64Array): number;
  /** Moves the departure stamps (ns; NaN: refused for good) of paced datagrams released since the last call into `sentAtNs`, in order; returns how many. */
  takeDepartures(sentAtNs: Float64Array): number;
  /** Drops the paced datagrams still waiting; returns how many. */
  discardPaced(): number;
}

/** Datagrams per call into the addon: amortizes the call at high rates, ≈ 94 kB of scratch at 1472 B. */
export const MAX_BATCH_PACKETS = 64;
// One scratch area for the whole process: the send loop runs one session at a time and the addon copies
// the batch before returning.
const scratch = new Uint8Array(MAX_BATCH_PACKETS * MAX_DATAGRAM_BYTES);
const scratchLengths = new Uint32Array(MAX_BATCH_PACKETS);
const scratchQueuedAtNs = new Float64Array(MAX_BATCH_PACKETS);

export interface BuiltPacket {
  /** What the tracker records once it is sent (its send time is set then). */
  packet: Omit<SentPacket, 'state'>;
  request: OutgoingRequest;
  chunk: Chunk;
}

/** Where packet numbers come from (SentPacketTracker). */
export interface PacketNumbers {
  allocatePacketNumber(): number;
  /** The largest number the next allocatePacketNumber() can return. */
  readonly nextPacketNumberBound: number;
}

interface RefusedPacket extends BuiltPacket {
  bytes: Uint8Array;
}

export class Packetizer {
  readonly maxDatagramBytes: number;
  private readonly batch: BuiltPacket[] = [];
  private batchBytes = 0;
  /** Built, numbered datagrams the QUIC layer refused; sent first, in order. */
  private backlog: RefusedPacket[] = [];

  /** `maxDatagramBytes`: the path's limit (QUIC's); capped at the protocol's MAX_DATAGRAM_BYTES. */
  constructor(maxDatagramBytes: number) {
    this.maxDatagramBytes = Math.min(MAX_DATAGRAM_BYTES, maxDatagramBytes);
    if (this.maxDatagramBytes < DATA_MAX_HEADER_BYTES + 1) throw new Error(`datagrams of ${maxDatagramBytes} B are too small`);
  }

  /** The most payload a datagram carries (with the smallest header). */
  get maxPayloadBytes(): number {
    return this.maxDatagramBytes - DATA_MIN_HEADER_BYTES;
  }

  /** Datagrams in the current batch. */
  get count(): number {
    return this.batch.length;
  }

  get full(): boolean {
    return this.batch.length === MAX_BATCH_PACKETS;
  }

  get hasBacklog(): boolean {
    return this.backlog.length > 0;
  }

  /** Starts an empty batch (the previous one was settled). */
  startBatch(): void {
    this.batch.length = 0;
    this.batchBytes = 0;
  }

  /** Adds the oldest refused datagram unchanged; null when there is none. */
  addFromBacklog(): BuiltPacket | null {
    const refused = this.backlog.shift();
    if (!refused) return null;
    scratch.set(refused.bytes, this.batchBytes);
    return this.push(refused);
  }

  /**
   * Adds `request`'s next chunk (lost data first, then new) as one DATA datagram numbered by `numbers`
   * (the session's tracker); null, and no number taken, when the request has nothing to send.
   */
  addNext(request: OutgoingRequest, numbers: PacketNumbers): BuiltPacket | null {
    // DATA offsets are relative to the body start (PROTOCOL.md §3.1), so they stay below bodyLength.
    const layout = dataHeaderLayout(request.requestId, numbers.nextPacketNumberBound, Math.max(0, request.bodyLength - 1));
    const chunk = request.nextChunk(this.maxDatagramBytes - layout.bytes);
    if (!chunk) return null;
    const packetNumber = numbers.allocatePacketNumber();
    const at = this.batchBytes;
    writeDataHeader(scratch, at, layout, request.requestId, packetNumber, chunk.offset - request.bodyOffset);
    scratch.set(request.body.read(chunk.offset, chunk.length), at + layout.bytes);
    return this.push({
      request,
      chunk,
      packet: {
        packetNumber, sentTimeUs: 0, bytes: layout.bytes + chunk.length, requestId: request.requestId,
        offset: chunk.offset, length: chunk.length, retransmission: chunk.retransmission,
      },
    });
  }

  private push(built: BuiltPacket): BuiltPacket {
    scratchLengths[this.batch.length] = built.packet.bytes;
    this.batch.push(built);
    this.batchBytes += built.packet.bytes;
    return built;
  }

  /** Hands the batch to QUIC; returns how many datagrams (a prefix) it accepted. */
  send(sink: DatagramSink): number {
    scratchQueuedAtNs.fill(NaN, 0, this.batch.length);
    return sink.sendDatagramBatch(scratch.subarray(0, this.batchBytes), scratchLengths, this.batch.length, scratchQueuedAtNs);
  }

  /** Hands the batch to the addon's pacer, datagram i due at `dueNs[i]`; returns how many (a prefix) it took. */
  sendAt(sink: PacedDatagramSink, dueNs: Float64Array): number {
    scratchQueuedAtNs.fill(NaN, 0, this.batch.length);
    return sink.sendDatagramsAt(scratch.subarray(0, this.batchBytes), scratchLengths, this.batch.length, dueNs);
  }

  /**
   * Settles the batch after QUIC accepted its first `accepted` datagrams: `onSent` for each of those in order, with
   * the sink's hand-over stamp (ns, NaN when it gave none), `onRefused` for each of the rest, which are kept (copied
   * out of the scratch area) for the next batch, AHEAD of any backlog the batch did not reach: a batch cut short by
   * a limit holds only the oldest refused datagrams, and the tracker must record numbers in allocation order (one
   * recorded after a higher number reads as skipped, and the client's ACK of it as an optimistic ACK).
   */
  settle(accepted: number, onSent: (built: BuiltPacket, queuedAtNs: number) => void, onRefused: (built: BuiltPacket) => void): void {
    let at = 0;
    const refused: RefusedPacket[] = [];
    for (let i = 0; i < this.batch.length; i++) {
      const b = this.batch[i]!;
      const size = b.packet.bytes;
      if (i < accepted) {
        onSent(b, scratchQueuedAtNs[i]!);
      } else {
        onRefused(b);
        refused.push({ ...b, bytes: scratch.slice(at, at + size) });
      }
      at += size;
    }
    // A batch takes new datagrams only once the backlog is empty, so this keeps the backlog in number order.
    if (refused.length > 0) this.backlog = refused.concat(this.backlog);
  }

  /** Drops a request's refused datagrams: numbered but never sent, they leave holes the tracker treats as skips. */
  dropRequest(request: OutgoingRequest): void {
    this.backlog = this.backlog.filter((b) => b.request !== request);
  }

  clear(): void {
    this.backlog = [];
  }
}
