// The receive side of a datagram session, for both ends (the origin's ACK loop, the client's DATA loop):
// batches from the QUIC addon, each datagram dated when the addon took it off the connection.
import type { Session } from '@pcc-stream/quic';
import { nowUs, usFromMonotonicNs } from '../clock.ts';

/**
 * Hands every received batch (at most `maxDatagrams`) to `onBatch` until the session ends (a failed or empty receive) or `isClosed()`.
 * `receivedAtUs[i]` is the addon's receive stamp of `datagrams[i]` on this process's clock: the event loop may have been
 * busy meanwhile, and that wait must not read as path delay (PROTOCOL.md §3.2), nor datagrams that arrived apart as
 * arriving together.
 */
export async function receiveDatagramBatches(
  quic: Session,
  maxDatagrams: number,
  isClosed: () => boolean,
  onBatch: (datagrams: Buffer[], now: number, receivedAtUs: Float64Array) => void,
): Promise<void> {
  while (!isClosed()) {
    let batch;
    try {
      batch = await quic.recvDatagramsTimed(maxDatagrams);
    } catch {
      return;
    }
    if (batch.datagrams.length === 0 || isClosed()) return;
    const now = nowUs();
    // Converted in place: the addon's array is this batch's own.
    const receivedAtUs = batch.receivedAtNs;
    for (let i = 0; i < receivedAtUs.length; i++) receivedAtUs[i] = usFromMonotonicNs(receivedAtUs[i]!, now);
    onBatch(batch.datagrams, now, receivedAtUs);
  }
}
