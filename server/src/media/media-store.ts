// Opens files of the media root for serving: path safety, byte ranges (200/206/404/416), content types,
// and the hot-file cache.
import { readFile } from 'node:fs/promises';
import { FileBodySource, MemoryBodySource, type BodySource } from './body-source.ts';
import { contentTypeFor } from './content-types.ts';
import { MediaRoot } from './safe-path.ts';
import { SegmentCache } from './segment-cache.ts';
import { CONTINUOUS_STREAM_CONTENT_TYPE, openContinuousStream, parseStreamPath, type StreamPath } from './continuous-stream.ts';

export interface RangeSpec {
  /** Inclusive first byte; with `suffixLength` unset. */
  start: number;
  /** Inclusive last byte; undefined = to the end. */
  end?: number;
}

export type OpenedBody = {
  status: 200 | 206;
  realPath: string;
  contentType: string;
  totalSize: number;
  bodyOffset: number;
  bodyLength: number;
  body: BodySource;
};

export type OpenFailure = { status: 400 | 404 | 416; reason: string; totalSize?: number };

export class MediaStore {
  readonly root: MediaRoot;
  readonly cache: SegmentCache;
  filesOpened = 0;

  constructor(rootDir: string, options: { cacheBytes?: number; cacheEntryBytes?: number } = {}) {
    this.root = new MediaRoot(rootDir);
    this.cache = new SegmentCache(options.cacheBytes ?? 256 * 1024 * 1024, options.cacheEntryBytes ?? 16 * 1024 * 1024);
  }

  async open(requestPath: string, range?: RangeSpec): Promise<OpenedBody | OpenFailure> {
    const stream = parseStreamPath(requestPath);
    if (stream) return this.openStream(requestPath, stream, range);
    const resolved = this.root.resolve(requestPath);
    if (!resolved.ok) return { status: 404, reason: resolved.reason };
    const size = resolved.sizeBytes;
    let bodyOffset = 0;
    let bodyLength = size;
    if (range) {
      if (!Number.isInteger(range.start) || range.start < 0 || (range.end !== undefined && (!Number.isInteger(range.end) || range.end < range.start))) {
        return { status: 400, reason: 'malformed range' };
      }
      if (range.start >= size) return { status: 416, reason: `range starts at ${range.start}, beyond the size ${size}`, totalSize: size };
      bodyOffset = range.start;
      const last = Math.min(range.end ?? size - 1, size - 1);
      bodyLength = last - range.start + 1;
    }
    this.filesOpened++;
    let body: BodySource;
    if (this.cache.fits(size)) {
      let bytes = this.cache.get(resolved.realPath, size, resolved.mtimeMs);
      if (!bytes) {
        bytes = new Uint8Array(await readFile(resolved.realPath));
        if (bytes.byteLength !== size) return { status: 404, reason: 'file changed while opening' };
        this.cache.put(resolved.realPath, bytes, resolved.mtimeMs);
      }
      body = new MemoryBodySource(bytes);
    } else {
      body = new FileBodySource(resolved.realPath, size);
    }
    return {
      status: range ? 206 : 200,
      realPath: resolved.realPath,
      contentType: contentTypeFor(resolved.realPath),
      totalSize: size,
      bodyOffset,
      bodyLength,
      body,
    };
  }

  /** A continuous stream of a rendition's segments (continuous-stream.ts); not byte-rangeable. */
  private openStream(requestPath: string, stream: StreamPath, range?: RangeSpec): OpenedBody | OpenFailure {
    if (range) return { status: 400, reason: 'a continuous stream takes no byte range' };
    const opened = openContinuousStream(this.root, stream);
    if (!opened.ok) return { status: 404, reason: opened.reason };
    this.filesOpened++;
    return {
      status: 200, realPath: requestPath.split('?', 1)[0]!, contentType: CONTINUOUS_STREAM_CONTENT_TYPE,
      totalSize: opened.body.lengthBytes, bodyOffset: 0, bodyLength: opened.body.lengthBytes, body: opened.body,
    };
  }
}

/** Parses an HTTP Range header (single range; suffix ranges resolved against `size`). */
export function parseHttpRange(header: string, size: number): RangeSpec | 'invalid' | 'unsatisfiable' {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'invalid';
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? undefined : Number(m[2]);
  if (!Number.isSafeInteger(start) || (end !== undefined && (!Number.isSafeInteger(end) || end < start))) return 'invalid';
  return end === undefined ? { start } : { start, end };
}
