// Variable-length integers as in QUIC (RFC 9000 §16): the two high bits of the first byte give the length
// (00 → 1, 01 → 2, 10 → 4, 11 → 8 bytes), the rest is the value, big-endian. A writer may use a longer form than
// the value needs (the DATA header does, to keep every full datagram the same size). Values here stay ≤ U48_MAX,
// exact in JavaScript numbers.
import { U48_MAX } from '../constants.ts';

const ONE_BYTE_MAX = 0x3f;
const TWO_BYTES_MAX = 0x3fff;
const FOUR_BYTES_MAX = 0x3fff_ffff;

export type VarintBytes = 1 | 2 | 4 | 8;

/** The shortest form that holds `value` (0..U48_MAX). */
export function varintBytes(value: number): VarintBytes {
  if (value <= ONE_BYTE_MAX) return 1;
  if (value <= TWO_BYTES_MAX) return 2;
  if (value <= FOUR_BYTES_MAX) return 4;
  return 8;
}

/** Writes `value` in exactly `width` bytes at `at` (width ≥ varintBytes(value)); returns the position after it. */
export function writeVarint(view: DataView, at: number, value: number, width: VarintBytes): number {
  switch (width) {
    case 1:
      view.setUint8(at, value);
      break;
    case 2:
      view.setUint16(at, 0x4000 | value);
      break;
    case 4:
      view.setUint32(at, (0x8000_0000 | value) >>> 0);
      break;
    case 8:
      view.setUint32(at, (0xc000_0000 | Math.floor(value / 0x1_0000_0000)) >>> 0);
      view.setUint32(at + 4, value >>> 0);
      break;
  }
  return at + width;
}

export interface DecodedVarint {
  value: number;
  /** Position right after the varint. */
  next: number;
}

/** Reads a varint at `at`: 'truncated' when the bytes end inside it, 'too-large' when its value exceeds U48_MAX. */
export function readVarint(view: DataView, at: number): DecodedVarint | 'truncated' | 'too-large' {
  if (at >= view.byteLength) return 'truncated';
  const first = view.getUint8(at);
  const width = 1 << (first >> 6);
  if (at + width > view.byteLength) return 'truncated';
  switch (width) {
    case 1:
      return { value: first & ONE_BYTE_MAX, next: at + 1 };
    case 2:
      return { value: view.getUint16(at) & TWO_BYTES_MAX, next: at + 2 };
    case 4:
      return { value: view.getUint32(at) & FOUR_BYTES_MAX, next: at + 4 };
    default: {
      const value = (view.getUint32(at) & FOUR_BYTES_MAX) * 0x1_0000_0000 + view.getUint32(at + 4);
      return value <= U48_MAX ? { value, next: at + 8 } : 'too-large';
    }
  }
}
