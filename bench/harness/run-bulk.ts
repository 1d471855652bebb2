// One bulk run (no browser): the Node client inside the emulated namespace downloads a large object from the
// origin for duration_s and reports goodput and RTT percentiles (thesis Fig. 4.3 style experiments).
import { closeSync, existsSync, mkdirSync, openSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import type { LinkemShell } from '../linkem/src/driver/index.ts';
import type { OriginPorts } from './run-browser.ts';
import { repoRoot } from './repo-root.ts';
import type { Scenario, Scheme } from './scenario.ts';
import { controllerParamsFor, schemeTransport } from './schemes.ts';

export const BULK_OBJECT = 'bulk/blob-4g.bin';

/** A sparse 4 GiB object in the bench media directory: larger than any run can fetch, cheap to read. */
export function ensureBulkObject(mediaDir: string): void {
  const path = join(mediaDir, BULK_OBJECT);
  if (existsSync(path)) return;
  mkdirSync(join(mediaDir, 'bulk'), { recursive: true });
  const fd = openSync(path, 'w');
  try {
    ftruncateSync(fd, 4 * 1024 ** 3);
  } finally {
    closeSync(fd);
  }
}

export interface FetchResult {
  bytes: number;
  seconds: number;
  goodput_mbps: number;
  rtt_ms_p50: number | null;
  rtt_ms_p95: number | null;
  retransmitted_bytes: number | null;
}

export async function runBulk(shell: LinkemShell, ports: OriginPorts, certHashHex: string, scheme: Scheme, scenario: Scenario, clientArgs: readonly string[] = []): Promise<FetchResult> {
  const { transport, cc } = schemeTransport(scheme);
  const port = transport === 'tcp' ? ports.httpsPort : ports.webTransportPort;
  const url = `https://${ports.host}:${port}/${BULK_OBJECT}`;
  const args = ['--import', 'tsx', join(repoRoot, 'server/src/cli/fetch-main.ts'), url, '--transport', transport, '--cc', cc,
    '--cert-hash', certHashHex, '--max-seconds', String(scenario.durationS), '--json',
    ...Object.entries(controllerParamsFor(scenario, scheme)).flatMap(([name, value]) => ['--param', `${name}=${value}`]), ...clientArgs];
  const child = shell.spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const killTimer = setTimeout(() => child.kill('SIGKILL'), (scenario.durationS + 60) * 1000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(killTimer);
  const line = stdout.trim().split('\n').pop() ?? '';
  try {
    const result = JSON.parse(line) as FetchResult;
    if (typeof result.bytes !== 'number') throw new Error('no byte count');
    return result;
  } catch {
    throw new Error(`the fetch client exited with ${code} without a result: ${stderr.trim().slice(-1000)}`);
  }
}

