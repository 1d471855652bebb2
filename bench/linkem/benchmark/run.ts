// linkem benchmark: (1) the highest packet rate forwarded with no delay and no link limit,
// from a sweep of offered rates; (2) the forwarder's CPU use at LTE rates (saturating UDP
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
const TRACES_DIR = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'traces');
const STEP_S = 2;
const OFFERED_PPS = [25000, 50000, 100000, 150000, 200000, 300000];
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
    const done = JSON.parse(out.trim().split('\n').pop()!) as { received: number; bytes: number; firstNs: number; lastNs: number };
    const summary = await shell.stop();
    return {
      sent: sent!.sent as number,
      sendSeconds: ((sent!.endNs as number) - (sent!.startNs as number)) / 1e9,
      received: done.received,
      receivedBytes: done.bytes,
      receiveSeconds: (done.lastNs - done.firstNs) / 1e9,
      forwarderCpuSeconds,
      summary,
    };
  } catch (e) {
    await shell.stop().catch(() => undefined);
    throw e;
  }
}

async function main(): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const sweep: { offeredPps: number; sentPps: number; forwardedPps: number; deliveredPps: number; lossPercent: number; forwarderCpuUsPerPacket: number }[] = [];
  for (const pps of OFFERED_PPS) {
    log('pps sweep step', { offeredPps: pps, seconds: STEP_S });
    const r = await flood({}, ['--pps', String(pps), '--count', String(pps * STEP_S), '--size', '64'], STEP_S * 1000 + 10000);
    const step = {
      offeredPps: pps,
      sentPps: Math.round(r.sent / r.sendSeconds),
      // what the forwarder read and wrote into the namespace, over the sending time
      forwardedPps: Math.round(r.summary.down.writtenPackets / r.sendSeconds),
      // what the receiving socket inside got (it competes for the same 2 cores)
      deliveredPps: Math.round(r.received / Math.max(r.receiveSeconds, r.sendSeconds)),
      lossPercent: Number((((r.sent - r.received) / Math.max(1, r.sent)) * 100).toFixed(3)),
      forwarderCpuUsPerPacket: Number(((r.forwarderCpuSeconds * 1e6) / Math.max(1, r.summary.down.writtenPackets)).toFixed(2)),
    };
    sweep.push(step);
    log('pps sweep result', step);
  }
  const clean = sweep.filter((s) => s.lossPercent <= 1);
  const maxLosslessPps = Math.max(0, ...clean.map((s) => s.deliveredPps));
  const maxForwardedPps = Math.max(0, ...sweep.map((s) => s.forwardedPps));

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
  const results = { machine: { cpus: cpus().length, loadAverage1m: loadavg()[0] }, stepSeconds: STEP_S, sweep, maxLosslessPps, maxForwardedPps, lte: lteResult };
  writeFileSync(join(RESULTS_DIR, 'benchmark.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(
    join(RESULTS_DIR, 'pps.svg'),
    lineChartSvg('linkem: packets forwarded, no delay, no limit (64-byte UDP)', 'offered packets/s', 'packets/s', [
      { label: 'offered (sent)', color: '#888', points: sweep.map((s) => [s.offeredPps, s.sentPps]) },
      { label: 'forwarded', color: '#2e7d32', points: sweep.map((s) => [s.offeredPps, s.forwardedPps]) },
      { label: 'delivered', color: '#1565c0', points: sweep.map((s) => [s.offeredPps, s.deliveredPps]) },
    ]),
  );
  process.stdout.write(
    [
      'linkem benchmark',
      `  (load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`,
      ...sweep.map((s) => `  offered ${s.offeredPps} pps: sent ${s.sentPps}, forwarded ${s.forwardedPps}, delivered ${s.deliveredPps} pps, loss ${s.lossPercent}%, forwarder ${s.forwarderCpuUsPerPacket} us CPU/packet`),
      `  max forwarded: ${maxForwardedPps} pps (target >= 100000); max delivered with <= 1% loss: ${maxLosslessPps} pps`,
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
