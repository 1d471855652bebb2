// 48-bit big-endian integers: exact in JS numbers, enough for packet numbers and byte offsets of any session.
import { U48_MAX } from '../constants.ts';

export function writeU48(view: DataView, at: number, value: number): void {
  view.setUint16(at, Math.floor(value / 0x1_0000_0000));
  view.setUint32(at + 2, value >>> 0);
}

export function readU48(view: DataView, at: number): number {
  return view.getUint16(at) * 0x1_0000_0000 + view.getUint32(at + 2);
}

export function isU48(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= U48_MAX;
}

export function isU32(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= 0xffff_ffff;
}

export function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

export function encodeUtf8(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

/** Returns null for invalid UTF-8 instead of throwing. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    return null;
  }
}
