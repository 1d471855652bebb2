// Reassembles one response body from DATA payloads that may arrive out of order, duplicated or split
// differently on retransmission, and hands it out in order (PROTOCOL.md §5).
import { fail, ok, type Result } from '../errors.ts';
import { RangeSet } from '../range-set.ts';

export class BodyReassembly {
  /** Body length; Infinity until the RESPONSE frame announces it. */
  private lengthBytes = Infinity;
  private readonly received = new RangeSet();
  /** Out-of-order and not-yet-taken pieces by offset; they tile the received bytes exactly. */
  private readonly pieces = new Map<number, Uint8Array>();
  private deliverCursor = 0;
  private takeCursor = 0;
  private heldBytes = 0;

  constructor(bodyLength?: number) {
    if (bodyLength !== undefined) this.setLength(bodyLength);
  }

  setLength(bodyLength: number): Result<void> {
    if (!Number.isInteger(bodyLength) || bodyLength < 0) return fail('invalid-field', `body length ${bodyLength} invalid`);
    const max = this.received.max();
    if (max !== undefined && max >= bodyLength) return fail('out-of-bounds', `already received byte ${max} beyond body length ${bodyLength}`);
    this.lengthBytes = bodyLength;
    return ok(undefined);
  }

  get bodyLength(): number {
    return this.lengthBytes;
  }

  /** Stores the new part of a payload; returns how many bytes were new. Keeps views, does not copy. */
  onData(offset: number, payload: Uint8Array): Result<number> {
    const end = offset + payload.byteLength;
    if (end > this.lengthBytes) return fail('out-of-bounds', `bytes ${offset}..${end} beyond body length ${this.lengthBytes}`);
    let newBytes = 0;
    let gap = this.received.firstGap(offset, end);
    while (gap !== null) {
      this.pieces.set(gap.start, payload.subarray(gap.start - offset, gap.end - offset));
      newBytes += gap.end - gap.start;
      this.received.add(gap.start, gap.end);
      gap = this.received.firstGap(gap.end, end);
    }
    this.heldBytes += newBytes;
    return ok(newBytes);
  }

  /** Bytes received in order from the start and not yet taken, as a list of chunks (consumed). */
  take(): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (;;) {
      const piece = this.pieces.get(this.takeCursor);
      if (piece === undefined) break;
      this.pieces.delete(this.takeCursor);
      this.takeCursor += piece.byteLength;
      this.heldBytes -= piece.byteLength;
      out.push(piece);
    }
    this.deliverCursor = this.takeCursor;
    return out;
  }

  /** Bytes received and held here (out of order, or in order but not yet taken). */
  get bufferedBytes(): number {
    return this.heldBytes;
  }

  get receivedBytes(): number {
    return this.received.size;
  }

  get takenBytes(): number {
    return this.deliverCursor;
  }

  /** Every byte of the body has arrived (it may not all have been taken yet). */
  get complete(): boolean {
    return this.received.size === this.lengthBytes;
  }
}
