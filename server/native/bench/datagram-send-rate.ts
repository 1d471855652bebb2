// Datagram send rate over loopback, one session, congestion 'none' (the app is the pacer):
// single sendDatagram calls vs sendDatagramBatch, unpaced (as fast as quinn drains) and paced at
// a target rate. Prints a table and writes bench-results/datagram-send-rate.json.
//   npm run -s bench -w server/native [-- --seconds 3 --payload 1200 --batch 64 --rates-mbps 0,1000]
// (rate 0 = unpaced)
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

import { QuicServer, generateSelfSignedCert, type Session } from '../index.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    payload: { type: 'string', default: '1200' },
    batch: { type: 'string', default: '64' },
    'rates-mbps': { type: 'string', default: '0,1000' },
    'sink-mode': { type: 'string', default: 'count' },
    // Pin the sink to this CPU (taskset), e.g. with the sender itself under `taskset -c 0`, to
    // measure the sender on one core.
    'sink-cpu': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(
    'usage: datagram-send-rate.ts [--seconds S] [--payload BYTES] [--batch N] [--rates-mbps 0,1000] [--sink-mode count|array|packed] [--sink-cpu N]',
  );
  process.exit(0);
}
const durationS = Number(args.seconds);
const payloadBytes = Number(args.payload);
const batchSize = Number(args.batch);
const ratesMbps = args['rates-mbps'].split(',').map(Number);
const sinkMode = args['sink-mode'];

function log(event: string, fields: Record<string, unknown>): void {
  process.stderr.write(JSON.stringify({ t: new Date().toISOString(), event, ...fields }) + '\n');
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface RunResult {
  mode: 'single' | 'batch';
  targetMbps: number;
  seconds: number;
  datagramsSent: number;
  sentGbps: number;
  datagramsPerSecond: number;
  refusedCalls: number;
  cpuSeconds: number;
  cpuSecondsPerGB: number;
  cpuUtilisation: number;
  receivedDatagrams: number;
  receivedGbps: number;
  lossFraction: number;
  sinkMode: string;
  sinkDatagramsRead: number;
  sinkCpuSecondsPerGB: number;
}

/** Sends for `durationS`; with targetMbps > 0 only the bytes due by now (1 ms pacing ticks). */
async function drive(session: Session, mode: 'single' | 'batch', targetMbps: number): Promise<number> {
  const payload = Buffer.alloc(payloadBytes, 0x5a);
  const packed = Buffer.alloc(payloadBytes * batchSize, 0x5a);
  const lengths = new Uint32Array(batchSize).fill(payloadBytes);
  const started = performance.now();
  const endAt = started + durationS * 1000;
  let sent = 0;
  let refused = 0;
  for (;;) {
    const now = performance.now();
    if (now >= endAt) break;
    const due =
      targetMbps > 0 ? Math.floor((((now - started) / 1000) * targetMbps * 1e6) / 8 / payloadBytes) - sent : Infinity;
    if (due <= 0) {
      await sleep(1);
      continue;
    }
    // Send what is due, up to ~1 ms worth of work per turn so timers and I/O still run.
    let budget = Math.min(due, 2048);
    let blocked = false;
    while (budget > 0) {
      if (mode === 'single') {
        payload.writeUInt32BE(sent, 0);
        if (!session.sendDatagram(payload)) {
          blocked = true;
          break;
        }
        sent++;
        budget--;
      } else {
        const count = Math.min(batchSize, budget);
        for (let i = 0; i < count; i++) packed.writeUInt32BE(sent + i, i * payloadBytes);
        const accepted = session.sendDatagramBatch(packed, lengths, count);
        sent += accepted;
        budget -= accepted;
        if (accepted < count) {
          blocked = true;
          break;
        }
      }
    }
    if (blocked) refused++;
    await yieldToLoop();
  }
  drive.refused = refused;
  return sent;
}
drive.refused = 0;

async function runOnce(mode: 'single' | 'batch', targetMbps: number): Promise<RunResult> {
  const cert = generateSelfSignedCert(['127.0.0.1'], 1);
  const server = await QuicServer.bind({
    host: '127.0.0.1',
    port: 0,
    certPem: cert.certPem,
    keyPem: cert.keyPem,
    congestion: 'none',
    datagramSendBufferBytes: 2 << 20,
  });
  const sinkArgs = [
    '--import',
    'tsx',
    new URL('./sink.ts', import.meta.url).pathname,
    `https://127.0.0.1:${server.port}/bench`,
    cert.certSha256Hex,
    sinkMode,
  ];
  const sink =
    args['sink-cpu'] === undefined
      ? spawn(process.execPath, sinkArgs, { stdio: ['ignore', 'pipe', 'inherit'] })
      : spawn('taskset', ['-c', args['sink-cpu'], process.execPath, ...sinkArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: sink.stdout! });
  const sinkLines = lines[Symbol.asyncIterator]();
  try {
    const session = await server.accept();
    if (!session) throw new Error('server closed before the sink connected');
    await sinkLines.next(); // {"ready":true}
    const before = session.stats();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const sent = await drive(session, mode, targetMbps);
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    await sleep(200); // let the queue drain before closing
    const after = session.stats();
    session.close(0, 'done');
    const report = JSON.parse(String((await sinkLines.next()).value)) as {
      datagramsReceived: number;
      datagramsRead: number;
      bytesRead: number;
      cpuSeconds: number;
    };
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const sentBytes = sent * payloadBytes;
    const framesSent = after.datagramFramesSent - before.datagramFramesSent;
    return {
      mode,
      targetMbps,
      seconds,
      datagramsSent: sent,
      sentGbps: (sentBytes * 8) / seconds / 1e9,
      datagramsPerSecond: sent / seconds,
      refusedCalls: drive.refused,
      cpuSeconds,
      cpuSecondsPerGB: cpuSeconds / (sentBytes / 1e9),
      cpuUtilisation: cpuSeconds / seconds,
      receivedDatagrams: report.datagramsReceived,
      receivedGbps: (report.datagramsReceived * payloadBytes * 8) / seconds / 1e9,
      lossFraction: framesSent > 0 ? Math.max(0, 1 - report.datagramsReceived / framesSent) : 0,
      sinkMode,
      sinkDatagramsRead: report.datagramsRead,
      sinkCpuSecondsPerGB: report.cpuSeconds / ((report.datagramsReceived * payloadBytes) / 1e9),
    };
  } finally {
    server.close();
    sink.kill();
  }
}

const results: RunResult[] = [];
for (const targetMbps of ratesMbps) {
  for (const mode of ['single', 'batch'] as const) {
    log('run.start', { mode, targetMbps, durationS, payloadBytes, batchSize });
    const result = await runOnce(mode, targetMbps);
    log('run.done', { ...result });
    results.push(result);
  }
}

const fmt = (value: number, digits: number) => value.toFixed(digits).padStart(9);
console.log('mode    target_mbps  sent_gbps  datagrams/s  cpu_s/GB  cpu_util  recv_gbps      loss  sink_cpu_s/GB  sink_read');
for (const r of results) {
  console.log(
    `${r.mode.padEnd(7)} ${String(r.targetMbps || 'max').padStart(11)} ${fmt(r.sentGbps, 3)} ${fmt(r.datagramsPerSecond, 0).padStart(12)} ${fmt(r.cpuSecondsPerGB, 2)} ${fmt(r.cpuUtilisation, 2)} ${fmt(r.receivedGbps, 3)} ${fmt(r.lossFraction, 3)} ${fmt(r.sinkCpuSecondsPerGB, 2).padStart(14)} ${String(r.sinkDatagramsRead).padStart(10)}`,
  );
}
const outDir = new URL('../bench-results/', import.meta.url);
mkdirSync(outDir, { recursive: true });
const outFile = new URL('datagram-send-rate.json', outDir);
writeFileSync(
  outFile,
  JSON.stringify({ date: new Date().toISOString(), durationS, payloadBytes, batchSize, sinkMode, cores: (await import('node:os')).cpus().length, results }, null, 2),
);
log('results.written', { file: outFile.pathname });
