// npm run -s bench -- --suite NAME | --scenario FILE [--schemes a,b] [--repetitions N] [--shard i/N] [--run ID] [--list] --out DIR
// npm run -s bench -- merge DIR... --out DIR
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MergeError, mergeDirs } from './merge.ts';
import { writeReport } from './report.ts';
import { plan, runPlan } from './runner.ts';
import { runId } from './results.ts';
import { parseShard, shardPlan, ShardSpecError, type ShardSpec } from './shard.ts';
import { repoRoot } from './repo-root.ts';
import { userPath } from '@pcc-stream/protocol/node/user-path';
import { parseScheme } from '@pcc-stream/protocol';
import { parseAidedScheme } from './aids.ts';
import { PLAYER_OPTION_PARAMS } from '@pcc-stream/player/session-params';
import { ALL_SCHEMES, loadScenarioFile, parseControllerParams, ScenarioError, type ControllerParams, type Scenario, type Scheme } from './scenario.ts';
import { SUITES, suiteScenarios } from './suites.ts';
import { EXTERNAL_SCHEME_NAMES, isExternalScheme, recordSkippedSchemes, selectExternalSchemes } from './external-schemes.ts';
import { resolveUspaceBinaries, UspaceError, type UspaceBinaries } from './run-uspace.ts';

const USAGE = `usage: npm run -s bench -- (--suite NAME | --scenario FILE) --out DIR [options]
  --suite NAME          built-in suite: ${Object.keys(SUITES).join(', ')}; or soak (--minutes N, see --suite soak --help)
  --scenario FILE       a scenario JSON file (see bench/harness/README.md); may be repeated
  --out DIR             results directory; an interrupted run resumes where it stopped
  --schemes a,b         only these schemes (${ALL_SCHEMES.join(', ')}; external: ${EXTERNAL_SCHEME_NAMES.join(', ')}); a
                        scenario runs those of them it lists and those no scenario lists (aided: vivace+prefetch)
  --uspace DIR          your PCC-Uspace build (its checkout, src/ or src/app with pccserver and pccclient): adds the
                        scheme pcc-uspace, the PCC authors' Vivace, to bulk scenarios (the bulk suite runs it)
  --repetitions N       override each scenario's repetitions
  --duration-s S        override each scenario's duration
  --cc-param S.NAME=V   controller parameter for datagram scheme S (repeatable), e.g. vivace.epsilon_min=0.02;
                        added to every scenario's controller_params
  --player-param NAME=V player page option for every scheme (repeatable; recorded as player_params), one of
                        ${Object.entries(PLAYER_OPTION_PARAMS).map(([name, values]) => `${name}=${values.join('|')}`).join(', ')}
                        (player/README.md), e.g. abrThroughput=dashjs for dash.js's own ABR throughput defaults
  --emulator linkem     the link emulator (linkem; real mahimahi is not supported by this runner yet)
  --media DIR           media root (default .cache/media): each scenario's set is generated or linked there before the first run
  --report-only         rewrite summary and plots from DIR/results.jsonl without running
  --shard i/N           run only shard i of N (1-based): whole (scenario, repetition) groups, disjoint, deterministic
  --run ID              run only this run id, as --list prints it (repeatable), e.g. --run lte-tmobile-lte-short/vivace/1
  --record              record each datagram session's controller inputs and decisions under runs/…/record/
                        (replay and analyse them: npm run -s replay -w controller-wasm -- FILE --check | --summary)
  --fidelity            pair every run with the simulator and sample each process's CPU (on with --suite fidelity);
                        summary.md and report.html gain the real-vs-sim table and per-second overlays
  --origin-arg ARG      pass ARG to every run's origin (repeatable; recorded as origin_args in results.jsonl), e.g.
                        --origin-arg=--quic-ack-frequency=on
  --client-arg ARG      pass ARG to every bulk run's Node fetch client (repeatable; recorded as client_args), e.g.
                        --client-arg=--quic-cid-bytes=8
  --list                print the run ids this command would run (scenario/scheme/repetition), one a line; runs nothing
Outputs in DIR: results.jsonl, summary.csv, comparison.csv, summary.md, plots/*.svg|png, report.html, runs/…

usage: npm run -s bench -- merge DIR... --out DIR [--allow-mixed-commits]
  merges shard outputs into one result set and report in DIR (a new or empty directory)`;

class UsageError extends Error {}

interface Command { scenarios: Scenario[]; outDir: string; mediaDir: string; reportOnly: boolean; list: boolean; shard: ShardSpec | null; runIds?: string[]; uspace?: UspaceBinaries; skipped?: Record<string, string>; record?: boolean; fidelity?: boolean; originArgs?: string[]; clientArgs?: string[] }

function parse(): Command {
  const { values } = parseArgs({
    options: {
      suite: { type: 'string' }, scenario: { type: 'string', multiple: true }, out: { type: 'string' }, schemes: { type: 'string' },
      repetitions: { type: 'string' }, 'duration-s': { type: 'string' }, emulator: { type: 'string' }, media: { type: 'string' },
      'report-only': { type: 'boolean' }, help: { type: 'boolean' }, 'cc-param': { type: 'string', multiple: true },
      'player-param': { type: 'string', multiple: true },
      list: { type: 'boolean' }, shard: { type: 'string' }, run: { type: 'string', multiple: true }, uspace: { type: 'string' }, record: { type: 'boolean' }, fidelity: { type: 'boolean' },
      'origin-arg': { type: 'string', multiple: true }, 'client-arg': { type: 'string', multiple: true },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const list = values.list === true;
  let shard: ShardSpec | null = null;
  if (values.shard !== undefined) {
    try {
      shard = parseShard(values.shard);
    } catch (error) {
      throw new UsageError(error instanceof ShardSpecError ? error.message : String(error));
    }
  }
  if (!values.out && !list) throw new UsageError('--out DIR is required');
  const outDir = values.out ? userPath(values.out) : '';
  const reportOnly = values['report-only'] === true;
  if (reportOnly && (list || shard || values.run)) throw new UsageError('--report-only reads DIR/results.jsonl: it takes no --list, --shard or --run');
  if (reportOnly) return { scenarios: [], outDir, mediaDir: '', reportOnly, list, shard };
  if (values.emulator && values.emulator !== 'linkem') {
    throw new UsageError(`--emulator ${values.emulator}: only "linkem" is supported by this runner (mahimahi's nested shells are not driven yet)`);
  }
  if (!values.suite && !values.scenario) throw new UsageError('give --suite NAME or --scenario FILE');
  let scenarios: Scenario[] = [];
  if (values.suite) scenarios.push(...suiteScenarios(values.suite));
  const suiteScenarioNames = new Set(scenarios.map((sc) => sc.name));
  for (const file of values.scenario ?? []) scenarios.push(loadScenarioFile(userPath(file)));
  if (values.schemes) {
    const wanted = values.schemes.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
      if (isExternalScheme(s)) return s;
      if (s.includes('+')) {
        const aided = parseAidedScheme(s); // vivace+prefetch, tcp-cubic+prefetch (aids.ts)
        if (!aided.ok) throw new UsageError(`--schemes: ${aided.error.message}`);
        return aided.value;
      }
      const scheme = parseScheme(s); // aliases such as cubic@tcp become canonical names
      if (!scheme.ok) throw new UsageError(`--schemes: ${scheme.error.message}`);
      return scheme.value.name;
    });
    // A scenario keeps the named schemes it lists, plus every named scheme that no scenario lists (an aided
    // variant such as vivace+prefetch, or a scheme a suite leaves out): before, a name beside one the suite listed
    // was dropped without a word.
    const listed = new Set(scenarios.flatMap((sc) => sc.schemes));
    const extras = wanted.filter((s) => !listed.has(s)) as Scheme[];
    scenarios = scenarios.map((sc) => ({ ...sc, schemes: [...sc.schemes.filter((s) => wanted.includes(s)), ...extras] }));
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
  const playerParams: Record<string, string> = {};
  for (const raw of values['player-param'] ?? []) {
    const m = /^([A-Za-z][A-Za-z0-9]*)=(.*)$/.exec(raw);
    if (!m) throw new UsageError(`--player-param ${raw}: expected NAME=VALUE, e.g. abrThroughput=dashjs`);
    // Checked here, not on the page: the page ignores a name it does not know, and the run would record it as in effect.
    const name = m[1]!;
    const value = m[2]!;
    const values = Object.hasOwn(PLAYER_OPTION_PARAMS, name) ? PLAYER_OPTION_PARAMS[name] : undefined;
    if (values === undefined) {
      throw new UsageError(`--player-param ${raw}: ${name} is not a player option a benchmark sets (one of: ${Object.keys(PLAYER_OPTION_PARAMS).join(', ')}; the scheme, media and addresses come from the scenario)`);
    }
    if (!values.includes(value)) throw new UsageError(`--player-param ${raw}: ${name} must be one of ${values.join(', ')}`);
    playerParams[name] = value;
  }
  if (Object.keys(playerParams).length > 0) scenarios = scenarios.map((sc) => ({ ...sc, playerParams }));
  const positiveInt = (raw: string | undefined, flag: string): number | undefined => {
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number`);
    return n;
  };
  const repetitions = positiveInt(values.repetitions, '--repetitions');
  const durationS = positiveInt(values['duration-s'], '--duration-s');
  scenarios = scenarios.map((sc) => ({ ...sc, ...(repetitions ? { repetitions: Math.floor(repetitions) } : {}), ...(durationS ? { durationS } : {}) }));
  const mediaDir = values.media ? userPath(values.media) : join(repoRoot, '.cache', 'media');
  let uspace: UspaceBinaries | undefined;
  try {
    uspace = values.uspace === undefined ? undefined : resolveUspaceBinaries(userPath(values.uspace));
  } catch (error) {
    throw new UsageError(error instanceof UspaceError ? error.message : String(error));
  }
  const named = (values.schemes ?? '').split(',').map((s) => s.trim());
  let skipped: Record<string, string>;
  try {
    ({ scenarios, skipped } = selectExternalSchemes(scenarios, suiteScenarioNames, named, new Set(uspace ? ['--uspace'] : [])));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  return { scenarios, outDir, mediaDir, reportOnly, list, shard, ...(values.run ? { runIds: values.run } : {}), uspace, skipped, record: values.record === true, fidelity: values.fidelity === true || values.suite === 'fidelity', ...(values['origin-arg'] ? { originArgs: values['origin-arg'] } : {}), ...(values['client-arg'] ? { clientArgs: values['client-arg'] } : {}) };
}

/** `merge DIR... --out DIR [--allow-mixed-commits]` */
function merge(args: string[]): number {
  const { values, positionals } = parseArgs({ args, options: { out: { type: 'string' }, 'allow-mixed-commits': { type: 'boolean' }, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.out) throw new UsageError('merge: --out DIR is required');
  if (positionals.length === 0) throw new UsageError('merge: give the result directories to merge (merge DIR... --out DIR)');
  // Paths are the user's: relative to where the command was run (bench/harness/README.md).
  const outDir = userPath(values.out);
  const outcome = mergeDirs(positionals.map((d) => userPath(d)), outDir, { allowMixedCommits: values['allow-mixed-commits'] === true });
  console.error(JSON.stringify({ component: 'bench', event: 'merged', inputs: positionals.length, runs: outcome.results.length, failed: outcome.results.filter((r) => r.status !== 'ok').length, replaced_failures: outcome.replacedFailures }));
  const report = writeReport(outDir);
  console.log(`wrote ${join(outDir, 'results.jsonl')}, ${join(outDir, 'summary.md')}, ${join(outDir, 'report.html')} and ${report.plots.length} plots`);
  return 0;
}

async function main(): Promise<number> {
  if (process.argv[2] === 'merge') return merge(process.argv.slice(3));
  // The soak (issue 20) is one long run with its own flags (--minutes), not a plan of scenarios.
  if (process.argv.slice(2).some((arg, i, all) => arg === '--suite=soak' || (arg === '--suite' && all[i + 1] === 'soak'))) {
    const { parseSoakArgs, reportSoak, runSoak, SoakUsageError, SOAK_USAGE } = await import('./soak/soak.ts');
    try {
      const options = parseSoakArgs(process.argv.slice(2));
      if (options.reportOnly) {
        reportSoak(options);
        return 0;
      }
      if (typeof process.getuid === 'function' && process.getuid() !== 0) throw new SoakUsageError('the soak creates a network namespace: run it as root');
      await runSoak(options);
      return 0;
    } catch (error) {
      if (!(error instanceof SoakUsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')))) throw error;
      console.error(`bench: ${error.message}\n\n${SOAK_USAGE}`);
      return 2;
    }
  }
  const { scenarios, outDir, mediaDir, reportOnly, list, shard, runIds, uspace, skipped, record, fidelity, originArgs, clientArgs } = parse();
  let items = shard ? shardPlan(plan(scenarios), shard) : plan(scenarios);
  if (runIds) {
    const idOf = (item: (typeof items)[number]) => runId(item.scenario.name, item.scheme, item.repetition);
    const unknown = runIds.filter((id) => !items.some((item) => idOf(item) === id));
    if (unknown.length > 0) throw new UsageError(`--run ${unknown.join(', ')}: not among the ${items.length} run ids of this command (see --list)`);
    items = items.filter((item) => runIds.includes(idOf(item)));
  }
  if (list) {
    for (const item of items) console.log(runId(item.scenario.name, item.scheme, item.repetition));
    return 0;
  }
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
    mkdirSync(outDir, { recursive: true });
    recordSkippedSchemes(outDir, skipped ?? {});
    await runPlan(items, { outDir, mediaDir, playerDir, shouldStop: () => stopping, ...(uspace ? { uspace } : {}), record: record === true, fidelity: fidelity === true, ...(originArgs ? { originArgs } : {}), ...(clientArgs ? { clientArgs } : {}) });
  }
  const report = writeReport(outDir);
  console.log(`wrote ${join(outDir, 'summary.md')}, ${join(outDir, 'report.html')} and ${report.plots.length} plots`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ScenarioError || error instanceof MergeError) {
      console.error(`bench: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(JSON.stringify({ component: 'bench', event: 'failed', error: error instanceof Error ? error.stack ?? error.message : String(error) }));
    process.exit(1);
  },
);
