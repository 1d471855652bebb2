// Send-side state of one request whose body travels in DATA datagrams: what is new, what must be resent,
// and what the receiver has acknowledged (PROTOCOL.md §5).
import { RangeSet } from '@pcc-stream/protocol';
import type { BodySource } from '../media/body-source.ts';

export interface Chunk {
  offset: number;
  length: number;
  retransmission: boolean;
}

export class OutgoingRequest {
  private nextOffset: number;
  readonly endOffset: number;
  private readonly retransmitQueue: Array<{ start: number; end: number }> = [];
  private readonly acked = new RangeSet();
  bytesSent = 0;
  retransmittedBytes = 0;
  packetsSent = 0;
  packetsLost = 0;
  readonly startedUs: number;

  constructor(
    readonly requestId: number,
    readonly body: BodySource,
    readonly bodyOffset: number,
    readonly bodyLength: number,
    nowUs: number,
  ) {
    this.nextOffset = bodyOffset;
    this.endOffset = bodyOffset + bodyLength;
    this.startedUs = nowUs;
  }

  hasDataToSend(): boolean {
    return this.retransmitQueue.length > 0 || this.nextOffset < this.endOffset;
  }

  /** The next bytes to send: lost data first (minus what was acknowledged meanwhile), then new data. */
  nextChunk(maxPayloadBytes: number): Chunk | null {
    while (this.retransmitQueue.length > 0) {
      const range = this.retransmitQueue[0]!;
      const gap = this.acked.firstGap(range.start, range.end);
      if (gap === null) {
        this.retransmitQueue.shift();
        continue;
      }
      const length = Math.min(maxPayloadBytes, gap.end - gap.start);
      range.start = gap.start + length;
      if (range.start >= range.end) this.retransmitQueue.shift();
      return { offset: gap.start, length, retransmission: true };
    }
    if (this.nextOffset < this.endOffset) {
      const length = Math.min(maxPayloadBytes, this.endOffset - this.nextOffset);
      const chunk = { offset: this.nextOffset, length, retransmission: false };
      this.nextOffset += length;
      return chunk;
    }
    return null;
  }

  /** Puts a chunk back at the front (it could not be sent). */
  unsend(chunk: Chunk): void {
    if (!chunk.retransmission && chunk.offset + chunk.length === this.nextOffset) this.nextOffset = chunk.offset;
    else this.retransmitQueue.unshift({ start: chunk.offset, end: chunk.offset + chunk.length });
  }

  onSent(chunk: Chunk): void {
    this.bytesSent += chunk.length;
    this.packetsSent++;
    if (chunk.retransmission) this.retransmittedBytes += chunk.length;
  }

  onAcked(offset: number, length: number): void {
    this.acked.add(offset, offset + length);
  }

  onLost(offset: number, length: number): void {
    this.packetsLost++;
    if (!this.acked.covers(offset, offset + length)) this.retransmitQueue.push({ start: offset, end: offset + length });
  }

  /** Resends a range that may still arrive (probe timeout): not counted as lost. */
  requeue(offset: number, length: number): void {
    if (!this.acked.covers(offset, offset + length)) this.retransmitQueue.push({ start: offset, end: offset + length });
  }

  get complete(): boolean {
    return this.acked.covers(this.bodyOffset, this.endOffset);
  }

  get ackedBytes(): number {
    return this.acked.size;
  }
}
