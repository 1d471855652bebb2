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
