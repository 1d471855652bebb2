// Starts the real origin (server/, `npm run origin`) on free loopback ports and stops its whole process group.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freeTcpPort, freeUdpPort } from './free-port.ts';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface OriginProcess {
  webTransportPort: number;
  httpPort: number;
  httpsPort: number;
  /** http://127.0.0.1:PORT: the player page and /cert-hash. */
  httpBase: string;
  /** Everything the origin wrote to stderr/stdout (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts the origin serving `mediaDir` (DASH) and `staticDir` (the built player) on its HTTP port. */
export async function startOrigin(mediaDir: string, staticDir: string, cc = 'vivace'): Promise<OriginProcess> {
  const webTransportPort = await freeUdpPort();
  const httpPort = await freeTcpPort();
  const httpsPort = await freeTcpPort();
  const child: ChildProcess = spawn('npm', ['run', '-s', 'origin', '--', '--media', mediaDir, '--static', staticDir, '--host', '127.0.0.1',
    '--port', String(webTransportPort), '--http-port', String(httpPort), '--https-port', String(httpsPort), '--cc', cc], {
    cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const httpBase = `http://127.0.0.1:${httpPort}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try { process.kill(-(child.pid as number), 'SIGINT'); } catch { return; }
    const timer = setTimeout(() => { try { process.kill(-(child.pid as number), 'SIGKILL'); } catch { /* gone */ } }, 5000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the origin exited with ${child.exitCode} before it was ready:\n${output.slice(-4000)}`);
    try {
      const r = await fetch(`${httpBase}/cert-hash`, { signal: AbortSignal.timeout(1000) });
      if (r.ok) return { webTransportPort, httpPort, httpsPort, httpBase, output: () => output, stop };
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`the origin did not answer ${httpBase}/cert-hash within 60 s:\n${output.slice(-4000)}`);
}
