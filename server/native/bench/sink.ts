// Receiving end of the send-rate benchmark, in its own process so the sender's CPU figures are
// its own. It never reads the datagrams (quinn decrypts and counts them, then drops the oldest
// once its receive buffer is full): it reports what arrived at the QUIC layer.
import { QuicClient } from '../index.js';

const [url, certSha256Hex] = process.argv.slice(2);
if (!url || !certSha256Hex) {
  console.error('usage: sink.ts URL CERT_SHA256_HEX');
  process.exit(2);
}
const session = await QuicClient.connect(url, { certSha256Hex, datagramRecvBufferBytes: 1 << 20 });
process.stdout.write(JSON.stringify({ ready: true }) + '\n');
const info = await session.closed();
const stats = session.stats();
process.stdout.write(
  JSON.stringify({
    closed: info,
    datagramsReceived: stats.datagramFramesReceived,
    udpRxBytes: stats.udpRxBytes,
    udpRxDatagrams: stats.udpRxDatagrams,
  }) + '\n',
);
