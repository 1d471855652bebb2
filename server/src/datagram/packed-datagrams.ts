// A received batch as the QUIC addon hands it over: the datagrams back to back in one buffer, with their lengths.
// One buffer per batch instead of one per datagram: the views below are plain JS objects, where a Buffer per
// datagram from the addon cost the receiving thread an external allocation, a copy and a finalizer each.

/**
 * The datagrams of `data` in order, datagram i being the next `lengths[i]` bytes (views, not copies). The lengths
 * must cover `data` exactly: anything else means the batch was not packed the way the addon packs it, and no
 * datagram of it can be trusted to start where it should.
 */
export function splitPackedDatagrams(data: Uint8Array, lengths: ArrayLike<number>): Uint8Array[] {
  const datagrams = new Array<Uint8Array>(lengths.length);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    const length = lengths[i]!;
    if (!Number.isInteger(length) || length < 0 || at + length > data.byteLength) {
      throw new RangeError(`packed datagrams: length ${length} of datagram ${i} at byte ${at} overruns the batch's ${data.byteLength} bytes`);
    }
    datagrams[i] = data.subarray(at, at + length);
    at += length;
  }
  if (at !== data.byteLength) {
    throw new RangeError(`packed datagrams: ${lengths.length} lengths cover ${at} of the batch's ${data.byteLength} bytes`);
  }
  return datagrams;
}

/** Bytes per datagram before the payloads of a pushed batch: its receive stamp (f64) and its length (u32). */
const PUSHED_HEADER_BYTES_PER_DATAGRAM = 8 + 4;

/**
 * The `count` datagrams of a batch the addon pushed (`Session.onDatagrams`) as one ArrayBuffer: `count` receive
 * stamps (f64, ns of CLOCK_MONOTONIC), `count` lengths (u32), then the payloads back to back, all in this machine's
 * byte order (the layout of `PackedBatch` in server/native/src/packed_datagrams.rs). Views, not copies. A buffer too
 * short for its count's stamps and lengths, or whose lengths do not cover the rest exactly, is refused (RangeError).
 */
export function unpackPushedBatch(count: number, packed: ArrayBuffer): { datagrams: Uint8Array[]; receivedAtNs: Float64Array } {
  const headerBytes = count * PUSHED_HEADER_BYTES_PER_DATAGRAM;
  if (!Number.isInteger(count) || count < 0 || headerBytes > packed.byteLength) {
    throw new RangeError(`pushed batch: ${count} datagrams need ${headerBytes} bytes of stamps and lengths, the batch has ${packed.byteLength}`);
  }
  const receivedAtNs = new Float64Array(packed, 0, count);
  const lengths = new Uint32Array(packed, count * 8, count);
  return { datagrams: splitPackedDatagrams(new Uint8Array(packed, headerBytes), lengths), receivedAtNs };
}
