// DATA datagram (server → client), PROTOCOL.md §3.1:
//   type u8 = 0x01 | request_id varint | packet_number varint | offset varint | payload (≥ 1 byte)
// Varints as in QUIC (varint.ts). A sender picks each field's width per request (any width that holds the value),
// so every full datagram of a request is exactly the path's maximum size.
import { DATAGRAM_TYPE_DATA, MAX_DATAGRAM_BYTES } from '../constants.ts';
import { fail, ok, type Result } from '../errors.ts';
import { isU32, isU48, viewOf } from './bytes.ts';
import { readVarint, varintBytes, writeVarint, type VarintBytes } from './varint.ts';

/** Smallest header: type and three one-byte varints. */
export const DATA_MIN_HEADER_BYTES = 4;
/** Largest header: type and three eight-byte varints. */
export const DATA_MAX_HEADER_BYTES = 25;
/** The most payload one DATA datagram can carry (at the protocol's datagram limit with the smallest header). */
export const MAX_DATA_PAYLOAD_BYTES = MAX_DATAGRAM_BYTES - DATA_MIN_HEADER_BYTES;

export interface DataDatagram {
  requestId: number;
  packetNumber: number;
  /** Position of the payload within the response body (0 = the body's first byte), not the file offset. */
  offset: number;
  /** A view into the received bytes (not a copy). */
  payload: Uint8Array;
}

/** The widths of a DATA header's three varints, and the header's size. */
export interface DataHeaderLayout {
  requestIdBytes: VarintBytes;
  packetNumberBytes: VarintBytes;
  offsetBytes: VarintBytes;
  /** Whole header, type byte included. */
  bytes: number;
}

/** The smallest layout that holds `requestId` and any packet number ≤ `maxPacketNumber` and offset ≤ `maxOffset`. */
export function dataHeaderLayout(requestId: number, maxPacketNumber: number, maxOffset: number): DataHeaderLayout {
  const requestIdBytes = varintBytes(requestId);
  const packetNumberBytes = varintBytes(maxPacketNumber);
  const offsetBytes = varintBytes(maxOffset);
  return { requestIdBytes, packetNumberBytes, offsetBytes, bytes: 1 + requestIdBytes + packetNumberBytes + offsetBytes };
}

/**
 * Writes a header laid out as `layout` at `at` in `target`; the caller places the payload right after it
 * (`at + layout.bytes`). Throws a RangeError when a value does not fit its width.
 */
export function writeDataHeader(target: Uint8Array, at: number, layout: DataHeaderLayout, requestId: number, packetNumber: number, offset: number): void {
  if (varintBytes(requestId) > layout.requestIdBytes || varintBytes(packetNumber) > layout.packetNumberBytes || varintBytes(offset) > layout.offsetBytes) {
    throw new RangeError(`DATA header fields (${requestId}, ${packetNumber}, ${offset}) do not fit the layout`);
  }
  const view = viewOf(target);
  view.setUint8(at, DATAGRAM_TYPE_DATA);
  let next = writeVarint(view, at + 1, requestId, layout.requestIdBytes);
  next = writeVarint(view, next, packetNumber, layout.packetNumberBytes);
  writeVarint(view, next, offset, layout.offsetBytes);
}

/** Encodes with the shortest header for these values. */
export function encodeDataDatagram(d: DataDatagram): Uint8Array {
  if (!isU32(d.requestId) || !isU48(d.packetNumber) || !isU48(d.offset) || !isU48(d.offset + d.payload.byteLength)) {
    throw new RangeError('DATA field out of range');
  }
  const layout = dataHeaderLayout(d.requestId, d.packetNumber, d.offset);
  if (d.payload.byteLength === 0 || layout.bytes + d.payload.byteLength > MAX_DATAGRAM_BYTES) {
    throw new RangeError(`DATA payload must be 1..${MAX_DATAGRAM_BYTES - layout.bytes} bytes with a ${layout.bytes}-byte header`);
  }
  const out = new Uint8Array(layout.bytes + d.payload.byteLength);
  writeDataHeader(out, 0, layout, d.requestId, d.packetNumber, d.offset);
  out.set(d.payload, layout.bytes);
  return out;
}

export function decodeDataDatagram(bytes: Uint8Array): Result<DataDatagram> {
  if (bytes.byteLength > MAX_DATAGRAM_BYTES) return fail('too-large', `DATA datagram of ${bytes.byteLength} B exceeds ${MAX_DATAGRAM_BYTES} B`);
  if (bytes.byteLength < DATA_MIN_HEADER_BYTES + 1) return fail('truncated', `DATA datagram of ${bytes.byteLength} B is shorter than ${DATA_MIN_HEADER_BYTES + 1} B`);
  const view = viewOf(bytes);
  if (view.getUint8(0) !== DATAGRAM_TYPE_DATA) return fail('unknown-type', `not a DATA datagram (type 0x${view.getUint8(0).toString(16)})`);
  const requestId = readVarint(view, 1);
  if (typeof requestId === 'string') return varintFailure(requestId, 'request id');
  const packetNumber = readVarint(view, requestId.next);
  if (typeof packetNumber === 'string') return varintFailure(packetNumber, 'packet number');
  const offset = readVarint(view, packetNumber.next);
  if (typeof offset === 'string') return varintFailure(offset, 'offset');
  if (!isU32(requestId.value)) return fail('invalid-field', `DATA request id ${requestId.value} exceeds 32 bits`);
  if (offset.next >= bytes.byteLength) return fail('truncated', 'DATA datagram has no payload');
  const payload = bytes.subarray(offset.next);
  if (!isU48(offset.value + payload.byteLength)) return fail('invalid-field', 'DATA offset + length overflows 48 bits');
  return ok({ requestId: requestId.value, packetNumber: packetNumber.value, offset: offset.value, payload });
}

function varintFailure(problem: 'truncated' | 'too-large', field: string): Result<never> {
  return problem === 'truncated'
    ? fail('truncated', `DATA header ends inside its ${field}`)
    : fail('invalid-field', `DATA ${field} exceeds 48 bits`);
}
