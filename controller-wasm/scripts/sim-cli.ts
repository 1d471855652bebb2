// npm run -s sim -- ARGS: the simulator binary (build/sim/pcc-sim) with paths meaning what the user typed. It
// runs in the directory the user ran the command in, so --csv FILE lands there, and --trace may name a
// gzip-compressed trace (bench/traces/NAME, stored as NAME.gz), decompressed once into the cache.
import { spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import { join } from 'node:path';
import { traceFile, TraceFileError } from '@pcc-stream/protocol/node/trace-file';
import { userCwd, userPath } from '@pcc-stream/protocol/node/user-path';
import { controllerDir } from './paper/run-sim.ts';

const SIM_BINARY = join(controllerDir, 'build', 'sim', 'pcc-sim');

function withTraces(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--trace' && argv[i + 1] !== undefined) out.push(arg, traceFile(userPath(argv[++i] as string)));
    else if (arg.startsWith('--trace=')) out.push(`--trace=${traceFile(userPath(arg.slice('--trace='.length)))}`);
    else out.push(arg);
  }
  return out;
}

let args: string[];
try {
  args = withTraces(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof TraceFileError)) throw error;
  process.stderr.write(`pcc-sim: ${error.message}\n`);
  process.exit(2);
}
const run = spawnSync(SIM_BINARY, args, { cwd: userCwd(), stdio: 'inherit' });
if (run.error) {
  process.stderr.write(`pcc-sim: cannot run ${SIM_BINARY} (${run.error.message}); build it with npm run -s build:sim -w controller-wasm\n`);
  process.exit(127);
}
process.exit(run.status ?? 128 + (run.signal ? constants.signals[run.signal] : 0));
