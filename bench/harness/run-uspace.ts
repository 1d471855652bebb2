// One bulk run of the PCC authors' own implementation, PCC-Uspace (external-schemes.ts), from the user's build
// (`--uspace DIR`). Data flows downlink as in our bulk runs: its sender (`pccclient send`) runs on the host side,
// where our origin would, and its receiver (`pccserver recv`) inside linkem's namespace, where our client would.
// Goodput is from what its receiver reports: one line a second with the data packets received in it (UDT's
// perfmon), times the application bytes each carries, over the time the sender sent.
import { accessSync, constants, existsSync, statSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { LinkemShell } from '../linkem/src/driver/index.ts';
import type { FetchResult } from './run-bulk.ts';
import type { Scenario } from './scenario.ts';

/** pccserver's own default port; the namespace is new for every run, so nothing else holds it there. */
const USPACE_PORT = 9000;
/** Its control algorithm argument: Vivace (NSDI 2018; thesis ch. 4) with its default (primary) utility. */
const USPACE_ALGORITHM = 'Vivace';
/** UDT's largest data payload at its default MSS of 1464 B (pccclient sets none): less IP + UDP (28 B) and UDT's
 *  header (16 B). */
const UDT_PAYLOAD_BYTES = 1464 - 28 - 16;
/** pccclient sends 100,000-byte writes, and UDT ends a packet with each: 70 full packets and one of 600 B, so
 *  application bytes per data packet are 100,000 / 71 (linkem measured 1452.4 IP bytes per packet = that + 44). The
 *  receiver's printed rate counts every packet as full and reads 0.8% high. */
const PCCCLIENT_WRITE_BYTES = 100_000;
const APP_BYTES_PER_PACKET = PCCCLIENT_WRITE_BYTES / Math.ceil(PCCCLIENT_WRITE_BYTES / UDT_PAYLOAD_BYTES);
/** After the sender stops, the receiver's next per-second line covers the data of its last partial second. */
const TAIL_LINE_WAIT_MS = 1500;
const READY_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 15_000;

export interface UspaceBinaries {
  server: string;
  client: string;
}

export class UspaceError extends Error {}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Finds pccserver and pccclient in DIR: a checkout (DIR/src/app), its src/ (DIR/app) or src/app itself. */
export function resolveUspaceBinaries(dir: string): UspaceBinaries {
  if (!existsSync(dir)) throw new UspaceError(`--uspace ${dir}: no such directory`);
  const candidates = [join(dir, 'src', 'app'), join(dir, 'app'), dir];
  for (const candidate of candidates) {
    const server = join(candidate, 'pccserver');
    const client = join(candidate, 'pccclient');
    if (executable(server) && executable(client)) return { server, client };
  }
  throw new UspaceError(
    `--uspace ${dir}: no executable pccserver and pccclient in ${candidates.join(', ')}; build PCC-Uspace first (bench/harness/README.md, "PCC-Uspace as a peer")`,
  );
}

interface Collected {
  child: ChildProcess;
  lines: Line[];
  stderr: string;
  exited: Promise<number | null>;
}

function collect(child: ChildProcess): Collected {
  const collected: Collected = { child, lines: [], stderr: '', exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop() ?? '';
    for (const text of parts) collected.lines.push({ atMs: Date.now(), text });
  });
  child.stderr?.on('data', (chunk: Buffer) => (collected.stderr = (collected.stderr + chunk.toString()).slice(-4000)));
  return collected;
}

async function waitFor(proc: Collected, pattern: RegExp, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void proc.exited.then((code) => (exitCode = code));
  while (!proc.lines.some((l) => pattern.test(l.text))) {
    if (exitCode !== undefined) throw new UspaceError(`${what}: exited with ${exitCode}: ${proc.lines.map((l) => l.text).join(' | ').slice(-500)} ${proc.stderr.slice(-500)}`);
    if (Date.now() > deadline) throw new UspaceError(`${what}: nothing matching ${pattern} within ${timeoutMs} ms: ${proc.lines.map((l) => l.text).join(' | ').slice(-500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function percentile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

type Line = { atMs: number; text: string };

/** The numeric rows of a per-second monitor table (after the header line starting `header`) printed up to `untilMs`. */
function monitorRows(lines: readonly Line[], header: string, minFields: number, untilMs: number): number[][] {
  const start = lines.findIndex((l) => l.text.startsWith(header));
  if (start < 0) return [];
  return lines.slice(start + 1)
    .filter((l) => l.atMs <= untilMs)
    .map((l) => l.text.trim().split(/\s+/).map(Number))
    .filter((f) => f.length >= minFields && f.every(Number.isFinite));
}

/** pccserver's lines "Recv Rate(Mb/s)  RTT(ms)  Packets Recvd": the data packets received each second (its RTT
 *  column is UDT's initial 10 s: the receiver does not measure it). */
export function receiverPackets(lines: readonly Line[], untilMs: number): number[] {
  return monitorRows(lines, 'Recv Rate', 3, untilMs).map((f) => f[2]!);
}

/** pccclient's lines "SendRate(Mb/s)  RTT(ms)  CTotal  Loss" (each led by its second's number): the sender's RTT. */
export function senderRttsMs(lines: readonly Line[], untilMs: number): number[] {
  return monitorRows(lines, 'SendRate', 5, untilMs).map((f) => f[2]!);
}

export async function runUspace(shell: LinkemShell, binaries: UspaceBinaries, scenario: Scenario, runDir: string): Promise<FetchResult> {
  let server: Collected | null = null;
  let client: Collected | null = null;
  try {
    server = collect(shell.spawn(binaries.server, ['recv', String(USPACE_PORT)], { stdio: ['ignore', 'pipe', 'pipe'] }));
    await waitFor(server, /server is ready/, READY_TIMEOUT_MS, 'pccserver recv (inside the namespace)');
    client = collect(spawn(binaries.client, ['send', shell.innerAddress, String(USPACE_PORT), USPACE_ALGORITHM], { stdio: ['ignore', 'pipe', 'pipe'] }));
    await waitFor(server, /new connection/, CONNECT_TIMEOUT_MS, `pccclient send ${shell.innerAddress}:${USPACE_PORT} (host side)`);
    const connectedMs = Date.now();
    await new Promise((r) => setTimeout(r, scenario.durationS * 1000));
    // pccclient exits on SIGINT (its own handler); the receiver's lines after that show what was still in flight,
    // then zeros.
    client.child.kill('SIGINT');
    const sentS = (Date.now() - connectedMs) / 1000;
    await new Promise((r) => setTimeout(r, TAIL_LINE_WAIT_MS));
    const packets = receiverPackets(server.lines, Date.now());
    if (packets.length === 0) throw new UspaceError(`pccserver printed no throughput lines in ${scenario.durationS} s: ${server.lines.map((l) => l.text).join(' | ').slice(-500)}`);
    const bytes = packets.reduce((s, n) => s + n, 0) * APP_BYTES_PER_PACKET;
    const rtts = senderRttsMs(client.lines, Date.now()).filter((v) => v > 0).sort((a, b) => a - b);
    return {
      bytes,
      seconds: sentS,
      goodput_mbps: (bytes * 8) / 1e6 / sentS,
      rtt_ms_p50: percentile(rtts, 0.5),
      rtt_ms_p95: percentile(rtts, 0.95),
      retransmitted_bytes: null,
    };
  } finally {
    for (const proc of [client, server]) {
      if (!proc) continue;
      if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGINT');
      const killTimer = setTimeout(() => proc.child.kill('SIGKILL'), 3000);
      await proc.exited;
      clearTimeout(killTimer);
    }
    if (server) writeFileSync(join(runDir, 'uspace-server.log'), `${server.lines.map((l) => l.text).join('\n')}\n${server.stderr}`);
    if (client) writeFileSync(join(runDir, 'uspace-client.log'), `${client.lines.map((l) => l.text).join('\n')}\n${client.stderr}`);
  }
}
