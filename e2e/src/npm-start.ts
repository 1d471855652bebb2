// `npm start -- ARGS` as a user runs it, in its own process group (so a test can kill npm alone or everything), with
// the URLs it prints and its page server's /status (which namespaces and origins it started).
import { spawn, type ChildProcess } from 'node:child_process';
import { repoRoot } from './repo-root.ts';

export interface NpmStart {
  child: ChildProcess;
  /** npm's pid, also the process group's id. */
  pid: number;
  /** Every page URL it printed, in order. */
  urls: string[];
  output(): string;
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

/** Starts npm start and resolves once it printed its URLs; rejects with its output if it exits first. */
export async function npmStart(args: string[], readyTimeoutMs = 240_000): Promise<NpmStart> {
  const child = spawn('npm', ['start', '--', ...args], { cwd: repoRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-200_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const output = (): string => `${out.slice(-4000)}\n--- stderr ---\n${err.slice(-6000)}`;
  const deadline = Date.now() + readyTimeoutMs;
  while (!out.includes('Ctrl-C stops everything')) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`npm start ${args.join(' ')} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${output()}`);
    if (Date.now() > deadline) {
      try { process.kill(-child.pid!, 'SIGINT'); } catch { /* gone */ }
      throw new Error(`npm start ${args.join(' ')} not ready after ${readyTimeoutMs / 1000} s:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const urls = [...out.matchAll(/^ {4}(http:\/\/\S+)$/gm)].map((m) => m[1]!);
  return { child, pid: child.pid!, urls, output, exited };
}

/** Ctrl-C as a terminal sends it: SIGINT to the whole process group; resolves once npm has exited. */
export async function interrupt(start: NpmStart, timeoutMs = 20_000): Promise<void> {
  try { process.kill(-start.pid, 'SIGINT'); } catch { return; }
  const timer = setTimeout(() => { try { process.kill(-start.pid, 'SIGKILL'); } catch { /* gone */ } }, timeoutMs);
  await start.exited;
  clearTimeout(timer);
}
