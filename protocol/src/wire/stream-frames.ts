// Frames on a request's bidirectional stream, PROTOCOL.md §2. Each frame is type u8 | length u16 | payload.
import {
  DELIVERY_DATAGRAMS, DELIVERY_STREAM, FRAME_TYPE_CANCEL, FRAME_TYPE_DONE, FRAME_TYPE_REQUEST, FRAME_TYPE_RESPONSE,
  MAX_CONTENT_TYPE_BYTES, MAX_FRAME_PAYLOAD_BYTES, MAX_PATH_BYTES, MAX_REASON_BYTES, PROTOCOL_VERSION, U48_MAX,
  type Delivery,
} from '../constants.ts';
import { fail, ok, type Result } from '../errors.ts';
import { decodeUtf8, encodeUtf8, isU32, isU48, readU48, viewOf, writeU48 } from './bytes.ts';

export const FRAME_PREFIX_BYTES = 3;

/** An inclusive byte range as in HTTP `Range: bytes=start-end`; end undefined = to the end of the object. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface RequestFrame {
  type: 'request';
  requestId: number;
  path: string;
  range?: ByteRange;
  /** The receiver window the server may fill before the first ACK arrives (bytes). */
  windowBytes: number;
}

export interface ResponseFrame {
  type: 'response';
  requestId: number;
  status: number;
  delivery: Delivery;
  /** Size of the whole object; U48_MAX when unknown (e.g. the telemetry stream). */
  totalSize: number;
  bodyOffset: number;
  /** Length of the body that follows; U48_MAX when unknown (body ends when the stream finishes). */
  bodyLength: number;
  contentType: string;
  reason: string;
  /** CTA-5006 `CMSD-Static` / `CMSD-Dynamic` values for this response (≤ 255 B each, printable ASCII); absent = none. */
  cmsdStatic?: string;
  cmsdDynamic?: string;
}

export interface DoneFrame {
  type: 'done';
  requestId: number;
  /** Payload bytes sent in DATA datagrams, retransmissions included. */
  bytesSent: number;
  retransmittedBytes: number;
  packetsSent: number;
  packetsLost: number;
  durationUs: number;
}

export interface CancelFrame {
  type: 'cancel';
  requestId: number;
}

export type StreamFrame = RequestFrame | ResponseFrame | DoneFrame | CancelFrame;

function frame(type: number, payload: Uint8Array): Uint8Array {
  if (payload.byteLength > MAX_FRAME_PAYLOAD_BYTES) throw new RangeError(`frame payload of ${payload.byteLength} B exceeds ${MAX_FRAME_PAYLOAD_BYTES} B`);
  const out = new Uint8Array(FRAME_PREFIX_BYTES + payload.byteLength);
  out[0] = type;
  viewOf(out).setUint16(1, payload.byteLength);
  out.set(payload, FRAME_PREFIX_BYTES);
  return out;
}

/** CMSD strings travel as HTTP header values would: printable ASCII, one length byte each. */
function isCmsdText(s: string): boolean {
  return s.length <= 255 && /^[\x20-\x7e]*$/.test(s);
}

const REQUEST_FIXED_BYTES = 22;
const RESPONSE_FIXED_BYTES = 26;
const DONE_BYTES = 30;
const CANCEL_BYTES = 4;

export function encodeStreamFrame(f: StreamFrame): Uint8Array {
  switch (f.type) {
    case 'request': {
      const path = encodeUtf8(f.path);
      if (path.byteLength < 1 || path.byteLength > MAX_PATH_BYTES || !f.path.startsWith('/')) throw new RangeError('REQUEST path must start with / and be 1..2048 bytes');
      if (!isU32(f.requestId) || !isU32(f.windowBytes)) throw new RangeError('REQUEST field out of range');
      const start = f.range?.start ?? 0;
      const end = f.range?.end ?? U48_MAX;
      if (!isU48(start) || !isU48(end) || end < start) throw new RangeError('REQUEST range invalid');
      const p = new Uint8Array(REQUEST_FIXED_BYTES + path.byteLength);
      const v = viewOf(p);
      v.setUint8(0, PROTOCOL_VERSION);
      v.setUint32(1, f.requestId);
      v.setUint32(5, f.windowBytes);
      v.setUint8(9, f.range ? 1 : 0);
      writeU48(v, 10, start);
      writeU48(v, 16, end);
      p.set(path, REQUEST_FIXED_BYTES);
      return frame(FRAME_TYPE_REQUEST, p);
    }
    case 'response': {
      const ctype = encodeUtf8(f.contentType);
      const reason = encodeUtf8(f.reason);
      const cmsdStatic = encodeUtf8(f.cmsdStatic ?? '');
      const cmsdDynamic = encodeUtf8(f.cmsdDynamic ?? '');
      if (ctype.byteLength > MAX_CONTENT_TYPE_BYTES || reason.byteLength > MAX_REASON_BYTES) throw new RangeError('RESPONSE strings too long');
      if (!isCmsdText(f.cmsdStatic ?? '') || !isCmsdText(f.cmsdDynamic ?? '')) throw new RangeError('RESPONSE CMSD must be printable ASCII, ≤ 255 B');
      if (!isU32(f.requestId) || !Number.isInteger(f.status) || f.status < 100 || f.status > 999) throw new RangeError('RESPONSE field out of range');
      if (!isU48(f.totalSize) || !isU48(f.bodyOffset) || !isU48(f.bodyLength)) throw new RangeError('RESPONSE size out of range');
      const p = new Uint8Array(RESPONSE_FIXED_BYTES + ctype.byteLength + 2 + cmsdStatic.byteLength + cmsdDynamic.byteLength + reason.byteLength);
      const v = viewOf(p);
      v.setUint32(0, f.requestId);
      v.setUint16(4, f.status);
      v.setUint8(6, f.delivery);
      writeU48(v, 7, f.totalSize);
      writeU48(v, 13, f.bodyOffset);
      writeU48(v, 19, f.bodyLength);
      v.setUint8(25, ctype.byteLength);
      let at = RESPONSE_FIXED_BYTES;
      p.set(ctype, at);
      at += ctype.byteLength;
      for (const cmsd of [cmsdStatic, cmsdDynamic]) {
        v.setUint8(at, cmsd.byteLength);
        p.set(cmsd, at + 1);
        at += 1 + cmsd.byteLength;
      }
      p.set(reason, at);
      return frame(FRAME_TYPE_RESPONSE, p);
    }
    case 'done': {
      const p = new Uint8Array(DONE_BYTES);
      const v = viewOf(p);
      v.setUint32(0, f.requestId);
      writeU48(v, 4, f.bytesSent);
      writeU48(v, 10, f.retransmittedBytes);
      v.setUint32(16, Math.min(f.packetsSent, 0xffff_ffff));
      v.setUint32(20, Math.min(f.packetsLost, 0xffff_ffff));
      writeU48(v, 24, Math.min(f.durationUs, U48_MAX));
      return frame(FRAME_TYPE_DONE, p);
    }
    case 'cancel': {
      const p = new Uint8Array(CANCEL_BYTES);
      viewOf(p).setUint32(0, f.requestId);
      return frame(FRAME_TYPE_CANCEL, p);
    }
  }
}

function decodePayload(type: number, p: Uint8Array): Result<StreamFrame> {
  const v = viewOf(p);
  switch (type) {
    case FRAME_TYPE_REQUEST: {
      if (p.byteLength < REQUEST_FIXED_BYTES + 1) return fail('truncated', 'REQUEST frame too short');
      const version = v.getUint8(0);
      if (version !== PROTOCOL_VERSION) return fail('unsupported-version', `protocol version ${version} is not supported (this end speaks ${PROTOCOL_VERSION})`);
      const flags = v.getUint8(9);
      if ((flags & ~1) !== 0) return fail('invalid-field', 'REQUEST has unknown flags');
      const start = readU48(v, 10);
      const end = readU48(v, 16);
      if (end < start) return fail('invalid-field', `REQUEST range end ${end} before start ${start}`);
      const pathBytes = p.subarray(REQUEST_FIXED_BYTES);
      if (pathBytes.byteLength > MAX_PATH_BYTES) return fail('too-large', 'REQUEST path longer than 2048 bytes');
      const path = decodeUtf8(pathBytes);
      if (path === null) return fail('invalid-field', 'REQUEST path is not valid UTF-8');
      if (!path.startsWith('/')) return fail('invalid-field', 'REQUEST path must start with /');
      const request: RequestFrame = { type: 'request', requestId: v.getUint32(1), windowBytes: v.getUint32(5), path };
      if (flags & 1) request.range = end === U48_MAX ? { start } : { start, end };
      return ok(request);
    }
    case FRAME_TYPE_RESPONSE: {
      if (p.byteLength < RESPONSE_FIXED_BYTES) return fail('truncated', 'RESPONSE frame too short');
      const delivery = v.getUint8(6);
      if (delivery !== DELIVERY_DATAGRAMS && delivery !== DELIVERY_STREAM) return fail('invalid-field', `RESPONSE delivery ${delivery} unknown`);
      const ctypeLength = v.getUint8(25);
      if (p.byteLength < RESPONSE_FIXED_BYTES + ctypeLength) return fail('truncated', 'RESPONSE content type truncated');
      const contentType = decodeUtf8(p.subarray(RESPONSE_FIXED_BYTES, RESPONSE_FIXED_BYTES + ctypeLength));
      let at = RESPONSE_FIXED_BYTES + ctypeLength;
      const cmsd: string[] = [];
      for (let k = 0; k < 2; k++) {
        if (p.byteLength < at + 1) return fail('truncated', 'RESPONSE CMSD length missing');
        const length = v.getUint8(at);
        if (p.byteLength < at + 1 + length) return fail('truncated', 'RESPONSE CMSD truncated');
        const text = decodeUtf8(p.subarray(at + 1, at + 1 + length));
        if (text === null || !isCmsdText(text)) return fail('invalid-field', 'RESPONSE CMSD is not printable ASCII');
        cmsd.push(text);
        at += 1 + length;
      }
      // §2.2 caps the reason as the encoder does (found by the wire property test: a 513-byte reason was accepted).
      if (p.byteLength - at > MAX_REASON_BYTES) return fail('too-large', `RESPONSE reason longer than ${MAX_REASON_BYTES} bytes`);
      const reason = decodeUtf8(p.subarray(at));
      if (contentType === null || reason === null) return fail('invalid-field', 'RESPONSE strings are not valid UTF-8');
      const status = v.getUint16(4);
      if (status < 100 || status > 999) return fail('invalid-field', `RESPONSE status ${status} invalid`);
      return ok({
        type: 'response', requestId: v.getUint32(0), status, delivery: delivery as Delivery,
        totalSize: readU48(v, 7), bodyOffset: readU48(v, 13), bodyLength: readU48(v, 19), contentType, reason,
        ...(cmsd[0] ? { cmsdStatic: cmsd[0] } : {}), ...(cmsd[1] ? { cmsdDynamic: cmsd[1] } : {}),
      });
    }
    case FRAME_TYPE_DONE: {
      if (p.byteLength !== DONE_BYTES) return fail('truncated', 'DONE frame has the wrong length');
      return ok({
        type: 'done', requestId: v.getUint32(0), bytesSent: readU48(v, 4), retransmittedBytes: readU48(v, 10),
        packetsSent: v.getUint32(16), packetsLost: v.getUint32(20), durationUs: readU48(v, 24),
      });
    }
    case FRAME_TYPE_CANCEL: {
      if (p.byteLength !== CANCEL_BYTES) return fail('truncated', 'CANCEL frame has the wrong length');
      return ok({ type: 'cancel', requestId: v.getUint32(0) });
    }
    default:
      return fail('unknown-type', `unknown stream frame type 0x${type.toString(16)}`);
  }
}

/**
 * Incremental frame parser for a byte stream. After an error the reader stays failed (the stream is garbage).
 * `takeRaw()` hands out bytes that followed the last frame (a RESPONSE with delivery=stream is followed by raw body).
 */
export class StreamFrameReader {
  private buffer: Uint8Array = new Uint8Array(0);
  private error: Result<never> | null = null;

  push(chunk: Uint8Array): void {
    if (chunk.byteLength === 0) return;
    const merged = new Uint8Array(this.buffer.byteLength + chunk.byteLength);
    merged.set(this.buffer, 0);
    merged.set(chunk, this.buffer.byteLength);
    this.buffer = merged;
  }

  /** Next complete frame, null when more bytes are needed, or an error. */
  next(): Result<StreamFrame | null> {
    if (this.error) return this.error;
    if (this.buffer.byteLength < FRAME_PREFIX_BYTES) return ok(null);
    const type = this.buffer[0]!;
    const length = viewOf(this.buffer).getUint16(1);
    if (length > MAX_FRAME_PAYLOAD_BYTES) {
      this.error = fail('too-large', `stream frame of ${length} B exceeds ${MAX_FRAME_PAYLOAD_BYTES} B`);
      return this.error;
    }
    if (this.buffer.byteLength < FRAME_PREFIX_BYTES + length) return ok(null);
    const payload = this.buffer.slice(FRAME_PREFIX_BYTES, FRAME_PREFIX_BYTES + length);
    this.buffer = this.buffer.subarray(FRAME_PREFIX_BYTES + length);
    const decoded = decodePayload(type, payload);
    if (!decoded.ok) this.error = decoded;
    return decoded;
  }

  bufferedBytes(): number {
    return this.buffer.byteLength;
  }

  takeRaw(): Uint8Array {
    const raw = this.buffer;
    this.buffer = new Uint8Array(0);
    return raw;
  }
}
