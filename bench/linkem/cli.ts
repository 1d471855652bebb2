// linkem command line: runs a command inside an emulated link, as mahimahi's mm-link/mm-delay.
//   npm run -s linkem -- --down TRACE --up TRACE --delay-ms 20 -- COMMAND ARGS...
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { reclaimLinkem } from './src/driver/reclaim.ts';
import { LinkemStartError, startLinkem } from './src/driver/shell.ts';
import { parseCommandLine, USAGE, UsageError } from './src/driver/options.ts';
import { PreflightError } from './src/driver/preflight.ts';
import { TraceError } from './src/driver/trace.ts';
import { userCwd, userPath } from '@pcc-stream/protocol/node/user-path';

function log(level: string, msg: string, extra: Record<string, unknown> = {}): void {
  process.stderr.write(`${JSON.stringify({ level, component: 'linkem', msg, ...extra })}\n`);
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      log('error', e.message);
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
    throw e;
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (parsed.reclaim) {
    try {
      const instances = await reclaimLinkem();
      log('info', 'reclaimed dead instances', { instances });
      return 0;
    } catch (e) {
      log('error', (e as Error).message);
      return e instanceof PreflightError ? 3 : 1;
    }
  }
  const command = parsed.command.length > 0 ? parsed.command : [process.env.SHELL ?? '/bin/sh'];
  const [program, ...args] = command as [string, ...string[]];

  let shell;
  try {
    // Paths on the command line are relative to where the user ran it (npm runs this in bench/).
    const own = (path: string | undefined): string | undefined => (path === undefined ? undefined : userPath(path));
    const o = parsed.options;
    const outputs = { logDown: own(o.logDown), logUp: own(o.logUp), summaryJson: own(o.summaryJson) };
    for (const path of Object.values(outputs)) if (path !== undefined) mkdirSync(dirname(path), { recursive: true });
    shell = await startLinkem({
      ...o,
      ...outputs,
      downTrace: own(o.downTrace), upTrace: own(o.upTrace), delaySchedule: own(o.delaySchedule),
      commandLine: process.argv.slice(2).join(' '),
    });
  } catch (e) {
    if (e instanceof PreflightError || e instanceof TraceError || e instanceof UsageError || e instanceof LinkemStartError) {
      log('error', e.message);
      return e instanceof PreflightError ? 3 : 2;
    }
    throw e;
  }
  log('info', 'emulated link up', { namespace: shell.namespace, MAHIMAHI_BASE: shell.baseAddress, forwarderPid: shell.forwarderPid, command });

  const child = shell.spawn(program, args, { stdio: 'inherit', cwd: userCwd() });
  let killTimer: NodeJS.Timeout | undefined;
  const escalate = (): void => {
    killTimer ??= setTimeout(() => {
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), 2000);
    }, 3000);
  };
  const forward = (signal: NodeJS.Signals): void => {
    log('info', `received ${signal}: passing it to the command`);
    if (signal === 'SIGINT') {
      child.kill('SIGINT');
      // An interactive shell inside handles Ctrl-C itself and must survive it; anything
      // else that ignores SIGINT is terminated.
      if (!process.stdin.isTTY) escalate();
    } else {
      child.kill('SIGTERM');
      killTimer ??= setTimeout(() => child.kill('SIGKILL'), 3000);
    }
  };
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, forward);

  const exitCode = await new Promise<number>((resolve) => {
    child.on('error', (e) => {
      log('error', `cannot run ${program}: ${e.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 + (signalNumber(signal) ?? 0) : 1)));
  });
  clearTimeout(killTimer);
  try {
    const summary = await shell.stop();
    log('info', 'emulated link removed', {
      up: { departedPackets: summary.up.departedPackets, departedBytes: summary.up.departedBytes, drops: summary.up.queueDropPackets + summary.up.lossDropPackets },
      down: { departedPackets: summary.down.departedPackets, departedBytes: summary.down.departedBytes, drops: summary.down.queueDropPackets + summary.down.lossDropPackets },
    });
  } catch (e) {
    log('error', (e as Error).message);
    return exitCode === 0 ? 1 : exitCode;
  }
  return exitCode;
}

function signalNumber(signal: NodeJS.Signals): number | undefined {
  const table: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15, SIGPIPE: 13 };
  return table[signal];
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    log('error', e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
