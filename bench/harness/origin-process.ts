// The real origin (server/, its CLI) as a child process on the host side of the emulated link.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface OriginOptions {
  host: string;
  webTransportPort: number;
  httpPort: number;
  httpsPort: number;
  mediaDir: string;
  staticDir?: string;
  logDir?: string;
  extraArgs?: string[];
}

export interface OriginProcess {
  httpBase: string;
  certHashHex: string;
  output(): string;
  stop(): Promise<void>;
}

export async function startOriginProcess(options: OriginOptions, readyTimeoutMs = 60_000): Promise<OriginProcess> {
  const args = ['--import', 'tsx', join(repoRoot, 'server/src/cli/origin-main.ts'), '--media', options.mediaDir, '--host', options.host,
    '--port', String(options.webTransportPort), '--http-port', String(options.httpPort), '--https-port', String(options.httpsPort),
    ...(options.staticDir ? ['--static', options.staticDir] : []), ...(options.logDir ? ['--log-dir', options.logDir] : []), ...(options.extraArgs ?? [])];
  const child: ChildProcess = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output += chunk.toString();
    if (output.length > 400_000) output = output.slice(-200_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-(child.pid as number), 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  };
  const httpBase = `http://${options.host}:${options.httpPort}`;
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the origin exited with code ${child.exitCode} before it was ready: ${output.slice(-2000)}`);
    try {
      const response = await fetch(`${httpBase}/cert-hash`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) {
        const certHashHex = (await response.text()).trim();
        return { httpBase, certHashHex, output: () => output, stop };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`the origin did not answer ${httpBase}/cert-hash within ${readyTimeoutMs / 1000} s: ${output.slice(-2000)}`);
}
