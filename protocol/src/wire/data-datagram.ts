// DATA datagram (server → client), PROTOCOL.md §3.1:
//   type u8 = 0x01 | flags u8 = 0 | request_id u32 | packet_number u48 | offset u48 | payload (≥ 1 byte)
import { DATAGRAM_TYPE_DATA, MAX_DATAGRAM_BYTES } from '../constants.ts';
import { fail, ok, type Result } from '../errors.ts';
import { isU32, isU48, readU48, viewOf, writeU48 } from './bytes.ts';

export const DATA_HEADER_BYTES = 18;
export const MAX_DATA_PAYLOAD_BYTES = MAX_DATAGRAM_BYTES - DATA_HEADER_BYTES;

export interface DataDatagram {
  requestId: number;
  packetNumber: number;
  /** Position of the payload within the response body (0 = the body's first byte), not the file offset. */
  offset: number;
  /** A view into the received bytes (not a copy). */
  payload: Uint8Array;
}

/** Writes the 18-byte header at `at` in `target`; the caller places the payload right after it. */
export function writeDataHeader(target: Uint8Array, at: number, requestId: number, packetNumber: number, offset: number): void {
  const view = viewOf(target);
  view.setUint8(at, DATAGRAM_TYPE_DATA);
  view.setUint8(at + 1, 0);
  view.setUint32(at + 2, requestId);
  writeU48(view, at + 6, packetNumber);
  writeU48(view, at + 12, offset);
}

export function encodeDataDatagram(d: DataDatagram): Uint8Array {
  if (!isU32(d.requestId) || !isU48(d.packetNumber) || !isU48(d.offset)) throw new RangeError('DATA field out of range');
  if (d.payload.byteLength === 0 || d.payload.byteLength > MAX_DATA_PAYLOAD_BYTES) {
    throw new RangeError(`DATA payload must be 1..${MAX_DATA_PAYLOAD_BYTES} bytes`);
  }
  const out = new Uint8Array(DATA_HEADER_BYTES + d.payload.byteLength);
  writeDataHeader(out, 0, d.requestId, d.packetNumber, d.offset);
  out.set(d.payload, DATA_HEADER_BYTES);
  return out;
}

export function decodeDataDatagram(bytes: Uint8Array): Result<DataDatagram> {
  if (bytes.byteLength < DATA_HEADER_BYTES + 1) return fail('truncated', `DATA datagram of ${bytes.byteLength} B is shorter than ${DATA_HEADER_BYTES + 1} B`);
  if (bytes.byteLength > MAX_DATAGRAM_BYTES) return fail('too-large', `DATA datagram of ${bytes.byteLength} B exceeds ${MAX_DATAGRAM_BYTES} B`);
  const view = viewOf(bytes);
  if (view.getUint8(0) !== DATAGRAM_TYPE_DATA) return fail('unknown-type', `not a DATA datagram (type 0x${view.getUint8(0).toString(16)})`);
  if (view.getUint8(1) !== 0) return fail('invalid-field', 'DATA flags must be 0');
  const requestId = view.getUint32(2);
  const packetNumber = readU48(view, 6);
  const offset = readU48(view, 12);
  const payload = bytes.subarray(DATA_HEADER_BYTES);
  if (!isU48(offset + payload.byteLength)) return fail('invalid-field', 'DATA offset + length overflows 48 bits');
  return ok({ requestId, packetNumber, offset, payload });
}
