// One response body in the WebTransport worker, held as the bytes that have arrived rather than as a buffer of the
// announced length: a continuous stream (stream=1) announces everything left of the stream, far more than a page
// should hold, and hands its bytes on as they come (worker-messages.ts `chunks`), so only the bytes not yet handed
// on stay here. A whole-body request keeps what arrived and joins it once, at the end.

export class BodyBuffer {
  private pieces: Uint8Array[] = [];
  private heldBytes = 0;
  private filledBytes = 0;

  /** @param declaredBytes the RESPONSE frame's body length; @param chunked the body goes out in pieces (takeNew) */
  constructor(readonly declaredBytes: number, readonly chunked: boolean) {
    if (!Number.isSafeInteger(declaredBytes) || declaredBytes < 0) throw new Error(`body length ${declaredBytes} is not a byte count`);
  }

  /** Bytes arrived so far. */
  get filled(): number {
    return this.filledBytes;
  }

  get complete(): boolean {
    return this.filledBytes === this.declaredBytes;
  }

  /** Bytes this buffer holds now: arrived and not yet handed on. */
  get retainedBytes(): number {
    return this.heldBytes;
  }

  /** Adds the next in-order bytes; throws when they run past the announced length. Keeps a reference, not a copy. */
  append(chunk: Uint8Array): void {
    if (chunk.byteLength > this.declaredBytes - this.filledBytes) throw new Error('body longer than announced');
    if (chunk.byteLength === 0) return;
    this.pieces.push(chunk);
    this.heldBytes += chunk.byteLength;
    this.filledBytes += chunk.byteLength;
  }

  /** The bytes that arrived since the last call, joined into one transferable buffer (chunked bodies only). */
  takeNew(): ArrayBuffer {
    if (!this.chunked) throw new Error('takeNew: this body is handed over whole');
    return this.drain();
  }

  /** The whole body, once complete (whole-body requests only). */
  whole(): ArrayBuffer {
    if (this.chunked) throw new Error('whole: this body went out in pieces');
    if (!this.complete) throw new Error(`whole: ${this.filledBytes} of ${this.declaredBytes} bytes`);
    return this.drain();
  }

  private drain(): ArrayBuffer {
    const out = new Uint8Array(this.heldBytes);
    let at = 0;
    for (const piece of this.pieces) {
      out.set(piece, at);
      at += piece.byteLength;
    }
    this.pieces = [];
    this.heldBytes = 0;
    return out.buffer;
  }
}
