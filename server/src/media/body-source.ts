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

/** Bytes of a large body held in memory at a time: one block. */
export const READ_BLOCK_BYTES = 1 << 20;

/**
 * The read cache of a body too large to hold: one block, refilled from the first byte a read asks for outside it
 * (the send loop reads forward, a packet at a time). `fill` copies the body's bytes [offset, offset + want) into
 * `block` from its start and returns how many it copied (fewer: the source shrank).
 */
export class BlockReader {
  private readonly block = Buffer.allocUnsafe(READ_BLOCK_BYTES);
  private blockStart = -1;
  private blockLength = 0;

  constructor(private readonly sizeBytes: number, private readonly fill: (block: Buffer, offset: number, want: number) => number) {}

  read(offset: number, length: number): Uint8Array {
    if (length > READ_BLOCK_BYTES) throw new RangeError('read larger than a block');
    if (offset + length > this.sizeBytes) throw new RangeError(`read past the body's end (${this.sizeBytes} bytes)`);
    if (offset < this.blockStart || offset + length > this.blockStart + this.blockLength) {
      this.blockLength = this.fill(this.block, offset, Math.min(READ_BLOCK_BYTES, this.sizeBytes - offset));
      this.blockStart = offset;
      if (length > this.blockLength) throw new Error('file shrank while being served');
    }
    return this.block.subarray(offset - this.blockStart, offset - this.blockStart + length);
  }
}

export class FileBodySource implements BodySource {
  private fd: number | null;
  private readonly blocks: BlockReader;

  constructor(path: string, sizeBytes: number) {
    const fd = openSync(path, 'r');
    this.fd = fd;
    this.blocks = new BlockReader(sizeBytes, (block, offset, want) => {
      let got = 0;
      while (got < want) {
        const n = readSync(fd, block, got, want - got, offset + got);
        if (n === 0) break;
        got += n;
      }
      return got;
    });
  }

  read(offset: number, length: number): Uint8Array {
    if (this.fd === null) throw new Error('body source closed');
    return this.blocks.read(offset, length);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
