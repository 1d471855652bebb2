// One response body in the WebTransport worker, held as the bytes that have arrived rather than as a buffer of the
// announced length: a continuous stream (stream=1) announces everything left of the stream, far more than a page
// should hold, and hands its bytes on as they come (worker-messages.ts `chunks`), so only the bytes not yet handed
// on stay here. A whole-body request keeps what arrived and joins it once, at the end.
//
// Its progress (`dueProgress`) counts every byte that has arrived, in order or not (`progress=received`, the default).
// Over TCP the kernel hands fetch() only in-order bytes, so a lost segment freezes the count until its resend; here we
// can do better, and what dash.js's rate readings want mid-download is the bytes the path delivered: counting only the
// in-order prefix froze them behind each hole for a round trip and a queue wait while the link kept delivering
// (bench/published/2026-11-25/dashjs-sample-gap). `progress=in-order` keeps the prefix count, to compare against.
import type { ProgressPacer } from './progress-pacer.ts';

/** What a body's progress counts as `loaded` (the `progress=` page parameter, session-params.ts). */
export const PROGRESS_MODES = ['received', 'in-order'] as const;
export type ProgressMode = (typeof PROGRESS_MODES)[number];
export const DEFAULT_PROGRESS_MODE: ProgressMode = 'received';

/** One progress message's content (worker-messages.ts): `bytes` only for a chunked body, its in-order new bytes. */
export interface ProgressMessage {
  loaded: number;
  total: number;
  bytes?: ArrayBuffer;
}

export class BodyBuffer {
  private pieces: Uint8Array[] = [];
  private heldBytes = 0;
  private filledBytes = 0;
  private progressReported = 0;

  /** @param declaredBytes the RESPONSE frame's body length; @param chunked the body goes out in pieces (takeNew) */
  constructor(readonly declaredBytes: number, readonly chunked: boolean) {
    if (!Number.isSafeInteger(declaredBytes) || declaredBytes < 0) throw new Error(`body length ${declaredBytes} is not a byte count`);
  }

  /** Bytes arrived so far, in order (those appended). */
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

  /**
   * The byte count to report as progress: with `received`, every byte that arrived (`receivedBytes`, the reassembly's
   * count in any order; undefined where nothing arrives out of order, a stream-delivered body), else the in-order bytes.
   * Never above the announced length, never below a count it returned before.
   */
  progressBytes(mode: ProgressMode, receivedBytes: number | undefined): number {
    const received = mode === 'received' ? Math.min(receivedBytes ?? 0, this.declaredBytes) : 0;
    this.progressReported = Math.max(this.progressReported, this.filledBytes, received);
    return this.progressReported;
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

/**
 * The progress messages due for `body` at `nowMs` (the pacer's reports, progress-pacer.ts), counted as `mode` says.
 * A chunked body's in-order bytes since the last hand-over go with each report that counts body bytes.
 */
export function dueProgress(body: BodyBuffer, pacer: ProgressPacer, mode: ProgressMode, receivedBytes: number | undefined, nowMs: number): ProgressMessage[] {
  const out: ProgressMessage[] = [];
  for (const loaded of pacer.reports(nowMs, body.progressBytes(mode, receivedBytes), body.complete)) {
    // A chunked body's bytes go with the report of them (after the head's, progress-pacer.ts).
    if (body.chunked && loaded > 0 && body.retainedBytes > 0) out.push({ loaded, total: body.declaredBytes, bytes: body.takeNew() });
    else out.push({ loaded, total: body.declaredBytes });
  }
  return out;
}
