// startLinkem: a long-lived emulated network namespace, driven from TypeScript.
// The C forwarder creates and removes everything; this module starts it, waits for it to
// be ready, runs commands inside with `ip netns exec`, and stops it. If this process dies,
// the forwarder sees its stdin close and cleans up by itself.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';

import { forwarderArgs, validateOptions, type LinkemOptions } from './options.ts';
import { FORWARDER_PATH, preflight } from './preflight.ts';
import { loadTrace, TraceError } from './trace.ts';
import { traceFile, TraceFileError } from '@pcc-stream/protocol/node/trace-file';

export interface DirectionSummary {
  ingressPackets: number;
  ingressBytes: number;
  filteredPackets: number;
  lossDropPackets: number;
  queueDropPackets: number;
  queueDropLinkBytes: number;
  departedPackets: number;
  departedBytes: number;
  writtenPackets: number;
  writeErrors: number;
  opportunities: number;
  maxQueuePackets: number;
  maxQueueLinkBytes: number;
  /** From the first packet read to the last packet written. */
  activeMs: number;
  /** Time in the link queue (model time). */
  queueDelayMs: { p50: number; p95: number; p99: number; max: number };
  /** Actual write time minus model departure time: the emulator's own timing error. */
  writeLatenessMs: { p50: number; p95: number; p99: number; max: number };
}

export interface LinkemSummary {
  instance: number;
  namespace: string;
  durationMs: number;
  up: DirectionSummary;
  down: DirectionSummary;
}

export interface LinkemShell {
  instance: number;
  /** Network namespace name, for `ip netns exec`. */
  namespace: string;
  /** Host-side address as seen from inside (the value of MAHIMAHI_BASE). */
  baseAddress: string;
  /** The namespace's own address. */
  innerAddress: string;
  /** TUN device on the host side (same name as the namespace). */
  hostInterface: string;
  /** CLOCK_MONOTONIC (process.hrtime.bigint()) time at which both link schedules start. */
  startMonotonicNs: bigint;
  forwarderPid: number;
  /** Environment for commands inside: the given one plus MAHIMAHI_BASE. */
  env(base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** Start a command inside the namespace. */
  spawn(command: string, args?: readonly string[], options?: SpawnOptions): ChildProcess;
  /** Write an executable script that runs PROGRAM inside the namespace (e.g. a browser
   *  for Playwright's executablePath); returns its path. */
  writeExecWrapper(path: string, program: string): Promise<string>;
  /** Resolves when the forwarder has exited for any reason. */
  readonly exited: Promise<LinkemSummary | undefined>;
  /** Stop forwarding, remove the namespace, TUNs and everything running inside; returns the summary. */
  stop(): Promise<LinkemSummary>;
}

export interface StartOptions {
  /** Where the forwarder's JSON log lines go (default: this process's stderr). */
  onLog?: (line: string) => void;
  readyTimeoutMs?: number;
}

interface ReadyMessage {
  event: 'ready';
  instance: number;
  namespace: string;
  hostInterface: string;
  hostAddress: string;
  innerAddress: string;
  /** a decimal string: nanoseconds of uptime exceed what a JSON number holds exactly */
  startMonotonicNs: string;
  pid: number;
  reclaimed: boolean;
}

export class LinkemStartError extends Error {}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export async function startLinkem(given: LinkemOptions, start: StartOptions = {}): Promise<LinkemShell> {
  validateOptions(given);
  preflight();
  // A trace stored compressed (NAME.gz, or NAME with a NAME.gz beside it) is read from its decompressed copy.
  const plainTrace = (path: string | undefined): string | undefined => {
    try {
      return path === undefined ? undefined : traceFile(path);
    } catch (e) {
      throw e instanceof TraceFileError ? new TraceError(e.message) : e;
    }
  };
  const options: LinkemOptions = { ...given, downTrace: plainTrace(given.downTrace), upTrace: plainTrace(given.upTrace) };
  // Bad traces are reported before anything is created (the forwarder checks again).
  if (options.downTrace !== undefined) loadTrace(options.downTrace);
  if (options.upTrace !== undefined) loadTrace(options.upTrace);

  const onLog = start.onLog ?? ((line: string) => process.stderr.write(`${line}\n`));
  // Own process group: a terminal's Ctrl-C reaches the command, and we decide when to stop.
  const child = spawn(FORWARDER_PATH, forwarderArgs(options), { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const errors: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    try {
      const parsed = JSON.parse(line) as { level?: string; msg?: string };
      if (parsed.level === 'error' && parsed.msg) errors.push(parsed.msg);
    } catch {
      /* not JSON: pass through as is */
    }
    onLog(line);
  });
  let summary: LinkemSummary | undefined;
  let resolveReady: (m: ReadyMessage) => void = () => {};
  const ready = new Promise<ReadyMessage>((resolve) => (resolveReady = resolve));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let message: { event?: string };
    try {
      message = JSON.parse(line) as { event?: string };
    } catch {
      onLog(JSON.stringify({ level: 'warn', component: 'linkem', msg: 'unparsed forwarder output', line }));
      return;
    }
    if (message.event === 'ready') resolveReady(message as ReadyMessage);
    else if (message.event === 'summary') summary = message as unknown as LinkemSummary;
  });
  const exited = new Promise<LinkemSummary | undefined>((resolve) => {
    child.on('close', () => resolve(summary));
    child.on('error', (e) => {
      errors.push(e.message);
      resolve(undefined);
    });
  });

  const timeoutMs = start.readyTimeoutMs ?? 15000;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    ready,
    exited.then(() => 'exited' as const),
    new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (outcome === 'exited' || outcome === 'timeout') {
    if (outcome === 'timeout') {
      child.kill('SIGTERM');
      await exited;
    }
    throw new LinkemStartError(
      errors.length > 0 ? errors.join('; ') : `linkem forwarder ${outcome === 'timeout' ? `not ready after ${timeoutMs} ms` : 'exited before it was ready'}`,
    );
  }
  const info = outcome;
  if (info.reclaimed) {
    onLog(JSON.stringify({ level: 'info', component: 'linkem', msg: 'removed leftovers of a killed instance', namespace: info.namespace }));
  }

  let stopping: Promise<LinkemSummary> | undefined;
  const shell: LinkemShell = {
    instance: info.instance,
    namespace: info.namespace,
    baseAddress: info.hostAddress,
    innerAddress: info.innerAddress,
    hostInterface: info.hostInterface,
    startMonotonicNs: BigInt(info.startMonotonicNs),
    forwarderPid: info.pid,
    exited,
    env(base: NodeJS.ProcessEnv = process.env) {
      return { ...base, MAHIMAHI_BASE: info.hostAddress, LINKEM_NAMESPACE: info.namespace };
    },
    spawn(command, args = [], spawnOptions = {}) {
      return spawn('ip', ['netns', 'exec', info.namespace, command, ...args], {
        ...spawnOptions,
        env: shell.env(spawnOptions.env ?? process.env),
      });
    },
    async writeExecWrapper(path, program) {
      const script = `#!/bin/sh\n# runs ${program} inside linkem namespace ${info.namespace}\nMAHIMAHI_BASE=${info.hostAddress}\nexport MAHIMAHI_BASE\nexec ip netns exec ${shellQuote(info.namespace)} ${shellQuote(program)} "$@"\n`;
      await writeFile(path, script);
      await chmod(path, 0o755);
      return path;
    },
    stop() {
      stopping ??= (async () => {
        child.kill('SIGTERM');
        let killTimer: NodeJS.Timeout | undefined;
        const s = await Promise.race([
          exited,
          new Promise<undefined>((resolve) => {
            killTimer = setTimeout(() => {
              // a wedged forwarder: SIGKILL; the next instance reclaims what it leaves
              child.kill('SIGKILL');
              resolve(undefined);
            }, 10000);
          }),
        ]);
        clearTimeout(killTimer);
        if (!s) throw new LinkemStartError(`linkem forwarder ended without a summary${errors.length ? `: ${errors.join('; ')}` : ''}`);
        return s;
      })();
      return stopping;
    },
  };
  return shell;
}
