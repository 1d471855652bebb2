// The receive side of a datagram session, for both ends (the origin's ACK loop, the client's DATA loop):
// batches from the QUIC addon (one buffer each), each datagram dated when the addon took it off the connection.
import type { Session } from '@pcc-stream/quic';
import { nowUs, usFromMonotonicNs } from '../clock.ts';
import { log } from '../log.ts';
import { splitPackedDatagrams } from './packed-datagrams.ts';

/** Most payload bytes one receive takes (with at most `maxDatagrams`): a bound on the batch's buffer, above what
 *  any of our receivers lets queue between two turns of its event loop at 100 Mbit/s. */
const MAX_BATCH_BYTES = 1 << 20;

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
  onBatch: (datagrams: Uint8Array[], now: number, receivedAtUs: Float64Array) => void,
): Promise<void> {
  while (!isClosed()) {
    let batch;
    try {
      batch = await quic.recvDatagramsPacked(maxDatagrams, MAX_BATCH_BYTES);
    } catch {
      return;
    }
    if (batch.lengths.length === 0 || isClosed()) return;
    let datagrams;
    try {
      datagrams = splitPackedDatagrams(batch.data, batch.lengths);
    } catch (err) {
      // Batches are independent buffers: the next one is framed afresh, and the sender sees this one's datagrams as lost.
      log('error', 'receive.malformed_batch', { session: quic.id, datagrams: batch.lengths.length, error: err });
      continue;
    }
    const now = nowUs();
    // Converted in place: the addon's array is this batch's own.
    const receivedAtUs = batch.receivedAtNs;
    for (let i = 0; i < receivedAtUs.length; i++) receivedAtUs[i] = usFromMonotonicNs(receivedAtUs[i]!, now);
    onBatch(datagrams, now, receivedAtUs);
  }
}
