// npm run -s bench -- --suite NAME | --scenario FILE [--schemes a,b] [--repetitions N] --out DIR
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeReport } from './report.ts';
import { plan, runPlan } from './runner.ts';
import { repoRoot } from './repo-root.ts';
import { ALL_SCHEMES, loadScenarioFile, parseControllerParams, ScenarioError, type ControllerParams, type Scenario, type Scheme } from './scenario.ts';
import { SUITES, suiteScenarios } from './suites.ts';

const USAGE = `usage: npm run -s bench -- (--suite NAME | --scenario FILE) --out DIR [options]
  --suite NAME          built-in suite: ${Object.keys(SUITES).join(', ')}
  --scenario FILE       a scenario JSON file (see bench/README.md); may be repeated
  --out DIR             results directory; an interrupted run resumes where it stopped
  --schemes a,b         only these schemes (${ALL_SCHEMES.join(', ')})
  --repetitions N       override each scenario's repetitions
  --duration-s S        override each scenario's duration
  --cc-param S.NAME=V   controller parameter for datagram scheme S (repeatable), e.g. vivace.epsilon_min=0.02;
                        added to every scenario's controller_params
  --emulator linkem     the link emulator (linkem; real mahimahi is not supported by this runner yet)
  --media DIR           DASH media (default .cache/media, made by npm run media)
  --report-only         rewrite summary and plots from DIR/results.jsonl without running
Outputs in DIR: results.jsonl, summary.csv, summary.md, plots/*.svg|png, report.html, runs/…`;

class UsageError extends Error {}

function parse(): { scenarios: Scenario[]; outDir: string; mediaDir: string; reportOnly: boolean } {
  const { values } = parseArgs({
    options: {
      suite: { type: 'string' }, scenario: { type: 'string', multiple: true }, out: { type: 'string' }, schemes: { type: 'string' },
      repetitions: { type: 'string' }, 'duration-s': { type: 'string' }, emulator: { type: 'string' }, media: { type: 'string' },
      'report-only': { type: 'boolean' }, help: { type: 'boolean' }, 'cc-param': { type: 'string', multiple: true },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (!values.out) throw new UsageError('--out DIR is required');
  const outDir = resolve(values.out);
  const reportOnly = values['report-only'] === true;
  if (reportOnly) return { scenarios: [], outDir, mediaDir: '', reportOnly };
  if (values.emulator && values.emulator !== 'linkem') {
    throw new UsageError(`--emulator ${values.emulator}: only "linkem" is supported by this runner (mahimahi's nested shells are not driven yet)`);
  }
  if (!values.suite && !values.scenario) throw new UsageError('give --suite NAME or --scenario FILE');
  let scenarios: Scenario[] = [];
  if (values.suite) scenarios.push(...suiteScenarios(values.suite));
  for (const file of values.scenario ?? []) scenarios.push(loadScenarioFile(file));
  if (values.schemes) {
    const wanted = values.schemes.split(',').map((s) => s.trim()).filter(Boolean);
    for (const s of wanted) if (!(ALL_SCHEMES as readonly string[]).includes(s)) throw new UsageError(`--schemes: unknown scheme "${s}"`);
    scenarios = scenarios.map((sc) => ({ ...sc, schemes: sc.schemes.filter((s) => wanted.includes(s)).length > 0 ? sc.schemes.filter((s) => wanted.includes(s)) : (wanted as Scheme[]) }));
  }
  const overrides: Record<string, Record<string, number>> = {};
  for (const raw of values['cc-param'] ?? []) {
    const m = /^([a-z-]+)\.([^=]+)=(.+)$/.exec(raw); // the name is checked with the scenario's own rule below
    if (!m || m[3]!.trim() === '' || !Number.isFinite(Number(m[3]))) throw new UsageError(`--cc-param ${raw}: expected SCHEME.NAME=NUMBER, e.g. vivace.epsilon_min=0.02`);
    (overrides[m[1]!] ??= {})[m[2]!] = Number(m[3]);
  }
  if (Object.keys(overrides).length > 0) {
    let parsed: ControllerParams;
    try {
      parsed = parseControllerParams(overrides, '--cc-param');
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    scenarios = scenarios.map((sc) => {
      const merged: ControllerParams = { ...sc.controllerParams };
      for (const [scheme, params] of Object.entries(parsed)) {
        merged[scheme as keyof ControllerParams] = { ...(merged[scheme as keyof ControllerParams] ?? {}), ...params };
      }
      return { ...sc, controllerParams: merged };
    });
  }
  const positiveInt = (raw: string | undefined, flag: string): number | undefined => {
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number`);
    return n;
  };
  const repetitions = positiveInt(values.repetitions, '--repetitions');
  const durationS = positiveInt(values['duration-s'], '--duration-s');
  scenarios = scenarios.map((sc) => ({ ...sc, ...(repetitions ? { repetitions: Math.floor(repetitions) } : {}), ...(durationS ? { durationS } : {}) }));
  const mediaDir = resolve(values.media ?? join(repoRoot, '.cache', 'media'));
  return { scenarios, outDir, mediaDir, reportOnly };
}

async function main(): Promise<number> {
  const { scenarios, outDir, mediaDir, reportOnly } = parse();
  if (!reportOnly) {
    if (typeof process.getuid === 'function' && process.getuid() !== 0) throw new UsageError('the benchmark creates network namespaces: run it as root');
    const playerDir = join(repoRoot, 'player', 'dist');
    if (!existsSync(join(playerDir, 'index.html'))) throw new UsageError(`the player is not built (${playerDir}): run npm run build`);
    let stopping = false;
    const onSignal = (signal: string) => {
      if (stopping) process.exit(130);
      stopping = true;
      console.error(JSON.stringify({ component: 'bench', event: 'stopping', signal, note: 'finishing cleanup of the current run; run again with the same --out to resume' }));
    };
    process.on('SIGINT', () => onSignal('SIGINT'));
    process.on('SIGTERM', () => onSignal('SIGTERM'));
    await runPlan(plan(scenarios), { outDir, mediaDir, playerDir, shouldStop: () => stopping });
  }
  const report = writeReport(outDir);
  console.log(`wrote ${join(outDir, 'summary.md')}, ${join(outDir, 'report.html')} and ${report.plots.length} plots`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ScenarioError) {
      console.error(`bench: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(JSON.stringify({ component: 'bench', event: 'failed', error: error instanceof Error ? error.stack ?? error.message : String(error) }));
    process.exit(1);
  },
);
