// Random access to a response body's bytes for the send loop, which must build packets synchronously:
// small files come from memory, large ones through a block-sized read cache over a file descriptor.
import { closeSync, openSync, readSync } from 'node:fs';

export interface BodySource {
  /** Bytes [offset, offset + length) of the file (absolute offsets). The view is valid until the next read. */
  read(offset: number, length: number): Uint8Array;
  close(): void;
}

export class MemoryBodySource implements BodySource {
  constructor(private readonly bytes: Uint8Array) {}

  read(offset: number, length: number): Uint8Array {
    return this.bytes.subarray(offset, offset + length);
  }

  close(): void {}
}

const BLOCK_BYTES = 1 << 20;

export class FileBodySource implements BodySource {
  private fd: number | null;
  private readonly block = Buffer.allocUnsafe(BLOCK_BYTES);
  private blockStart = -1;
  private blockLength = 0;

  constructor(path: string, private readonly sizeBytes: number) {
    this.fd = openSync(path, 'r');
  }

  read(offset: number, length: number): Uint8Array {
    if (this.fd === null) throw new Error('body source closed');
    if (length > BLOCK_BYTES) throw new RangeError('read larger than a block');
    if (offset < this.blockStart || offset + length > this.blockStart + this.blockLength) {
      const want = Math.min(BLOCK_BYTES, this.sizeBytes - offset);
      let got = 0;
      while (got < want) {
        const n = readSync(this.fd, this.block, got, want - got, offset + got);
        if (n === 0) break;
        got += n;
      }
      this.blockStart = offset;
      this.blockLength = got;
      if (offset + length > offset + got) throw new Error('file shrank while being served');
    }
    return this.block.subarray(offset - this.blockStart, offset - this.blockStart + length);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
