// Test fixtures: an origin child process on ephemeral loopback ports, and generated media in a temp dir.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningOrigin {
  quicPort: number;
  httpPort: number;
  httpsPort: number;
  certHash: string;
  origin: string;
  child: ChildProcess;
  stderr: () => string;
  status: () => Promise<Record<string, unknown> & { session_list: Array<Record<string, number | string>>; sessions: number; files_opened: number; pacer_members: number }>;
  stop: () => Promise<number | null>;
}

export async function startOrigin(mediaDir: string, args: string[] = []): Promise<RunningOrigin> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/origin-main.ts', '--media', mediaDir, '--port', '0', '--http-port', '0', '--https-port', '0', ...args], {
    cwd: serverDir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PCC_LOG_LEVEL: process.env.PCC_LOG_LEVEL ?? 'warn' },
  });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
    if (err.length > 1_000_000) err = err.slice(-500_000);
  });
  const ready = await new Promise<Record<string, number | string>>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`origin did not start in 60 s: ${err}`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.includes('"ready"'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as Record<string, number | string>);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`origin exited with ${code}: ${err}`));
    });
  });
  const httpPort = ready.http_port as number;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    quicPort: ready.quic_port as number,
    httpPort,
    httpsPort: ready.https_port as number,
    certHash: ready.cert_sha256 as string,
    origin: `https://127.0.0.1:${ready.quic_port}`,
    child,
    stderr: () => err,
    status: async () => (await (await fetch(`http://127.0.0.1:${httpPort}/status`)).json()) as never,
    stop: async () => {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

export interface MediaFixture {
  dir: string;
  files: Map<string, { bytes: Buffer; sha256: string }>;
  cleanup: () => void;
}

/** Random-byte files of the given sizes under a fresh temp dir (which also gets a parent with a secret). */
export function makeMedia(sizes: Record<string, number>): MediaFixture {
  const base = mkdtempSync(join(tmpdir(), 'pcc-server-test-'));
  const dir = join(base, 'media');
  mkdirSync(dir);
  const files = new Map<string, { bytes: Buffer; sha256: string }>();
  for (const [name, size] of Object.entries(sizes)) {
    const bytes = randomBytes(size);
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), bytes);
    files.set(name, { bytes, sha256: sha256(bytes) });
  }
  return { dir, files, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function waitFor(predicate: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await predicate()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
