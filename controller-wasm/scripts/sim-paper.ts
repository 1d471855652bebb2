// npm run -s sim:paper [-- --quick | --long] [--only ID,ID] [--jobs N] [--out DIR]
// Re-runs the seed papers' experiments in the native simulator and prints each figure as a table, the paper's
// number beside ours; writes JSON, CSV and SVG per figure into build/paper/ (or --out). Logs go to stderr.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { WASM_CONTROLLERS } from '@pcc-stream/protocol';
import { userPath } from '@pcc-stream/protocol/node/user-path';
import { traceFile } from '@pcc-stream/protocol/node/trace-file';
import { figures, type FigureContext } from './paper/figures.ts';
import { assertSimBuilt, controllerDir, runSim, simControllers } from './paper/run-sim.ts';
import { renderChart } from './paper/svg-chart.ts';
import { renderTable, toCsv } from './paper/table.ts';
import { logEvent as log } from './paper/log.ts';

const usage = 'usage: sim-paper [--quick | --long] [--only ID[,ID]] [--jobs N] [--out DIR]\nfigures: ' + figures.map((f) => f.id).join(', ');

function parseOptions(argv: string[]): { quick: boolean; long: boolean; only: string[]; jobs: number; out: string } {
  const { values } = parseArgs({
    args: argv, strict: true,
    options: {
      quick: { type: 'boolean' }, long: { type: 'boolean' }, only: { type: 'string' }, jobs: { type: 'string' }, out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(usage + '\n');
    process.exit(0);
  }
  const quick = values.quick === true;
  const long = values.long === true;
  if (quick && long) throw new Error('--quick and --long exclude each other');
  const jobs = values.jobs === undefined ? 2 : Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 64) throw new Error('--jobs must be an integer in [1, 64]');
  const only = values.only?.split(',') ?? [];
  const unknown = only.filter((id) => !figures.some((f) => f.id === id));
  if (unknown.length) throw new Error(`unknown figure(s) ${unknown.join(', ')}`);
  return { quick, long, only, jobs, out: values.out === undefined ? join(controllerDir, 'build', 'paper') : userPath(values.out) };
}

async function main(): Promise<void> {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`sim-paper: ${(error as Error).message}\n${usage}\n`);
    process.exit(2);
  }
  assertSimBuilt();
  mkdirSync(options.out, { recursive: true });
  const ctx: FigureContext = { quick: options.quick, long: options.long, jobs: options.jobs, available: new Set(await simControllers(WASM_CONTROLLERS, (cc) => log({ event: 'controller_unavailable', cc }))), log,
    runSim, tracePath: (name) => traceFile(join(controllerDir, '..', 'bench', 'traces', name)),
  };
  const selected = options.only.length ? figures.filter((f) => options.only.includes(f.id)) : figures;
  const started = Date.now();
  const summary: string[] = [`# pcc-sim: the seed papers' figures (${options.quick ? 'quick' : options.long ? 'long' : 'default'} run)\n`];
  for (const figure of selected) {
    log({ event: 'figure_start', figure: figure.id });
    const figureStarted = Date.now();
    const out = await figure.run(ctx);
    process.stdout.write(`\n== ${out.title}\n${out.setup}\n\n${renderTable(out.headers, out.rows, out.digits)}\n`);
    for (const note of out.notes) process.stdout.write(`${note}\n`);
    for (const line of out.verdicts) process.stdout.write(`ours: ${line}\n`);
    summary.push(`## ${out.title}\n\n${out.setup}\n\n${out.verdicts.map((v) => `- ${v}`).join('\n')}\n`);
    writeFileSync(join(options.out, `${out.id}.json`), JSON.stringify({ id: out.id, title: out.title, setup: out.setup, headers: out.headers, rows: out.rows, notes: out.notes, verdicts: out.verdicts, raw: out.raw }, null, 1) + '\n');
    writeFileSync(join(options.out, `${out.id}.csv`), toCsv(out.headers, out.rows));
    for (const chart of out.charts) writeFileSync(join(options.out, `${out.id}-${chart.name}.svg`), renderChart(chart.spec));
    log({ event: 'figure_done', figure: figure.id, seconds: (Date.now() - figureStarted) / 1000 });
  }
  writeFileSync(join(options.out, 'summary.md'), summary.join('\n'));
  process.stdout.write(`\nresults: ${options.out}\n`);
  log({ event: 'done', seconds: (Date.now() - started) / 1000 });
}

main().catch((error: unknown) => {
  process.stderr.write(`sim-paper: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
