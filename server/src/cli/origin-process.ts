// The origin CLI (origin-main.ts) as a child process: the one launcher the e2e tests and the benchmark harness share.
// It is ready when it prints its machine-readable "ready" line (ports actually bound + certificate hash).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const originMainPath = join(dirname(fileURLToPath(import.meta.url)), 'origin-main.ts');
const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outputKeepChars = 400_000;
const stopGraceMs = 5000;

export interface OriginProcessOptions {
  /** Directory the origin serves media from. */
  mediaDir: string;
  /** Address every listener binds to; default 127.0.0.1. */
  host?: string;
  /** 0 (the default) lets the kernel pick a free port; the chosen one is reported back. */
  webTransportPort?: number;
  httpPort?: number;
  httpsPort?: number;
  tcpPort?: number;
  /** Served at / on the HTTP port (the built player). */
  staticDir?: string;
  logDir?: string;
  /** Record every datagram session's controller inputs and decisions here (pcc-replay scripts). */
  recordDir?: string;
  /** Rate controller for WebTransport sessions (origin default when absent). */
  cc?: string;
  /** Further origin-main options, passed verbatim. */
  extraArgs?: string[];
  /** Environment of the child; default this process's. */
  env?: NodeJS.ProcessEnv;
  /** Command that runs the origin's node command line, e.g. ['ip', 'netns', 'exec', NS] to start it inside a network
   *  namespace (npm start --network); it must exec the command so the process group is still the origin's. */
  launcher?: string[];
  readyTimeoutMs?: number;
}

export interface OriginProcess {
  host: string;
  webTransportPort: number;
  httpPort: number;
  httpsPort: number;
  /** The plain HTTP/1.1 kernel-TCP baseline (the player's transport=tcp). */
  tcpPort: number;
  /** http://HOST:HTTP_PORT: the player page, /cert-hash and /status. */
  httpBase: string;
  /** SHA-256 of the origin's certificate, lowercase hex (what WebTransport serverCertificateHashes needs). */
  certHashHex: string;
  /** The exit code once the process has exited, else null. */
  exitCode(): number | null;
  /** The last part of everything the origin wrote to stdout and stderr (for failure messages). */
  output(): string;
  /** SIGTERM to the process group, SIGKILL after 5 s; resolves with the exit code (null when killed by a signal). */
  stop(): Promise<number | null>;
  /** Sends `signal` to the process group (a fault test's SIGKILL, a drain's SIGTERM) and resolves when the process has
   *  exited, with its exit code (null when a signal ended it). */
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

interface ReadyLine {
  event: 'ready';
  quic_port: number;
  http_port: number;
  https_port: number;
  tcp_port: number;
  cert_sha256: string;
}

function parseReadyLine(line: string): ReadyLine | null {
  if (!line.includes('"ready"')) return null;
  try {
    const value = JSON.parse(line) as Partial<ReadyLine>;
    if (value.event !== 'ready' || typeof value.quic_port !== 'number' || typeof value.http_port !== 'number'
      || typeof value.https_port !== 'number' || typeof value.tcp_port !== 'number' || typeof value.cert_sha256 !== 'string') return null;
    return value as ReadyLine;
  } catch {
    return null;
  }
}

export function originArgs(options: OriginProcessOptions): string[] {
  return [
    '--media', options.mediaDir, '--host', options.host ?? '127.0.0.1',
    '--port', String(options.webTransportPort ?? 0), '--http-port', String(options.httpPort ?? 0), '--https-port', String(options.httpsPort ?? 0),
    '--tcp-port', String(options.tcpPort ?? 0),
    ...(options.staticDir ? ['--static', options.staticDir] : []),
    ...(options.logDir ? ['--log-dir', options.logDir] : []),
    ...(options.recordDir ? ['--record-dir', options.recordDir] : []),
    ...(options.cc ? ['--cc', options.cc] : []),
    ...(options.extraArgs ?? []),
  ];
}

/** Starts the origin and resolves once it is serving; rejects with its output if it exits or stays silent. */
export async function startOriginProcess(options: OriginProcessOptions): Promise<OriginProcess> {
  const host = options.host ?? '127.0.0.1';
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  // Its own process group, so stop() reaches anything the origin spawns too.
  const command = [...(options.launcher ?? []), process.execPath, '--import', 'tsx', originMainPath, ...originArgs(options)];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: serverDir, stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: options.env ?? process.env,
  });
  let output = '';
  let stdoutLine = '';
  let ready: ReadyLine | null = null;
  let onReady = (): void => {};
  child.stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    if (output.length > outputKeepChars) output = output.slice(-outputKeepChars / 2);
    if (ready) return;
    stdoutLine += text;
    const lines = stdoutLine.split('\n');
    stdoutLine = lines.pop() ?? '';
    for (const line of lines) {
      ready = parseReadyLine(line);
      if (ready) {
        onReady();
        return;
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > outputKeepChars) output = output.slice(-outputKeepChars / 2);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const killGroup = (signal: NodeJS.Signals): boolean => {
    try {
      process.kill(-(child.pid as number), signal);
      return true;
    } catch {
      return false; // already gone
    }
  };
  const stop = async (): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    if (child.pid === undefined) return null; // never started
    if (!killGroup('SIGTERM')) return exited;
    const timer = setTimeout(() => killGroup('SIGKILL'), stopGraceMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };

  const outcome = await new Promise<'ready' | 'exited' | 'timeout' | 'spawn-error'>((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), readyTimeoutMs);
    onReady = () => { clearTimeout(timer); resolve('ready'); };
    void exited.then(() => { clearTimeout(timer); resolve('exited'); });
    child.once('error', () => { clearTimeout(timer); resolve('spawn-error'); });
    if (ready) onReady();
  });
  const readyLine = ready as ReadyLine | null;
  if (outcome !== 'ready' || !readyLine) {
    const code = await stop();
    const why = outcome === 'timeout' ? `did not report ready within ${readyTimeoutMs / 1000} s` : `exited with code ${code} before it was ready`;
    throw new Error(`the origin ${why}:\n${output.slice(-4000)}`);
  }
  return {
    host,
    webTransportPort: readyLine.quic_port,
    httpPort: readyLine.http_port,
    httpsPort: readyLine.https_port,
    tcpPort: readyLine.tcp_port,
    httpBase: `http://${host}:${readyLine.http_port}`,
    certHashHex: readyLine.cert_sha256,
    exitCode: () => child.exitCode,
    output: () => output,
    stop,
    kill: async (signal) => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      killGroup(signal);
      return exited;
    },
  };
}
