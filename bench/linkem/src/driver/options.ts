// linkem's options, and the command-line parser that produces them.
// Contract: linkem --down TRACE --up TRACE [--down-mbps R --up-mbps R]
//   [--delay-ms D | --delay-schedule FILE | --rtt-pattern MIN:MAX:PERIOD_S:SEED]
//   [--loss-down p] [--loss-up p] [--seed N] [--queue-down KIND --queue-down-args ARGS] [--queue-up ...]
//   [--log-down FILE] [--log-up FILE] [--summary-json FILE] -- COMMAND ARGS...
export type QueueKind = 'infinite' | 'droptail' | 'drophead' | 'codel';

export interface LinkemOptions {
  /** Trace for the link toward the command (mahimahi's downlink). Omit both trace and rate: unlimited. */
  downTrace?: string;
  upTrace?: string;
  downMbps?: number;
  upMbps?: number;
  /** One-way delay each way, as mm-delay. */
  delayMs?: number;
  /** File of "time_ms one_way_delay_ms" lines (first at 0). */
  delaySchedule?: string;
  /** "MIN_RTT_MS:MAX_RTT_MS:PERIOD_S:SEED": RTT uniform in [min, max], redrawn every period. */
  rttPattern?: string;
  lossDown?: number;
  lossUp?: number;
  /** Seed of the loss generators (default 1). */
  seed?: number;
  queueDown?: QueueKind;
  queueDownArgs?: string;
  queueUp?: QueueKind;
  queueUpArgs?: string;
  logDown?: string;
  logUp?: string;
  /** Per packet the forwarder writes, "READ_US DEPARTURE_US WRITE_US" (CLOCK_MONOTONIC us): the forwarder's own
   *  lateness per packet, for the fidelity tests (readTimingLog). Not a command-line flag. */
  timingLogDown?: string;
  timingLogUp?: string;
  summaryJson?: string;
  /** Written into log headers. */
  commandLine?: string;
  /** Lock directory (default /run/pcc-linkem). */
  stateDir?: string;
}

export class UsageError extends Error {}

export const USAGE = `usage: npm run -s linkem -- [--down TRACE | --down-mbps R] [--up TRACE | --up-mbps R]
         [--delay-ms D | --delay-schedule FILE | --rtt-pattern MIN_MS:MAX_MS:PERIOD_S:SEED]
         [--loss-down P] [--loss-up P] [--seed N]
         [--queue-down infinite|droptail|drophead|codel --queue-down-args packets=N,bytes=N] [--queue-up ... --queue-up-args ...]
         [--log-down FILE] [--log-up FILE] [--summary-json FILE] [-- COMMAND ARGS...]
       npm run -s linkem -- --reclaim     remove what killed instances left behind
Runs COMMAND (default: $SHELL) in a new network namespace whose only route is an emulated
link to the host; MAHIMAHI_BASE holds the host's address. A direction with neither a trace
nor a rate is unlimited. Needs root (CAP_NET_ADMIN) and /dev/net/tun.`;

const QUEUES: readonly QueueKind[] = ['infinite', 'droptail', 'drophead', 'codel'];

function number(flag: string, text: string, lo: number, hi: number, integer = false): number {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v) || v < lo || v > hi || (integer && !Number.isInteger(v))) {
    throw new UsageError(`${flag} needs ${integer ? 'an integer' : 'a number'} in [${lo}, ${hi}], got ${JSON.stringify(text)}`);
  }
  return v;
}

function queueArgs(flag: string, text: string): string {
  for (const part of text.split(',')) {
    if (!/^(packets|bytes|target|interval)=[0-9]+$/.test(part)) {
      throw new UsageError(`${flag}: expected comma-separated packets=N, bytes=N (codel: target=MS, interval=MS), got ${JSON.stringify(part)}`);
    }
  }
  return text;
}

/** Checks option combinations; throws UsageError. */
export function validateOptions(o: LinkemOptions): void {
  if (o.downTrace !== undefined && o.downMbps !== undefined) throw new UsageError('give --down or --down-mbps, not both');
  if (o.upTrace !== undefined && o.upMbps !== undefined) throw new UsageError('give --up or --up-mbps, not both');
  const delays = [o.delayMs, o.delaySchedule, o.rttPattern].filter((v) => v !== undefined).length;
  if (delays > 1) throw new UsageError('--delay-ms, --delay-schedule and --rtt-pattern exclude each other');
  if (o.rttPattern !== undefined) {
    const m = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?):(\d+(?:\.\d+)?):(\d+)$/.exec(o.rttPattern);
    if (!m || Number(m[1]) > Number(m[2]) || Number(m[3]) <= 0) {
      throw new UsageError(`--rtt-pattern needs MIN_RTT_MS:MAX_RTT_MS:PERIOD_S:SEED with min <= max and period > 0, got ${JSON.stringify(o.rttPattern)}`);
    }
  }
  for (const [dir, kind, args] of [
    ['down', o.queueDown, o.queueDownArgs],
    ['up', o.queueUp, o.queueUpArgs],
  ] as const) {
    if (kind !== undefined && !QUEUES.includes(kind)) throw new UsageError(`--queue-${dir} must be one of ${QUEUES.join(', ')}`);
    const effective = kind ?? 'infinite';
    if (args !== undefined && effective === 'infinite') throw new UsageError(`--queue-${dir}-args given but the ${dir} queue is infinite`);
    if ((effective === 'droptail' || effective === 'drophead') && !/(packets|bytes)=/.test(args ?? '')) {
      throw new UsageError(`--queue-${dir} ${effective} needs --queue-${dir}-args packets=N and/or bytes=N`);
    }
  }
}

export interface ParsedCommandLine {
  options: LinkemOptions;
  command: string[];
  help: boolean;
  /** --reclaim: only remove what killed instances left behind. */
  reclaim: boolean;
}

export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  const o: LinkemOptions = {};
  const split = argv.indexOf('--');
  const flags = split >= 0 ? argv.slice(0, split) : argv;
  const command = split >= 0 ? argv.slice(split + 1) : [];
  let help = false;
  let reclaim = false;
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i] ?? '';
    if (flag === '--help' || flag === '-h') {
      help = true;
      continue;
    }
    if (flag === '--reclaim') {
      reclaim = true;
      continue;
    }
    const value = flags[i + 1];
    if (!flag.startsWith('--')) throw new UsageError(`unexpected argument ${JSON.stringify(flag)} (put the command after --)`);
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    i++;
    switch (flag) {
      case '--down': o.downTrace = value; break;
      case '--up': o.upTrace = value; break;
      case '--down-mbps': o.downMbps = number(flag, value, 0.001, 100000); break;
      case '--up-mbps': o.upMbps = number(flag, value, 0.001, 100000); break;
      case '--delay-ms': o.delayMs = number(flag, value, 0, 60000); break;
      case '--delay-schedule': o.delaySchedule = value; break;
      case '--rtt-pattern': o.rttPattern = value; break;
      case '--loss-down': o.lossDown = number(flag, value, 0, 1); break;
      case '--loss-up': o.lossUp = number(flag, value, 0, 1); break;
      case '--seed': o.seed = number(flag, value, 0, Number.MAX_SAFE_INTEGER, true); break;
      case '--queue-down': o.queueDown = value as QueueKind; break;
      case '--queue-up': o.queueUp = value as QueueKind; break;
      case '--queue-down-args': o.queueDownArgs = queueArgs(flag, value); break;
      case '--queue-up-args': o.queueUpArgs = queueArgs(flag, value); break;
      case '--log-down': o.logDown = value; break;
      case '--log-up': o.logUp = value; break;
      case '--summary-json': o.summaryJson = value; break;
      default: throw new UsageError(`unknown flag ${flag}`);
    }
  }
  if (!help) validateOptions(o);
  return { options: o, command, help, reclaim };
}

/** The forwarder's flags for these options. */
export function forwarderArgs(o: LinkemOptions): string[] {
  const args: string[] = ['--watch-stdin'];
  const add = (flag: string, v: string | number | undefined): void => {
    if (v !== undefined) args.push(flag, String(v));
  };
  add('--down-trace', o.downTrace);
  add('--up-trace', o.upTrace);
  add('--down-mbps', o.downMbps);
  add('--up-mbps', o.upMbps);
  add('--delay-ms', o.delayMs);
  add('--delay-schedule', o.delaySchedule);
  add('--rtt-pattern', o.rttPattern);
  add('--loss-down', o.lossDown);
  add('--loss-up', o.lossUp);
  add('--seed', o.seed);
  add('--queue-down', o.queueDown);
  add('--queue-down-args', o.queueDownArgs);
  add('--queue-up', o.queueUp);
  add('--queue-up-args', o.queueUpArgs);
  add('--log-down', o.logDown);
  add('--log-up', o.logUp);
  add('--timing-log-down', o.timingLogDown);
  add('--timing-log-up', o.timingLogUp);
  add('--summary-json', o.summaryJson);
  add('--command-line', o.commandLine);
  add('--state-dir', o.stateDir);
  return args;
}
