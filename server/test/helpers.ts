// Test fixtures: an origin child process on ephemeral loopback ports, and generated media in a temp dir.
import { randomBytes, createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PccClient } from '../src/client/pcc-client.ts';
import { startOriginProcess } from '../src/cli/origin-process.ts';
import { setLogLevel, type LogLevel } from '../src/log.ts';

export interface RunningOrigin {
  quicPort: number;
  httpPort: number;
  httpsPort: number;
  /** The plain HTTP/1.1 kernel-TCP baseline. */
  tcpPort: number;
  certHash: string;
  origin: string;
  exitCode: () => number | null;
  /** What the origin wrote to stdout and stderr. */
  output: () => string;
  status: () => Promise<Record<string, unknown> & { session_list: Array<Record<string, number | string>>; sessions: number; files_opened: number; send_loop_members: number }>;
  stop: () => Promise<number | null>;
}

/** The origin CLI on kernel-chosen loopback ports, through the launcher e2e and the benchmark use. */
export async function startOrigin(mediaDir: string, args: string[] = []): Promise<RunningOrigin> {
  const origin = await startOriginProcess({
    mediaDir, extraArgs: args, env: { ...process.env, PCC_LOG_LEVEL: process.env.PCC_LOG_LEVEL ?? 'warn' },
  });
  return {
    quicPort: origin.webTransportPort,
    httpPort: origin.httpPort,
    httpsPort: origin.httpsPort,
    tcpPort: origin.tcpPort,
    certHash: origin.certHashHex,
    origin: `https://127.0.0.1:${origin.webTransportPort}`,
    exitCode: origin.exitCode,
    output: origin.output,
    status: async () => (await (await fetch(`${origin.httpBase}/status`)).json()) as never,
    stop: origin.stop,
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

/** Fetches `path` on `client`, hashing the body as it arrives (SHA-256, hex); the result's status and retransmitted bytes. */
export async function fetchHash(client: PccClient, path: string): Promise<{ sha: string; bytes: number; status: number; retransmitted: number | null }> {
  const hash = createHash('sha256');
  const r = await client.fetch(path, { onData: (c) => hash.update(c) });
  return { sha: hash.digest('hex'), bytes: r.bytes, status: r.status, retransmitted: r.done?.retransmittedBytes ?? null };
}

/**
 * Fetches `path` on `client` and aborts once 2 MB have arrived; then waits (up to `timeoutMs`) until the origin has
 * released the request: nothing open, nothing active, nothing in flight. Returns the fetch's result.
 */
export async function abortMidTransfer(origin: RunningOrigin, client: PccClient, path: string, timeoutMs = 5000): Promise<{ aborted: boolean; bytes: number }> {
  const abort = new AbortController();
  let received = 0;
  const r = await client.fetch(path, {
    signal: abort.signal,
    onData: (c) => {
      received += c.byteLength;
      if (received > 2_000_000 && !abort.signal.aborted) abort.abort();
    },
  });
  await waitFor(async () => {
    const s = (await origin.status()).session_list.find((x) => x.id === client.quic.id);
    return s !== undefined && s.open_requests === 0 && s.active_requests === 0 && s.bytes_in_flight === 0;
  }, timeoutMs, 'the aborted request to be released');
  return r;
}

/** Collects this process's JSON log lines (an in-process origin's), debug level included, instead of printing them,
 *  until restore(). */
export function captureLogLines(): { lines: Array<Record<string, unknown>>; restore: () => void } {
  const lines: Array<Record<string, unknown>> = [];
  const stderrWrite = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  }) as typeof process.stderr.write;
  setLogLevel('debug'); // request.done is a debug line
  return {
    lines,
    restore: () => {
      setLogLevel((process.env.PCC_LOG_LEVEL as LogLevel | undefined) ?? 'info');
      process.stderr.write = stderrWrite;
    },
  };
}
