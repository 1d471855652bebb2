// Frame I/O on one request's bidirectional stream (PROTOCOL.md §2).
import { StreamFrameReader, encodeStreamFrame, type StreamFrame } from '@pcc-stream/protocol';
import { isSessionClosedError, type BiStream } from '@pcc-stream/quic';

export type ReadOutcome =
  | { kind: 'frame'; frame: StreamFrame }
  | { kind: 'malformed'; reason: string }
  | { kind: 'end' } // the client finished its side
  | { kind: 'reset' }; // the client reset the stream, or the session closed

const READ_CHUNK_BYTES = 4096;

export class RequestStream {
  private readonly reader = new StreamFrameReader();
  private ended = false;
  /**
   * Set once a read, write or finish failed because the session closed (the addon's error carries its
   * ERR_PCC_SESSION_CLOSED code), to that error's message: a request interrupted by its session's end, not one its client cancelled.
   */
  sessionClosed: string | null = null;

  constructor(readonly stream: BiStream) {}

  async readFrame(): Promise<ReadOutcome> {
    for (;;) {
      const parsed = this.reader.next();
      if (!parsed.ok) return { kind: 'malformed', reason: parsed.error.message };
      if (parsed.value) return { kind: 'frame', frame: parsed.value };
      if (this.ended) return { kind: 'end' };
      let chunk: Buffer | null;
      try {
        chunk = await this.stream.read(READ_CHUNK_BYTES);
      } catch (err) {
        this.noteFailure(err);
        return { kind: 'reset' };
      }
      if (chunk === null) this.ended = true;
      else this.reader.push(chunk);
    }
  }

  /** Bytes of a frame begun but not yet complete (or, after a frame, of what follows it). */
  get bufferedBytes(): number {
    return this.reader.bufferedBytes();
  }

  /** Bytes that arrived after the last parsed frame (start of a body sent on the stream). */
  takeBuffered(): Uint8Array {
    return this.reader.takeRaw();
  }

  /** Resolves when the client cancels: a CANCEL frame, finishing or resetting its side, or garbage. */
  async untilCancelled(): Promise<string> {
    for (;;) {
      const r = await this.readFrame();
      if (r.kind === 'frame' && r.frame.type !== 'cancel') return `unexpected ${r.frame.type} frame`;
      if (r.kind === 'frame') return 'cancel frame';
      if (r.kind === 'malformed') return `malformed frame: ${r.reason}`;
      return r.kind === 'end' ? 'client finished its side' : 'stream reset';
    }
  }

  async write(frame: StreamFrame): Promise<boolean> {
    return this.writeRaw(encodeStreamFrame(frame));
  }

  async writeRaw(bytes: Uint8Array): Promise<boolean> {
    try {
      await this.stream.write(bytes);
      return true;
    } catch (err) {
      this.noteFailure(err);
      return false;
    }
  }

  /** Sends FIN; false if that failed (the peer may already have reset the stream, or the session closed). */
  async finish(): Promise<boolean> {
    try {
      await this.stream.finish();
      return true;
    } catch (err) {
      this.noteFailure(err);
      return false;
    }
  }

  private noteFailure(err: unknown): void {
    if (this.sessionClosed === null && isSessionClosedError(err)) this.sessionClosed = err instanceof Error ? err.message : String(err);
  }

  /** Stops reading (frees the native read) without touching our sending side. */
  stopReading(): void {
    try {
      this.stream.stop(0);
    } catch {
      /* already closed */
    }
  }

  reset(code: number): void {
    try {
      this.stream.reset(code);
    } catch {
      /* already closed */
    }
  }
}
