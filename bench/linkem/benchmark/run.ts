// linkem benchmark: (1) the highest packet rate forwarded with no delay and no link limit,
// from floods of small, medium and full-size packets; (2) the forwarder's CPU use at LTE rates (saturating UDP
// through the TMobile LTE traces with 20 ms delay). Prints figures; writes
// bench/results/linkem/benchmark.json and pps.svg.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

import { PROBE_PATH, startLinkem, type LinkemOptions, type LinkemSummary } from '../src/driver/index.ts';
import { processCpuSeconds } from './cpu.ts';
import { lineChartSvg } from './svg.ts';
import { spawn } from 'node:child_process';

const RESULTS_DIR = join(import.meta.dirname, '..', '..', 'results', 'linkem');
const TRACES_DIR = join(import.meta.dirname, '..', '..', 'traces'); // bench/traces, the repository's copy
const PAYLOAD_SIZES = [64, 512, 1472];
const RUNS = 3;
const FLOOD_PACKETS = 200000;
const PORT = 29000;

function log(msg: string, extra: Record<string, unknown> = {}): void {
  process.stderr.write(`${JSON.stringify({ level: 'info', component: 'bench:linkem', msg, ...extra })}\n`);
}

function probe(args: string[], namespace?: string): Promise<Record<string, unknown>[]> {
  const command = namespace ? ['ip', 'netns', 'exec', namespace, PROBE_PATH, ...args] : [PROBE_PATH, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => (code === 0 ? resolve(out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)) : reject(new Error(`probe ${args[0]} exited ${code}`))));
  });
}

interface FloodResult {
  sent: number;
  sendSeconds: number;
  received: number;
  receiveSeconds: number;
  receivedBytes: number;
  forwarderCpuSeconds: number;
  summary: LinkemSummary;
}

/** Start a receiver inside, wait until it listens, run the sender on the host. */
async function flood(options: LinkemOptions, senderArgs: string[], receiverMaxMs: number): Promise<FloodResult> {
  const shell = await startLinkem(options, { onLog: () => {} });
  try {
    const recvChild = spawn('ip', ['netns', 'exec', shell.namespace, PROBE_PATH, 'udp-recv', '--bind', shell.innerAddress, '--port', String(PORT), '--idle-ms', '1000', '--max-ms', String(receiverMaxMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const listening = new Promise<void>((resolve) =>
      recvChild.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('listening')) resolve();
      }),
    );
    const recvDone = new Promise<void>((resolve) => recvChild.on('close', () => resolve()));
    await listening;
    const cpu0 = processCpuSeconds(shell.forwarderPid);
    const [sent] = await probe(['udp-send', '--to', shell.innerAddress, '--port', String(PORT), ...senderArgs]);
    await recvDone;
    const forwarderCpuSeconds = processCpuSeconds(shell.forwarderPid) - cpu0;
    const done = JSON.parse(out.trim().split('\n').pop()!) as { received: number; bytes: number; firstNs: string; lastNs: string };
    const summary = await shell.stop();
    return {
      sent: sent!.sent as number,
      sendSeconds: Number(BigInt(sent!.endNs as string) - BigInt(sent!.startNs as string)) / 1e9,
      received: done.received,
      receivedBytes: done.bytes,
      receiveSeconds: Number(BigInt(done.lastNs) - BigInt(done.firstNs)) / 1e9,
      forwarderCpuSeconds,
      summary,
    };
  } catch (e) {
    await shell.stop().catch(() => undefined);
    throw e;
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log('usage: npm run -s bench:linkem -w bench   (as root; about 2 min)\n'
      + '  packets/s forwarded with no delay and no limit, and the forwarder CPU through the TMobile LTE traces;\n'
      + '  writes bench/results/linkem/benchmark.json and pps.svg');
    return;
  }
  mkdirSync(RESULTS_DIR, { recursive: true });
  // Throughput: the sender blasts as fast as it can (no pacing: a paced sender on this
  // loaded 2-core machine tops out near 30k packets/s); "forwarded" = packets the forwarder
  // read from one TUN and wrote into the other, over its active time.
  const throughput: { payloadBytes: number; run: number; sentPps: number; forwardedPps: number; forwardedMbps: number; ingressLossPercent: number; deliveredPercent: number; forwarderCpuUsPerPacket: number }[] = [];
  for (const payloadBytes of PAYLOAD_SIZES) {
    for (let run = 1; run <= RUNS; run++) {
      log('throughput run', { payloadBytes, run, packets: FLOOD_PACKETS });
      const r = await flood({}, ['--pps', '10000000', '--count', String(FLOOD_PACKETS), '--size', String(payloadBytes), '--burst', '1'], 30000);
      const down = r.summary.down;
      const row = {
        payloadBytes,
        run,
        sentPps: Math.round(r.sent / r.sendSeconds),
        forwardedPps: Math.round(down.writtenPackets / (down.activeMs / 1000)),
        forwardedMbps: Number(((down.departedBytes * 8) / (down.activeMs / 1000) / 1e6).toFixed(1)),
        // dropped by the kernel before the forwarder read them (TUN queue full)
        ingressLossPercent: Number((((r.sent - down.ingressPackets) / r.sent) * 100).toFixed(2)),
        // reached the receiving socket (which competes for the same cores)
        deliveredPercent: Number(((r.received / r.sent) * 100).toFixed(1)),
        forwarderCpuUsPerPacket: Number(((r.forwarderCpuSeconds * 1e6) / Math.max(1, down.writtenPackets)).toFixed(2)),
      };
      throughput.push(row);
      log('throughput result', row);
    }
  }
  const medianOf = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const bySize = PAYLOAD_SIZES.map((payloadBytes) => {
    const rows = throughput.filter((t) => t.payloadBytes === payloadBytes);
    return {
      payloadBytes,
      medianForwardedPps: medianOf(rows.map((r) => r.forwardedPps)),
      medianForwardedMbps: medianOf(rows.map((r) => r.forwardedMbps)),
      medianCpuUsPerPacket: medianOf(rows.map((r) => r.forwarderCpuUsPerPacket)),
      maxIngressLossPercent: Math.max(...rows.map((r) => r.ingressLossPercent)),
    };
  });
  const maxForwardedPps = Math.max(...bySize.map((b) => b.medianForwardedPps));

  log('LTE CPU run', { seconds: 10 });
  const lte = await flood(
    { downTrace: join(TRACES_DIR, 'TMobile-LTE-short.down'), upTrace: join(TRACES_DIR, 'TMobile-LTE-short.up'), delayMs: 20, queueDown: 'droptail', queueDownArgs: 'packets=1000' },
    ['--pps', '3000', '--count', '30000', '--size', '1472'],
    13000,
  );
  const lteResult = {
    trace: 'TMobile-LTE-short down/up, 20 ms delay, droptail 1000 packets, UDP offered 35 Mbit/s for 10 s',
    deliveredMbps: Number(((lte.receivedBytes * 8) / lte.receiveSeconds / 1e6).toFixed(2)),
    forwarderCpuPercent: Number(((lte.forwarderCpuSeconds / lte.receiveSeconds) * 100).toFixed(1)),
    opportunitiesPerS: Math.round(lte.summary.down.opportunities / (lte.summary.durationMs / 1000)),
    writeLatenessMs: lte.summary.down.writeLatenessMs,
  };
  const results = { machine: { cpus: cpus().length, loadAverage1m: loadavg()[0] }, floodPackets: FLOOD_PACKETS, throughput, bySize, maxForwardedPps, lte: lteResult };
  writeFileSync(join(RESULTS_DIR, 'benchmark.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(
    join(RESULTS_DIR, 'pps.svg'),
    lineChartSvg(`linkem: packets/s forwarded, no delay, no limit (median of ${RUNS})`, 'UDP payload bytes', 'packets/s', [
      { label: 'sent (sender)', color: '#888', points: PAYLOAD_SIZES.map((size) => [size, medianOf(throughput.filter((t) => t.payloadBytes === size).map((t) => t.sentPps))]) },
      { label: 'forwarded (linkem)', color: '#2e7d32', points: bySize.map((b) => [b.payloadBytes, b.medianForwardedPps]) },
    ]),
  );
  process.stdout.write(
    [
      'linkem benchmark',
      `  (load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`,
      ...throughput.map((t) => `  ${t.payloadBytes} B payload, run ${t.run}: sent ${t.sentPps} pps, forwarded ${t.forwardedPps} pps (${t.forwardedMbps} Mbit/s), lost before the forwarder ${t.ingressLossPercent}%, reached the receiving socket ${t.deliveredPercent}%, ${t.forwarderCpuUsPerPacket} us forwarder CPU/packet`),
      ...bySize.map((b) => `  ${b.payloadBytes} B payload: median ${b.medianForwardedPps} packets/s forwarded (${b.medianForwardedMbps} Mbit/s), ${b.medianCpuUsPerPacket} us CPU/packet`),
      `  max forwarded: ${maxForwardedPps} packets/s (target >= 100000)`,
      `  LTE: ${lteResult.trace}: delivered ${lteResult.deliveredMbps} Mbit/s, forwarder CPU ${lteResult.forwarderCpuPercent}% of one core, write lateness p99 ${lteResult.writeLatenessMs.p99} ms`,
      `  results: ${join(RESULTS_DIR, 'benchmark.json')}, ${join(RESULTS_DIR, 'pps.svg')}`,
      '',
    ].join('\n'),
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 'error', component: 'bench:linkem', msg: e instanceof Error ? e.message : String(e) })}\n`);
  process.exit(1);
});
