// The receive side of a datagram session, for both ends (the origin's ACK loop, the client's DATA loop):
// batches pushed by the QUIC addon (one ArrayBuffer each), each datagram dated when the addon took it off the connection.
import type { Session } from '@pcc-stream/quic';
import { nowUs, usFromMonotonicNs } from '../clock.ts';
import { log } from '../log.ts';
import { unpackPushedBatch } from './packed-datagrams.ts';

/**
 * Hands every received batch to `onBatch` until the session ends (the returned promise then resolves) or `isClosed()`
 * (later batches are dropped). The addon calls in with everything that arrived since its last call: one crossing per
 * turn of the event loop, not a promise per batch nor a Buffer per datagram. `receivedAtUs[i]` is the addon's receive
 * stamp of `datagrams[i]` on this process's clock: the event loop may have been busy meanwhile, and that wait must not
 * read as path delay (PROTOCOL.md §3.2), nor datagrams that arrived apart as arriving together.
 */
export function receiveDatagramBatches(
  quic: Session,
  isClosed: () => boolean,
  onBatch: (datagrams: Uint8Array[], now: number, receivedAtUs: Float64Array) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // Once settled, whatever the addon still hands over is dropped, as a loop that had returned would have left it.
    let settled = false;
    const settle = (err?: unknown): void => {
      settled = true;
      if (err === undefined) resolve();
      else reject(err instanceof Error ? err : new Error(String(err)));
    };
    const onPacked = (count: number, packed: ArrayBuffer | null): void => {
      if (settled) return;
      if (packed === null || isClosed()) return settle();
      if (count === 0) return;
      let batch;
      try {
        batch = unpackPushedBatch(count, packed);
      } catch (err) {
        // Batches are independent buffers: the next one is framed afresh, and the sender sees this one's datagrams as lost.
        log('error', 'receive.malformed_batch', { session: quic.id, datagrams: count, error: err });
        return;
      }
      const { datagrams } = batch;
      const now = nowUs();
      // Converted in place: the addon's array is this batch's own.
      const receivedAtUs = batch.receivedAtNs;
      for (let i = 0; i < receivedAtUs.length; i++) receivedAtUs[i] = usFromMonotonicNs(receivedAtUs[i]!, now);
      try {
        onBatch(datagrams, now, receivedAtUs);
      } catch (err) {
        // Thrown here it would be the process's uncaught exception (the addon calls in from its own queue).
        settle(err);
      }
    };
    try {
      quic.onDatagrams(onPacked);
    } catch (err) {
      settle(err);
    }
  });
}
