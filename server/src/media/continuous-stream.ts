// Continuous-stream delivery (issue 18 item 9): one response that carries a rendition's segments back to back, from
// the one named to the last, as the thesis's tunnelling proxy carried one RTSP-over-TCP stream (§5.2). The sender
// never waits for a request between segments, so the link idles only when the controller lets it.
//
// Request path: `<dir>/stream/seg-<rendition>-<number>.m4s` asks for `<dir>/seg-<rendition>-<number>.m4s` and every
// following number of that rendition that exists. Body: per segment, its length as a 4-byte big-endian unsigned
// integer, then its bytes (PROTOCOL.md §2.8). The body's length is known when it opens, so it goes out as any response.
import { closeSync, openSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';
import { BlockReader, READ_BLOCK_BYTES, type BodySource } from './body-source.ts';
import type { MediaRoot } from './safe-path.ts';

export const CONTINUOUS_STREAM_CONTENT_TYPE = 'application/vnd.pcc-stream.segments';
/** Bytes of the length prefix before each segment. */
export const SEGMENT_PREFIX_BYTES = 4;
/** Most segments one stream carries (a 2 s segment each: over 5 hours), so a hostile request cannot stat forever. */
export const CONTINUOUS_STREAM_MAX_SEGMENTS = 10_000;

const STREAM_PATH = /^(.*)\/stream\/seg-(\d+)-(\d+)\.m4s$/;

export interface StreamPath {
  /** The folder of the segments, e.g. `/abr-cbr-70s-2s`. */
  dir: string;
  rendition: string;
  firstNumber: number;
  /** Zero-padded width of the number in the file names. */
  digits: number;
}

/** The continuous stream a request path asks for, or null for an ordinary path. */
export function parseStreamPath(requestPath: string): StreamPath | null {
  const m = STREAM_PATH.exec(requestPath.split('?', 1)[0]!);
  if (!m) return null;
  return { dir: m[1]!, rendition: m[2]!, firstNumber: Number(m[3]), digits: m[3]!.length };
}

export function segmentPath(stream: StreamPath, number: number): string {
  return `${stream.dir}/seg-${stream.rendition}-${String(number).padStart(stream.digits, '0')}.m4s`;
}

interface Part {
  realPath: string;
  sizeBytes: number;
  /** Offset of its length prefix in the stream body. */
  startOffset: number;
}

/** The framed segments as one body: random access for the datagram send loop, a Readable for TCP. */
export class ContinuousStreamBody implements BodySource {
  readonly lengthBytes: number;
  private readonly blocks: BlockReader;
  private closed = false;

  constructor(private readonly parts: readonly Part[]) {
    const last = parts.at(-1);
    this.lengthBytes = last ? last.startOffset + SEGMENT_PREFIX_BYTES + last.sizeBytes : 0;
    this.blocks = new BlockReader(this.lengthBytes, (block, offset, want) => this.fill(block, offset, want));
  }

  read(offset: number, length: number): Uint8Array {
    if (this.closed) throw new Error('body source closed');
    return this.blocks.read(offset, length);
  }

  /** Copies [offset, offset + want) into `block`: prefixes and file bytes, across segment boundaries. */
  private fill(block: Buffer, offset: number, want: number): number {
    let got = 0;
    let index = this.partAt(offset);
    while (got < want && index < this.parts.length) {
      const part = this.parts[index]!;
      const at = offset + got;
      const inPart = at - part.startOffset;
      if (inPart < SEGMENT_PREFIX_BYTES) {
        const prefix = Buffer.alloc(SEGMENT_PREFIX_BYTES);
        prefix.writeUInt32BE(part.sizeBytes, 0);
        const n = Math.min(SEGMENT_PREFIX_BYTES - inPart, want - got);
        prefix.copy(block, got, inPart, inPart + n);
        got += n;
        continue;
      }
      const fileOffset = inPart - SEGMENT_PREFIX_BYTES;
      const n = Math.min(part.sizeBytes - fileOffset, want - got);
      const fd = openSync(part.realPath, 'r');
      try {
        let read = 0;
        while (read < n) {
          const r = readSync(fd, block, got + read, n - read, fileOffset + read);
          if (r === 0) throw new Error(`${part.realPath} shrank while being streamed`);
          read += r;
        }
      } finally {
        closeSync(fd);
      }
      got += n;
      index++;
    }
    return got;
  }

  private partAt(offset: number): number {
    let lo = 0;
    let hi = this.parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.parts[mid]!.startOffset <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The whole body as a byte stream (the TCP baseline pipes it into the response). */
  readable(): Readable {
    const self = this;
    return Readable.from((function* () {
      for (let at = 0; at < self.lengthBytes; at += READ_BLOCK_BYTES) {
        // A copy: the block is reused by the next read while the socket may still hold this chunk.
        yield Buffer.from(self.read(at, Math.min(READ_BLOCK_BYTES, self.lengthBytes - at)));
      }
    })(), { objectMode: false });
  }

  close(): void {
    this.closed = true;
  }
}

export type StreamOpenResult = { ok: true; body: ContinuousStreamBody } | { ok: false; reason: string };

/** Resolves every segment of the stream inside the media root (the first one must exist). */
export function openContinuousStream(root: MediaRoot, stream: StreamPath): StreamOpenResult {
  const parts: Part[] = [];
  let offset = 0;
  for (let number = stream.firstNumber; parts.length < CONTINUOUS_STREAM_MAX_SEGMENTS; number++) {
    const resolved = root.resolve(segmentPath(stream, number));
    if (!resolved.ok) {
      if (parts.length === 0) return { ok: false, reason: `stream's first segment ${segmentPath(stream, number)}: ${resolved.reason}` };
      break;
    }
    if (resolved.sizeBytes > 0xffff_ffff) return { ok: false, reason: `segment ${segmentPath(stream, number)} is larger than a 4-byte length` };
    parts.push({ realPath: resolved.realPath, sizeBytes: resolved.sizeBytes, startOffset: offset });
    offset += SEGMENT_PREFIX_BYTES + resolved.sizeBytes;
  }
  return { ok: true, body: new ContinuousStreamBody(parts) };
}
