// npm run -s sim:paper:reference -w controller-wasm
// Rewrites the stored copy of `sim:paper`'s default output (test/sim-paper.reference.txt) and the simulator runs
// the test suite replays to check it cheaply (test/sim-paper.subset.json, checked by
// ts/test/sim-paper-reference.test.ts). Run it only in a commit that changes a controller's behaviour on purpose,
// and say in that commit why the figures moved. Takes as long as sim:paper (~4 min).
//
// How the subset is chosen: sim:paper runs once through a recording wrapper of pcc-sim, so the subset comes from
// the figures' own argument lists (no second copy of them here). Every distinct scenario (all arguments except
// --seed and --duration-s: one table cell's controller, link and variant) is kept once, with seed 1 and at most
// SUBSET_DURATION_S simulated seconds, so every default row of every figure is covered.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { runPool } from './pool.ts';
import { assertSimBuilt, controllerDir, simBinary } from './run-sim.ts';
import { logEvent as log } from './log.ts';

export const SUBSET_DURATION_S = 20;
export const REFERENCE_TEXT = join(controllerDir, 'test', 'sim-paper.reference.txt');
export const REFERENCE_SUBSET = join(controllerDir, 'test', 'sim-paper.subset.json');
const repoRoot = join(controllerDir, '..');
/** Traces are stored in the repository under this folder; the subset names them relative to the repository root. */
const TRACE_DIR = 'bench/traces';

export interface SubsetRun {
  args: string[];
  /** pcc-sim's --json output, byte for byte */
  output: string;
}

/** One run per line, so a diff names the scenarios that moved. */
export function formatSubset(runs: SubsetRun[]): string {
  return `{"subsetDurationS": ${SUBSET_DURATION_S}, "runs": [\n${runs.map((run) => JSON.stringify(run)).join(',\n')}\n]}\n`;
}

/** sim:paper's stdout without the line that names the output folder (it depends on the checkout's path). */
export function stripVariable(text: string): string {
  return text
    .split('\n')
    .filter((line) => !line.startsWith('results: '))
    .join('\n');
}

/** The subset's version of one recorded run: seed 1, at most SUBSET_DURATION_S (longer only for every flow to
 * start and run SUBSET_DURATION_S / 2), traces relative to the repository. */
export function subsetArgs(recorded: string[]): string[] {
  const valueOf = (name: string): number => Number(recorded[recorded.indexOf(name) + 1] ?? 0);
  const lastStartS = recorded.includes('--start-gap-s') ? (valueOf('--flows') - 1) * valueOf('--start-gap-s') : 0;
  const durationS = Math.max(SUBSET_DURATION_S, lastStartS + SUBSET_DURATION_S / 2);
  const args: string[] = [];
  for (let i = 0; i < recorded.length; i++) {
    const arg = recorded[i] as string;
    const value = recorded[i + 1];
    if (arg === '--json') continue;
    if (arg === '--csv') { i++; continue; }
    if (value === undefined) { args.push(arg); continue; }
    if (arg === '--seed') args.push(arg, '1');
    else if (arg === '--duration-s') args.push(arg, String(Math.min(Number(value), durationS)));
    else if (arg === '--trace') {
      const inRepo = join(TRACE_DIR, basename(value));
      if (!existsSync(join(repoRoot, inRepo))) throw new Error(`trace ${value} has no copy in ${TRACE_DIR}`);
      args.push(arg, inRepo);
    } else args.push(arg, value);
    i++;
  }
  return args;
}

/** Runs pcc-sim (the given binary) from the repository root and returns its --json output. */
export function runSubsetArgs(binary: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [...args, '--json'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout.trim()) : reject(new Error(`pcc-sim ${args.join(' ')} exited ${code}: ${stderr.trim()}`))));
  });
}

async function main(): Promise<void> {
  assertSimBuilt();
  const scratch = mkdtempSync(join(tmpdir(), 'pcc-paper-reference-'));
  try {
    const recordPath = join(scratch, 'runs.tsv');
    const wrapper = join(scratch, 'pcc-sim');
    writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\t' "$@" >> '${recordPath}'\nprintf '\\n' >> '${recordPath}'\nexec '${simBinary}' "$@"\n`);
    chmodSync(wrapper, 0o755);
    log({ event: 'sim_paper_start', note: 'the default run, about 4 minutes' });
    const paper = spawnSync(process.execPath, ['--import', 'tsx', join(controllerDir, 'scripts', 'sim-paper.ts'), '--out', join(scratch, 'paper')], {
      cwd: controllerDir, env: { ...process.env, PCC_SIM_BIN: wrapper }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (paper.status !== 0) throw new Error(`sim-paper exited ${paper.status}`);
    writeFileSync(REFERENCE_TEXT, stripVariable(paper.stdout));
    const recorded = readFileSync(recordPath, 'utf8').trim().split('\n').map((line) => line.split('\t').filter((a) => a !== ''));
    // sim-paper first runs each controller for 0.01 s to see which are built: not part of any figure.
    const figureRuns = recorded.filter((args) => args[args.indexOf('--duration-s') + 1] !== '0.01');
    const seen = new Set<string>();
    const subset: string[][] = [];
    for (const args of figureRuns) {
      const s = subsetArgs(args);
      const key = s.join(' ');
      if (!seen.has(key)) { seen.add(key); subset.push(s); }
    }
    log({ event: 'subset_start', runs: subset.length, of: figureRuns.length });
    const outputs = await runPool(subset.map((args) => () => runSubsetArgs(simBinary, args)), 2);
    const runs: SubsetRun[] = subset.map((args, i) => ({ args, output: outputs[i] as string }));
    writeFileSync(REFERENCE_SUBSET, formatSubset(runs));
    log({ event: 'done', reference: REFERENCE_TEXT, subset: REFERENCE_SUBSET, runs: runs.length });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`sim-paper-reference: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  });
}
