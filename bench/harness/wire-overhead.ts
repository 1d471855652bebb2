// Bytes on the wire per byte delivered (issue 17's overhead target): the IP bytes linkem's downlink delivered
// (its summary's departedBytes, every header included: IP, UDP, QUIC, AEAD and our DATA header, or TCP and TLS;
// retransmissions, probes and session setup too) over the application bytes the receiver got in the same run
// (bulk: the fetch client's body bytes; browser: what the players received). The one place this figure is
// computed: the bench runner and the fidelity suite both call it.

/** `departedDownBytes / deliveredBytes`, or null when nothing was delivered. */
export function wireBytesPerMediaByte(departedDownBytes: number, deliveredBytes: number): number | null {
  if (!(deliveredBytes > 0) || !Number.isFinite(departedDownBytes)) return null;
  return departedDownBytes / deliveredBytes;
}
