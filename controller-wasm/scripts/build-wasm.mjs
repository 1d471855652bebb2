#!/usr/bin/env node
// Builds the controller library (every src/*.c and src/algorithms/*.c), the simulator (sim/*.c without a
// main, and the ../netpath files it shares with linkem) and the WASM-facing exports (wasm/) into one
// Emscripten ES module: wasm-dist/pcc_cc.mjs + .wasm.
// package.json calls this through scripts/if-stale.mjs, so it only runs when a source changed.
// Flags per FIELD-NOTES "Emscripten": MODULARIZE + EXPORT_ES6 + ENVIRONMENT=web,worker gives one module
// that works under Vite in Chromium and in Node when given `wasmBinary`; NODE_PATH is needed by Debian's emcc.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(packageRoot, 'wasm-dist');
const stagingDir = join(outDir, '.staging');
const moduleBaseName = 'pcc_cc';

function log(fields) {
  process.stderr.write(`${JSON.stringify({ component: 'build-wasm', ...fields })}\n`);
}

function cFilesIn(dir, { skipPrograms = false } = {}) {
  const abs = join(packageRoot, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs)
    .filter((f) => f.endsWith('.c'))
    .sort()
    .map((f) => join(abs, f))
    // A file defining main() is a native command-line program, not library code.
    .filter((f) => !skipPrograms || !/^\s*int\s+main\s*\(/m.test(readFileSync(f, 'utf8')));
}

const exportSources = cFilesIn('wasm/exports');
// The simulator is compiled in for its exports (wasm/exports/sim_exports.c) only.
const wantsSimulator = exportSources.some((f) => f.endsWith('sim_exports.c'));
const sources = [
  ...cFilesIn('src'),
  ...cFilesIn('src/algorithms'),
  ...(wantsSimulator ? cFilesIn('sim', { skipPrograms: true }) : []),
  ...(wantsSimulator ? cFilesIn('../netpath') : []),
  ...cFilesIn('wasm'),
  ...exportSources,
];
const jsLibrary = join(packageRoot, 'wasm/exports/js_utility_bridge.js');

const args = [
  // -flto: the per-event path crosses files (event_batch.c -> controller.c -> the algorithm ->
  // monitor_interval.c); link-time optimisation inlines across them (measured: vivace 90 -> 77 ns per ack
  // through the batched wrapper). It changes no result: WebAssembly has no fused multiply-add to contract
  // into, and no fast-math flag is given.
  '-std=c11', '-O3', '-flto', '-Wall', '-Wextra', '-Werror',
  `-I${join(packageRoot, 'include')}`, `-I${join(packageRoot, 'src')}`, `-I${join(packageRoot, 'sim')}`, `-I${join(packageRoot, '..', 'netpath')}`,
  ...sources,
  '--js-library', jsLibrary,
  '-sMODULARIZE=1', '-sEXPORT_ES6=1', '-sENVIRONMENT=web,worker', '-sEXPORT_NAME=createPccModule',
  '-sALLOW_MEMORY_GROWTH=1', '-sFILESYSTEM=0', '-sEXPORTED_FUNCTIONS=_malloc,_free',
  // Post-MVP features every current engine has (Node >= 16, Chromium >= 75): saturating float-to-int
  // (the MVP lowering of each (int64_t)double is a branchy range check), bulk memory for memcpy/memset,
  // sign extension. Results are unchanged: only out-of-range conversions, undefined in C, could differ.
  '-mnontrapping-fptoint', '-mbulk-memory', '-msign-ext',
  '-o', join(stagingDir, `${moduleBaseName}.mjs`),
];

rmSync(stagingDir, { recursive: true, force: true });
mkdirSync(stagingDir, { recursive: true });
const startedMs = Date.now();
log({ event: 'start', sources: sources.map((s) => relative(packageRoot, s)) });
const env = { ...process.env, NODE_PATH: [process.env.NODE_PATH, '/usr/share/nodejs'].filter(Boolean).join(':') };
const result = spawnSync('emcc', args, { stdio: 'inherit', env });
if (result.error || result.status !== 0) {
  rmSync(stagingDir, { recursive: true, force: true });
  log({ event: 'failed', reason: result.error ? String(result.error) : `emcc exited with ${result.status}` });
  process.exit(1);
}
// Move both files into place only after a complete build, so readers never see a half-written pair.
for (const ext of ['wasm', 'mjs']) {
  renameSync(join(stagingDir, `${moduleBaseName}.${ext}`), join(outDir, `${moduleBaseName}.${ext}`));
}
rmSync(stagingDir, { recursive: true, force: true });
log({ event: 'done', out: relative(packageRoot, outDir), elapsedMs: Date.now() - startedMs });
