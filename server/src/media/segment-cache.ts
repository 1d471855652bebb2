// Bounded in-memory LRU of hot files (segments, manifests), validated by size and mtime so a regenerated
// file is never served stale.
export interface CachedFile {
  bytes: Uint8Array;
  sizeBytes: number;
  mtimeMs: number;
}

export class SegmentCache {
  private readonly entries = new Map<string, CachedFile>();
  private totalBytes = 0;
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number, readonly maxEntryBytes: number) {}

  get(realPath: string, sizeBytes: number, mtimeMs: number): Uint8Array | undefined {
    const entry = this.entries.get(realPath);
    if (!entry || entry.sizeBytes !== sizeBytes || entry.mtimeMs !== mtimeMs) {
      this.misses++;
      return undefined;
    }
    // Re-insert to mark most recently used (Map keeps insertion order).
    this.entries.delete(realPath);
    this.entries.set(realPath, entry);
    this.hits++;
    return entry.bytes;
  }

  fits(sizeBytes: number): boolean {
    return sizeBytes <= this.maxEntryBytes && sizeBytes <= this.maxBytes;
  }

  put(realPath: string, bytes: Uint8Array, mtimeMs: number): void {
    if (!this.fits(bytes.byteLength)) return;
    const old = this.entries.get(realPath);
    if (old) {
      this.totalBytes -= old.bytes.byteLength;
      this.entries.delete(realPath);
    }
    this.entries.set(realPath, { bytes, sizeBytes: bytes.byteLength, mtimeMs });
    this.totalBytes += bytes.byteLength;
    for (const [key, entry] of this.entries) {
      if (this.totalBytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.totalBytes -= entry.bytes.byteLength;
    }
  }

  get sizeBytes(): number {
    return this.totalBytes;
  }

  get count(): number {
    return this.entries.size;
  }
}
