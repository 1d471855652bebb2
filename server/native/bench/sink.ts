// Receiving end of the send-rate benchmark, in its own process so each side's CPU figures are
// its own. Modes: "count" never reads (quinn decrypts and counts the datagrams, dropping the
// oldest once its receive buffer is full); "array" drains with recvDatagrams (one Buffer per
// datagram); "packed" drains with recvDatagramsPacked (one Buffer per batch).
import { QuicClient } from '../index.js';

const [url, certSha256Hex, mode = 'count'] = process.argv.slice(2);
if (!url || !certSha256Hex || !['count', 'array', 'packed'].includes(mode)) {
  console.error('usage: sink.ts URL CERT_SHA256_HEX [count|array|packed]');
  process.exit(2);
}
const session = await QuicClient.connect(url, { certSha256Hex, datagramRecvBufferBytes: 4 << 20 });
process.stdout.write(JSON.stringify({ ready: true }) + '\n');
const cpuBefore = process.cpuUsage();
let datagramsRead = 0;
let bytesRead = 0;
if (mode === 'array') {
  for (;;) {
    const batch = await session.recvDatagrams(1024);
    if (batch.length === 0) break;
    datagramsRead += batch.length;
    for (const datagram of batch) bytesRead += datagram.length;
  }
} else if (mode === 'packed') {
  for (;;) {
    const { data, lengths } = await session.recvDatagramsPacked(1024, 1 << 20);
    if (lengths.length === 0) break;
    datagramsRead += lengths.length;
    bytesRead += data.length;
  }
}
const info = await session.closed();
const cpu = process.cpuUsage(cpuBefore);
const stats = session.stats();
process.stdout.write(
  JSON.stringify({
    closed: info,
    datagramsReceived: stats.datagramFramesReceived,
    datagramsRead,
    bytesRead,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  }) + '\n',
);
