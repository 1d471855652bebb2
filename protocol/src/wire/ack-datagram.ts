// ACK datagram (client → server), PROTOCOL.md §3.2. SACK-like ranges in the manner of QUIC's ACK frame
// (RFC 9000 §19.3), with fixed-width fields so a browser can build them cheaply:
//   type u8 = 0x02 | flags u8 = 0 | largest_acked u48 | ack_delay_us u32 | largest_recv_time_us u48
//   | window_bytes u32 | range_count u8 (1..64) | first_range_length u32 | (gap u32, range_length u32) × (range_count − 1)
import { DATAGRAM_TYPE_ACK, MAX_ACK_RANGES } from '../constants.ts';
import { fail, ok, type Result } from '../errors.ts';
import { isU32, isU48, readU48, viewOf, writeU48 } from './bytes.ts';

export const ACK_FIXED_BYTES = 27;

/** An inclusive range of packet numbers. */
export interface PacketRange {
  smallest: number;
  largest: number;
}

export interface AckDatagram {
  /** Descending, non-overlapping, non-adjacent inclusive ranges; ranges[0].largest is the largest acked. */
  ranges: PacketRange[];
  /** Time from receipt of the largest acked packet to sending this ACK, µs (receiver clock). */
  ackDelayUs: number;
  /** Receiver's clock (any epoch, µs) when the largest acked packet arrived. */
  largestRecvTimeUs: number;
  /** Bytes the sender may have in flight (unacknowledged) for this session: the receiver window. */
  windowBytes: number;
}

export function ackDatagramBytes(rangeCount: number): number {
  return ACK_FIXED_BYTES + 8 * (rangeCount - 1);
}

export function encodeAckDatagram(ack: AckDatagram): Uint8Array {
  const n = ack.ranges.length;
  if (n < 1 || n > MAX_ACK_RANGES) throw new RangeError(`ACK needs 1..${MAX_ACK_RANGES} ranges, got ${n}`);
  if (!isU32(ack.ackDelayUs) || !isU48(ack.largestRecvTimeUs) || !isU32(ack.windowBytes)) throw new RangeError('ACK field out of range');
  const out = new Uint8Array(ackDatagramBytes(n));
  const view = viewOf(out);
  const first = ack.ranges[0]!;
  // Every range within 48 bits and not inverted; DataView would otherwise wrap a bad number into valid-looking bytes.
  if (!ack.ranges.every((r) => isU48(r.smallest) && isU48(r.largest) && r.smallest <= r.largest)) throw new RangeError('ACK range outside 0..2^48-1 or inverted');
  view.setUint8(0, DATAGRAM_TYPE_ACK);
  view.setUint8(1, 0);
  writeU48(view, 2, first.largest);
  view.setUint32(8, ack.ackDelayUs);
  writeU48(view, 12, ack.largestRecvTimeUs);
  view.setUint32(18, ack.windowBytes);
  view.setUint8(22, n);
  if (!isU32(first.largest - first.smallest)) throw new RangeError('ACK range longer than 2^32 packets');
  view.setUint32(23, first.largest - first.smallest);
  let previousSmallest = first.smallest;
  let at = 27;
  for (let i = 1; i < n; i++) {
    const r = ack.ranges[i]!;
    // gap counts the unacknowledged numbers between ranges minus one, as in RFC 9000 §19.3.1.
    const gap = previousSmallest - r.largest - 2;
    if (gap < 0) throw new RangeError('ACK ranges must be descending and separated');
    if (!isU32(gap) || !isU32(r.largest - r.smallest)) throw new RangeError('ACK gap or range longer than 2^32 packets');
    view.setUint32(at, gap);
    view.setUint32(at + 4, r.largest - r.smallest);
    at += 8;
    previousSmallest = r.smallest;
  }
  return out;
}

export function decodeAckDatagram(bytes: Uint8Array): Result<AckDatagram> {
  if (bytes.byteLength < ACK_FIXED_BYTES) return fail('truncated', `ACK datagram of ${bytes.byteLength} B is shorter than ${ACK_FIXED_BYTES} B`);
  const view = viewOf(bytes);
  if (view.getUint8(0) !== DATAGRAM_TYPE_ACK) return fail('unknown-type', `not an ACK datagram (type 0x${view.getUint8(0).toString(16)})`);
  if (view.getUint8(1) !== 0) return fail('invalid-field', 'ACK flags must be 0');
  const largest = readU48(view, 2);
  const ackDelayUs = view.getUint32(8);
  const largestRecvTimeUs = readU48(view, 12);
  const windowBytes = view.getUint32(18);
  const n = view.getUint8(22);
  if (n < 1 || n > MAX_ACK_RANGES) return fail('invalid-field', `ACK range count ${n} outside 1..${MAX_ACK_RANGES}`);
  if (bytes.byteLength !== ackDatagramBytes(n)) {
    return bytes.byteLength < ackDatagramBytes(n)
      ? fail('truncated', `ACK with ${n} ranges needs ${ackDatagramBytes(n)} B, got ${bytes.byteLength}`)
      : fail('invalid-field', `ACK with ${n} ranges has ${bytes.byteLength - ackDatagramBytes(n)} trailing bytes`);
  }
  const firstLength = view.getUint32(23);
  if (firstLength > largest) return fail('bad-ack-range', `first ACK range of ${firstLength} below packet 0 (largest ${largest})`);
  const ranges: PacketRange[] = [{ smallest: largest - firstLength, largest }];
  let previousSmallest = largest - firstLength;
  let at = 27;
  for (let i = 1; i < n; i++) {
    const gap = view.getUint32(at);
    const length = view.getUint32(at + 4);
    at += 8;
    const rangeLargest = previousSmallest - gap - 2;
    const rangeSmallest = rangeLargest - length;
    if (rangeSmallest < 0) return fail('bad-ack-range', `ACK range ${i} extends below packet 0`);
    ranges.push({ smallest: rangeSmallest, largest: rangeLargest });
    previousSmallest = rangeSmallest;
  }
  return ok({ ranges, ackDelayUs, largestRecvTimeUs, windowBytes });
}
