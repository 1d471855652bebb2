#!/usr/bin/env node
// libFuzzer targets over the project's C (README.md "Fuzzing"): builds each with clang's fuzzer, AddressSanitizer and
// UndefinedBehaviorSanitizer and runs it on its seed corpus.
//   npm run -s fuzz -- --list
//   npm run -s fuzz -- --target NAME [--runs N | --seconds S]
//   npm run -s fuzz -- --ci          (every target, a short fixed number of runs; npm test runs this)
// Installs the one Debian package the fuzzer runtime needs (libclang-rt-14-dev) when run as root, as
// scripts/bootstrap.mjs does for the rest. Builds and working corpora go to fuzz/build (ignored by git);
// a finding is written to fuzz/build/artifacts/NAME/ and the run exits 1.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const fuzzDir = join(repoRoot, 'fuzz');
const buildDir = join(fuzzDir, 'build');
const log = (event, detail = {}) => console.error(JSON.stringify({ t: new Date().toISOString(), component: 'fuzz', event, ...detail }));

const CLANG = 'clang-14';
const RUNTIME_PACKAGE = 'libclang-rt-14-dev';
/* Runs per target in `--ci` (npm test), from the seed corpus: a few seconds each under the sanitizers. */
const CI_RUNS = { 'cc-api': 20000, 'cc-api-long': 300, 'trace-parser': 50000, 'linkem-options': 50000 };
/* Longest input libFuzzer may build: enough for a few hundred controller events or a page of trace text. A target
 * may ask for less (maxInputBytes). */
const MAX_INPUT_BYTES = 4096;
const PROGRESS_EVERY_MS = 10_000;
/* libFuzzer's exit status when a SIGINT stopped it (-interrupted_exitcode): a run cut short, not a finding. */
const INTERRUPTED_EXIT = 72;

const controllerSources = () => [
  ...listC('controller-wasm/src'),
  ...listC('controller-wasm/src/algorithms'),
];
const linkemFiles = ['options.c', 'path_config.c', 'delay.c', 'queue_config.c', 'queue.c', 'queue_infinite.c',
  'queue_droptail.c', 'queue_drophead.c', 'queue_codel.c', 'packet.c'].map((f) => `bench/linkem/src/fwd/${f}`);

// One line per target: what it drives and which of the project's files it compiles in.
const targets = [
  {
    name: 'cc-api',
    what: 'the C controller ABI (include/pcc/cc.h), every registered algorithm, short programs: random sends, acks, losses, ticks, app states, parameters, times and sizes, a little traffic over a bottleneck; rates finite and within bounds',
    sources: () => ['fuzz/targets/cc_api.c', ...controllerSources()],
    // fuzz/targets: the program both cc-api targets run (cc_api_program.h); controller-wasm/test: the bottleneck
    // fixture the algorithm tests use (bottleneck_link.h).
    includes: ['fuzz/targets', 'controller-wasm/include', 'controller-wasm/src', 'controller-wasm/test'],
    // The long target's seeds too: the same format, cut to this target's traffic budget.
    seeds: ['fuzz/corpus/cc-api', 'fuzz/corpus/cc-api-long'],
    // ~100 events: programs stay short, so executions stay cheap.
    maxInputBytes: 512,
    traceCmp: false,
  },
  {
    name: 'cc-api-long',
    what: 'the same programs over the C controller ABI with traffic for 1,000 MIs (16,000 packets): also no state held 1,000 MIs while inputs change',
    sources: () => ['fuzz/targets/cc_api_long.c', ...controllerSources()],
    includes: ['fuzz/targets', 'controller-wasm/include', 'controller-wasm/src', 'controller-wasm/test'],
    seeds: ['fuzz/corpus/cc-api-long', 'fuzz/corpus/cc-api'],
    traceCmp: false,
  },
  {
    name: 'trace-parser',
    what: "netpath's mahimahi trace parser (netpath/trace_format.c) and the schedule it feeds (trace_schedule.c)",
    sources: () => ['fuzz/targets/trace_parser.c', 'netpath/trace_format.c', 'netpath/trace_schedule.c'],
    includes: ['netpath'],
    // The test vectors are the format's reviewed edge cases; the corpus folder adds a real trace's first lines.
    seeds: ['netpath/test-vectors/traces', 'fuzz/corpus/trace-parser'],
  },
  {
    name: 'linkem-options',
    what: "linkem-fwd's command line (bench/linkem/src/fwd options.c) and what it builds from it: queue, delay, rtt pattern, trace and delay-schedule files",
    sources: () => ['fuzz/targets/linkem_options.c', ...linkemFiles, 'netpath/trace_file.c', 'netpath/trace_format.c', 'netpath/droptail_queue.c'],
    includes: ['bench/linkem/src/fwd', 'netpath'],
    seeds: ['fuzz/corpus/linkem-options'],
  },
];

function listC(dir) {
  return readdirSync(join(repoRoot, dir)).filter((f) => f.endsWith('.c')).sort().map((f) => `${dir}/${f}`);
}

function usage(message) {
  if (message) console.error(`fuzz: ${message}`);
  console.error('usage: npm run -s fuzz -- --list\n       npm run -s fuzz -- --target NAME [--runs N | --seconds S]\n       npm run -s fuzz -- --ci');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { list: false, ci: false, target: null, runs: null, seconds: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    const positive = (v) => {
      if (!/^[1-9][0-9]*$/.test(v) || !Number.isSafeInteger(Number(v))) usage(`${a} needs a positive integer (got '${v}')`);
      return Number(v);
    };
    if (a === '--list') opts.list = true;
    else if (a === '--ci') opts.ci = true;
    else if (a === '--target') opts.target = value();
    else if (a === '--runs') opts.runs = positive(value());
    else if (a === '--seconds') opts.seconds = positive(value());
    else if (a === '--help' || a === '-h') usage();
    else usage(`unknown argument '${a}'`);
  }
  if (opts.runs !== null && opts.seconds !== null) usage('give --runs or --seconds, not both');
  if ([opts.list, opts.ci, opts.target !== null].filter(Boolean).length !== 1) usage('give one of --list, --target NAME, --ci');
  if (opts.target !== null && !targets.some((t) => t.name === opts.target)) {
    usage(`unknown target '${opts.target}' (${targets.map((t) => t.name).join(', ')})`);
  }
  return opts;
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

// clang prints the path it would link; the file exists only when the runtime package is installed.
function fuzzerRuntimePresent() {
  if (!hasCommand(CLANG)) return false;
  const r = spawnSync(CLANG, ['-print-file-name=libclang_rt.fuzzer-x86_64.a'], { encoding: 'utf8' });
  const path = r.stdout?.trim() ?? '';
  return r.status === 0 && path.startsWith('/') && existsSync(path);
}

function ensureToolchain() {
  if (fuzzerRuntimePresent()) return;
  const packages = hasCommand(CLANG) ? [RUNTIME_PACKAGE] : ['clang-14', RUNTIME_PACKAGE];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(`fuzz: libFuzzer needs ${packages.join(' and ')} (clang's fuzzer and sanitizer runtimes). Run as root:\n  sudo apt-get update && sudo apt-get install -y ${packages.join(' ')}\nthen run this command again.`);
    process.exit(1);
  }
  log('apt-install', { packages });
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'inherit', 'inherit'], env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: ['ignore', 'inherit', 'inherit'], env });
  if (!fuzzerRuntimePresent()) {
    console.error(`fuzz: ${packages.join(' ')} installed, but ${CLANG} still finds no libclang_rt.fuzzer-x86_64.a`);
    process.exit(1);
  }
}

function newestMtimeMs(paths) {
  return Math.max(...paths.map((p) => statSync(join(repoRoot, p)).mtimeMs));
}

// Rebuilds when the binary is older than any source or header it could include (or this script).
function build(target) {
  const binary = join(buildDir, target.name);
  const sources = target.sources();
  const headers = target.includes.flatMap((dir) =>
    readdirSync(join(repoRoot, dir), { recursive: true }).filter((f) => String(f).endsWith('.h')).map((f) => `${dir}/${f}`));
  const inputs = [...sources, ...headers, 'scripts/fuzz.mjs'];
  if (existsSync(binary) && statSync(binary).mtimeMs >= newestMtimeMs(inputs)) return binary;
  mkdirSync(buildDir, { recursive: true });
  const started = Date.now();
  const args = [
    '-std=c11', '-D_GNU_SOURCE', '-g', '-O1', '-Wall', '-Wextra', '-Werror',
    // Every sanitizer report stops the run: a finding is never a warning scrolled past.
    '-fsanitize=fuzzer,address,undefined', '-fno-sanitize-recover=all', '-fno-omit-frame-pointer',
    // libFuzzer's comparison tracing guides mutations toward the constants code compares against. The cc-api
    // programs are byte-coded events whose values all mean something, and the controller compares simulated times
    // and counters: there the tracing was over half of an execution and found no more coverage per execution
    // (measured over 100,000 executions each way), so those targets go without it. Edge coverage, the sanitizers
    // and every check stay.
    ...(target.traceCmp === false ? ['-fno-sanitize-coverage=trace-cmp'] : []),
    // Indirect-call tracing feeds only libFuzzer's value-profile table, which it reads only under
    // -use_value_profile=1 (never passed here): the hook at every call through an ops table was pure cost, 9% of a
    // cc-api-long execution.
    '-fno-sanitize-coverage=indirect-calls',
    ...target.includes.map((dir) => `-I${join(repoRoot, dir)}`),
    '-o', `${binary}.new`, ...sources.map((s) => join(repoRoot, s)), '-lm',
  ];
  const r = spawnSync('nice', ['-n', '10', CLANG, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    log('build-failed', { target: target.name });
    process.exit(1);
  }
  // A rename, so a long run still executing the old binary keeps it.
  renameSync(`${binary}.new`, binary);
  log('built', { target: target.name, seconds: (Date.now() - started) / 1000 });
  return binary;
}

/* Runs libFuzzer; resolves with executions, seconds and the artifact of a finding (null when none). */
function runTarget(target, binary, { runs, seconds, workCorpus, quiet }) {
  const artifacts = join(buildDir, 'artifacts', target.name);
  const dict = join(fuzzDir, 'dict', `${target.name}.dict`);
  mkdirSync(artifacts, { recursive: true });
  mkdirSync(workCorpus, { recursive: true });
  const args = [
    // New inputs go to the first folder (outside git); the seed corpus is read only.
    workCorpus, ...target.seeds.map((dir) => join(repoRoot, dir)),
    `-artifact_prefix=${artifacts}/`, ...(existsSync(dict) ? [`-dict=${dict}`] : []), `-max_len=${target.maxInputBytes ?? MAX_INPUT_BYTES}`, '-print_final_stats=1',
    '-timeout=10', '-rss_limit_mb=2048', `-interrupted_exitcode=${INTERRUPTED_EXIT}`,
    ...(runs !== null ? [`-runs=${runs}`, '-seed=1'] : []),
    ...(seconds !== null ? [`-max_total_time=${seconds}`] : []),
  ];
  const started = Date.now();
  const total = runs !== null ? { runs } : seconds !== null ? { seconds } : {};
  log('start', { target: target.name, ...total });
  return new Promise((resolve) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1' } });
    let executions = 0;
    let artifact = null;
    let tail = '';
    let pending = '';
    // Ctrl-C or a kill of this script stops the fuzzer the way it expects, so the executions so far are reported.
    const interrupt = () => child.kill('SIGINT');
    process.on('SIGINT', interrupt);
    process.on('SIGTERM', interrupt);
    child.stderr.on('data', (chunk) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        tail = (tail + line + '\n').slice(-20000);
        let m;
        if ((m = /^#(\d+)\s/.exec(line))) executions = Math.max(executions, Number(m[1]));
        if ((m = /^stat::number_of_executed_units:\s*(\d+)/.exec(line))) executions = Number(m[1]);
        if ((m = /Test unit written to (\S+)/.exec(line))) artifact = m[1];
      }
    });
    // libFuzzer reports its count when coverage grows and at powers of two; the last count it gave is shown.
    const progress = quiet ? null : setInterval(() => {
      const elapsedS = (Date.now() - started) / 1000;
      const rate = executions / elapsedS;
      const etaS = runs !== null ? (runs - executions) / Math.max(rate, 1e-9) : seconds !== null ? seconds - elapsedS : null;
      log('progress', { target: target.name, executions, exec_per_s: Math.round(rate), eta_s: etaS === null ? null : Math.max(0, Math.round(etaS)) });
    }, PROGRESS_EVERY_MS);
    child.on('close', (code, signal) => {
      if (progress) clearInterval(progress);
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
      const interrupted = !artifact && code === INTERRUPTED_EXIT;
      const findings = artifact || (code !== 0 && !interrupted) ? 1 : 0;
      const result = { target: target.name, executions, seconds: (Date.now() - started) / 1000, findings, artifact, exit: code, signal, interrupted };
      if (result.findings > 0) {
        process.stderr.write(tail);
        log('finding', { ...result, reproduce: artifact ? `${binary} ${artifact}` : null });
      } else log('done', result);
      resolve(result);
    });
  });
}

const opts = parseArgs(process.argv.slice(2));
if (opts.list) {
  for (const t of targets) console.log(`${t.name}\t${t.what}`);
  process.exit(0);
}
ensureToolchain();
if (opts.target !== null) {
  const target = targets.find((t) => t.name === opts.target);
  const binary = build(target);
  // --runs N is a fixed, repeatable amount of work: the seed corpus and seed 1, in a scratch folder. Otherwise the
  // run explores on from what earlier ones kept in fuzz/build/corpus/NAME and keeps what it finds there.
  const scratch = opts.runs !== null ? mkdtempSync(join(tmpdir(), `pcc-fuzz-${target.name}-`)) : null;
  const r = await runTarget(target, binary, { runs: opts.runs, seconds: opts.seconds, workCorpus: scratch ?? join(buildDir, 'corpus', target.name), quiet: false });
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  console.log(JSON.stringify(r));
  process.exit(r.findings > 0 ? 1 : r.interrupted ? INTERRUPTED_EXIT : 0);
}
// --ci: every target for a fixed number of runs as --runs does, so every `npm test` exercises the same inputs first;
// printed in node:test's summary shape for scripts/test-all.mjs.
let passed = 0;
let failed = 0;
for (const target of targets) {
  const binary = build(target);
  const scratch = mkdtempSync(join(tmpdir(), `pcc-fuzz-${target.name}-`));
  const r = await runTarget(target, binary, { runs: CI_RUNS[target.name], seconds: null, workCorpus: scratch, quiet: true });
  rmSync(scratch, { recursive: true, force: true });
  if (r.interrupted) {
    console.log(`# interrupted in ${target.name} after ${r.executions} executions`);
    process.exit(INTERRUPTED_EXIT);
  }
  if (r.findings > 0) failed++;
  else passed++;
  console.log(`${r.findings > 0 ? 'not ok' : 'ok'} - fuzz ${target.name}: ${r.executions} executions, ${r.findings} findings, ${r.seconds.toFixed(1)} s`);
}
console.log(`# pass ${passed}\n# fail ${failed}`);
process.exit(failed > 0 ? 1 : 0);
