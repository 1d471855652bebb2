// Shared plumbing for linkem's fidelity tests: run the C probe on the host or inside a
// namespace, collect its JSON lines, and always stop every emulator a test started.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { PROBE_PATH, startLinkem, type LinkemOptions, type LinkemShell, type LinkemSummary } from '../linkem/src/driver/index.ts';
import { traceFile } from '@pcc-stream/protocol/node/trace-file';

export interface ProbeRun {
  child: ChildProcess;
  /** Resolves with the first JSON line whose event matches (e.g. "listening"). */
  event(name: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Resolves with the last JSON line once the probe exits with status 0. */
  result(timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Ask a receiver to finish now (SIGTERM) and resolve with its result. */
  finish(timeoutMs?: number): Promise<Record<string, unknown>>;
}

export function runProbe(args: string[], shell?: LinkemShell): ProbeRun {
  const child = shell ? shell.spawn(PROBE_PATH, args, { stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(PROBE_PATH, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(JSON.parse(line) as Record<string, unknown>);
    for (const w of waiters.splice(0)) w();
  });
  const exit = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const t = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`probe ${args[0]}: ${what} not seen within ${ms} ms; stderr: ${stderr}`));
      }, ms);
      p.then(
        (v) => {
          clearTimeout(t);
          resolve(v);
        },
        (e: unknown) => {
          clearTimeout(t);
          reject(e instanceof Error ? e : new Error(String(e)));
        },
      );
    });
  return {
    child,
    event(name, timeoutMs = 10000) {
      const found = (): Record<string, unknown> | undefined => lines.find((l) => l.event === name);
      return withTimeout(
        new Promise((resolve, reject) => {
          const check = (): void => {
            const hit = found();
            if (hit) resolve(hit);
            else waiters.push(check);
          };
          check();
          void exit.then(() => {
            const hit = found();
            if (hit) resolve(hit);
            else reject(new Error(`probe ${args[0]} exited before "${name}"; stderr: ${stderr}`));
          });
        }),
        timeoutMs,
        `event ${name}`,
      );
    },
    finish(timeoutMs = 10000) {
      child.kill('SIGTERM');
      return this.result(timeoutMs);
    },
    result(timeoutMs = 30000) {
      return withTimeout(
        exit.then((code) => {
          const last = lines[lines.length - 1];
          if (code !== 0 || !last) throw new Error(`probe ${args[0]} exited ${code}; stderr: ${stderr}`);
          return last;
        }),
        timeoutMs,
        'exit',
      );
    },
  };
}

/** Starts an emulator, runs fn, and stops the emulator whatever happens; returns fn's value and the summary. */
export async function withLinkem<T>(options: LinkemOptions, fn: (shell: LinkemShell) => Promise<T>): Promise<{ value: T; summary: LinkemSummary }> {
  const logs: string[] = [];
  const shell = await startLinkem(options, { onLog: (line) => logs.push(line) });
  let value: T;
  try {
    value = await fn(shell);
  } catch (e) {
    await shell.stop().catch(() => undefined);
    throw e;
  }
  const summary = await shell.stop();
  return { value, summary };
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export interface ProbeCsvRow {
  seq: number;
  sendNs: bigint;
  recvNs: bigint;
  bytes: number;
}

export function parseProbeCsv(text: string): ProbeCsvRow[] {
  return text
    .trim()
    .split('\n')
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => {
      const [seq, sendNs, recvNs, bytes] = l.split(',');
      return { seq: Number(seq), sendNs: BigInt(sendNs!), recvNs: BigInt(recvNs!), bytes: Number(bytes) };
    });
}

/** Ports per test file so a leftover socket from one file never collides with another. */
export function port(base: number): number {
  return base + (process.pid % 500);
}

/** A trace from the repository's set (bench/traces, see PROVENANCE.md), decompressed if stored as NAME.gz. */
export function repoTrace(name: string): string {
  const path = traceFile(join(import.meta.dirname, '..', 'traces', name));
  if (!existsSync(path)) throw new Error(`trace ${name} not found in bench/traces`);
  return path;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
