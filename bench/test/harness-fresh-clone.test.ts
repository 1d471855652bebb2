// Issue 15, "Done when": a fresh clone, in a directory with no parent folders, runs the `lte` suite's first run.
// The clone is made with `git clone`, so it holds tracked files only: whatever the run needs beyond them (traces,
// media, scenario paths) must come from the repository itself or be made inside the clone. Needs root (linkem creates
// network namespaces) and Chromium, like harness-smoke.
//
// What the clone builds itself, from its own sources: node_modules (`npm ci --offline`, from npm's cache: the lockfile
// is the clone's), the WASM controllers (controller-wasm/wasm-dist), the player bundle (player/dist) and linkem's
// forwarder (bench/linkem/build). Its native C library (controller-wasm/build, cmake) is not built: the simulator and
// ctest use it, a browser run does not.
// What it reuses from this checkout: the QUIC addon server/native/*.node only, because a cold release build of the
// Rust crate takes many minutes. That is still a fair check: it is copied only when the checkout's addon sources (the
// `--in` inputs of its own build script) are byte for byte the clone's commit and the addon is newer than them (the
// rule scripts/if-stale.mjs builds by), i.e. it is the output of the clone's own sources; otherwise the clone builds it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from '../harness/repo-root.ts';
import type { RunResult } from '../harness/results.ts';

const run = promisify(execFile);
const benchDir = join(repoRoot, 'bench');
const CHECKOUT_ROOT = realpathSync(repoRoot);
const RUN_DURATION_S = 8;

/** The environment of a user's shell: nothing inherited from the npm (or a trace override) this test runs under. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || key === 'INIT_CWD' || key.startsWith('PCC_')) continue;
    env[key] = value;
  }
  const cargoBin = join(process.env.HOME ?? '/root', '.cargo', 'bin');
  env.PATH = `${env.PATH ?? ''}:${cargoBin}`; // where rustup puts cargo (scripts/bootstrap.mjs looks there too)
  return env;
}

async function sh(file: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run(file, args, { cwd, env: userEnv(), maxBuffer: 64 << 20 });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${file} ${args.join(' ')} (in ${cwd}) failed: ${e.message}\n${(e.stderr ?? '').slice(-4000)}`);
  }
}

function newestMtimeMs(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestMtimeMs(join(path, entry))), 0);
}

/** The addon's file and inputs, as its build script names them (`if-stale.mjs --out FILE --in PATH…`). */
function addonBuild(): { out: string; inputs: string[] } {
  const script = (JSON.parse(readFileSync(join(repoRoot, 'server', 'native', 'package.json'), 'utf8')) as { scripts: { build: string } }).scripts.build;
  const out = /--out (\S+)/.exec(script)?.[1];
  const inputs = [...script.matchAll(/--in (\S+)/g)].map((m) => m[1]!);
  assert.ok(out && inputs.length > 0, `server/native's build script no longer names --out/--in: ${script}`);
  return { out, inputs };
}

/** Why the checkout's addon cannot stand for the clone's, or null when it is the output of the clone's sources. */
async function addonReuseObstacle(cloneHead: string): Promise<string | null> {
  const { out, inputs } = addonBuild();
  const nativeDir = join(repoRoot, 'server', 'native');
  const paths = inputs.map((p) => join('server', 'native', p));
  const addon = join(nativeDir, out);
  if (!existsSync(addon)) return `${out} is not built in the checkout`;
  const differs = await run('git', ['diff', '--quiet', cloneHead, '--', ...paths], { cwd: repoRoot }).then(() => false, () => true);
  if (differs) return `the checkout's addon sources differ from commit ${cloneHead}`;
  const untracked = await sh('git', ['ls-files', '--others', '--exclude-standard', '--', ...paths], repoRoot);
  if (untracked.trim() !== '') return `untracked addon sources in the checkout: ${untracked.trim()}`;
  const newestInputMs = Math.max(...inputs.map((p) => newestMtimeMs(join(nativeDir, p))));
  if (statSync(addon).mtimeMs < newestInputMs) return `the checkout's ${out} is older than its sources`;
  return null;
}

/** Every string in `value` that is an absolute path, with where it sits. */
function absolutePaths(value: unknown, where = ''): Array<[string, string]> {
  if (typeof value === 'string') return value.startsWith('/') ? [[where, value]] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => absolutePaths(v, `${where}[${i}]`));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => absolutePaths(v, where ? `${where}.${k}` : k));
  return [];
}

function textFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile() && !/\.(png|svg)$/.test(f));
}

async function listIds(args: string[]): Promise<string[]> {
  return (await sh(process.execPath, ['--import', 'tsx', 'harness/cli.ts', ...args, '--list'], benchDir)).split('\n').filter(Boolean);
}

test('--run ID keeps only those runs of the plan, in plan order; an id not in the plan is an error', { timeout: 60_000 }, async () => {
  const whole = await listIds(['--suite', 'lte']);
  const picked = [whole[5]!, whole[0]!];
  assert.deepEqual(await listIds(['--suite', 'lte', '--run', picked[0]!, '--run', picked[1]!]), [whole[0], whole[5]]);
  // With --shard, the id must be in that shard's share.
  const shard2 = await listIds(['--suite', 'lte', '--shard', '2/2']);
  const elsewhere = whole.find((id) => !shard2.includes(id))!;
  await assert.rejects(listIds(['--suite', 'lte', '--shard', '2/2', '--run', elsewhere]), new RegExp(`--run ${elsewhere.replaceAll('/', '\\/')}: not among the ${shard2.length} run ids`));
  await assert.rejects(listIds(['--suite', 'lte', '--run', 'lte-nowhere/vivace/1']), /--run lte-nowhere\/vivace\/1: not among the \d+ run ids/);
});

test("a fresh clone in a directory with no parent folders runs the lte suite's first run", { timeout: 30 * 60_000 }, async (t) => {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'pcc-fresh-clone-')));
  const clone = join(parent, 'clone');
  const outDir = join(parent, 'results');
  try {
    const started = Date.now();
    await sh('git', ['clone', '--quiet', repoRoot, clone], parent);
    // Nothing beside the clone: no traces folder, no shared data, no other checkout next to it.
    assert.deepEqual(readdirSync(parent), ['clone']);
    assert.ok(!clone.startsWith(`${CHECKOUT_ROOT}/`), `the clone ${clone} is inside the checkout`);
    assert.ok(!existsSync(join(clone, '..', 'shared')));
    const cloneHead = (await sh('git', ['rev-parse', 'HEAD'], clone)).trim();

    // node_modules from the clone's own lockfile (npm's cache, no network); workspace links must point into the clone.
    await sh('npm', ['ci', '--offline', '--no-audit', '--no-fund'], clone);
    assert.equal(realpathSync(join(clone, 'node_modules', '@pcc-stream', 'bench')), join(clone, 'bench'));
    const { out: addonFile } = addonBuild();
    const obstacle = await addonReuseObstacle(cloneHead);
    if (obstacle === null) {
      copyFileSync(join(repoRoot, 'server', 'native', addonFile), join(clone, 'server', 'native', addonFile));
      t.diagnostic(`reused the checkout's ${addonFile}: its sources are commit ${cloneHead}'s`);
    } else {
      t.diagnostic(`building the QUIC addon in the clone (${obstacle}); a cold Rust build takes minutes`);
    }
    await Promise.all([
      // The WASM half of the controller's build, then the player, whose playground page bundles that module.
      sh(process.execPath, ['scripts/build-wasm.mjs'], join(clone, 'controller-wasm'))
        .then(() => sh('npm', ['run', '-s', 'build', '-w', '@pcc-stream/player'], clone)),
      sh('npm', ['run', '-s', 'build', '-w', '@pcc-stream/bench'], clone),
      ...(obstacle === null ? [] : [sh('npm', ['run', '-s', 'build', '-w', '@pcc-stream/quic'], clone)]),
    ]);
    // The builds wrote only ignored outputs: the clone is still exactly its commit.
    assert.equal((await sh('git', ['status', '--porcelain'], clone)).trim(), '');
    t.diagnostic(`clone ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    // As a user would: from the clone's root, list the suite, then run its first run in short form.
    const bench = (args: string[]) => sh('npm', ['run', '-s', 'bench', '--', '--suite', 'lte', ...args], clone);
    const ids = (await bench(['--list'])).split('\n').filter(Boolean);
    assert.ok(ids.length > 1, `lte lists ${ids.length} runs`);
    const first = ids[0]!;
    assert.deepEqual((await bench(['--list', '--run', first])).split('\n').filter(Boolean), [first]);
    await bench(['--run', first, '--duration-s', String(RUN_DURATION_S), '--out', outDir]);
    t.diagnostic(`clone, build and run in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const lines = readFileSync(join(outDir, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RunResult);
    assert.deepEqual(lines.map((r) => r.run_id), [first]);
    const result = lines[0]!;
    assert.equal(result.status, 'ok', `${first} failed: ${result.error ?? ''}`);
    assert.ok(result.players[0]!.playing_time_s > 2, `played ${result.players[0]!.playing_time_s} s`);
    assert.ok(result.link_utilization !== null && result.link_utilization > 0, `utilization ${result.link_utilization}`);
    assert.equal(result.provenance?.commit, cloneHead);
    assert.equal(result.provenance?.dirty, false);

    // Every path the run's scenario names is inside the clone; its traces are the clone's tracked bench/traces.
    const scenario = result.resolved_scenario!;
    assert.equal(scenario.durationS, RUN_DURATION_S);
    const paths = absolutePaths(scenario);
    assert.ok(paths.length >= 2, `the lte scenario names its trace files: ${JSON.stringify(paths)}`);
    for (const [where, path] of paths) assert.ok(path.startsWith(`${clone}/`), `resolved_scenario.${where} = ${path} is outside the clone`);
    const tracked = new Set((await sh('git', ['ls-files', 'bench/traces'], clone)).split('\n').filter(Boolean));
    for (const direction of ['down', 'up'] as const) {
      const tracePath = (scenario.link[direction] as { tracePath?: string }).tracePath ?? '';
      assert.ok(tracePath.startsWith(`${join(clone, 'bench', 'traces')}/`), `link.${direction}: ${tracePath}`);
      const relative = tracePath.slice(clone.length + 1);
      if (tracked.has(relative)) continue;
      // A compressed trace (NAME.gz) is decompressed into the clone's own .cache/traces.
      assert.ok(tracked.has(`${relative}.gz`) || (relative.endsWith('.gz') && tracked.has(relative)), `link.${direction}: ${relative} is not a tracked trace`);
      const base = relative.replace(/\.gz$/, '').split('/').at(-1)!;
      const cached = readdirSync(join(clone, '.cache', 'traces'), { recursive: true, encoding: 'utf8' });
      assert.ok(cached.some((f) => f.endsWith(`/${base}`)), `no decompressed ${base} in the clone's .cache/traces`);
    }

    // The media was generated in the clone's .cache/media and served from there.
    assert.ok(result.media && existsSync(join(clone, '.cache', 'media', result.media.set, 'complete.json')), `media ${JSON.stringify(result.media)}`);
    const runDir = join(outDir, 'runs', ...first.split('/'));
    const originStarted = readFileSync(join(runDir, 'origin.log'), 'utf8').split('\n').filter(Boolean)
      .map((l) => JSON.parse(l) as { event?: string; media?: string }).find((e) => e.event === 'origin.started');
    assert.equal(originStarted?.media, join(clone, '.cache', 'media'));

    // Nothing the run wrote mentions this checkout: it read nothing from it.
    for (const file of [join(outDir, 'results.jsonl'), ...textFilesUnder(runDir)]) {
      assert.ok(!readFileSync(file, 'utf8').includes(`${CHECKOUT_ROOT}/`), `${file} names the checkout ${CHECKOUT_ROOT}`);
    }
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
