// The equivalence tests compare two builds of the same sources; in a checkout where sources change
// while tests run, a difference may only mean one build is older. Say so instead of reporting a mismatch.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The controller library: every build output depends on it. */
export const LIBRARY_SOURCES = ['src', 'src/algorithms', 'include/pcc', 'wasm/event_batch.c', 'wasm/event_batch.h'];
/** The simulator as pcc-sim and pcc-sim-json link it (sim_main.c is pcc-sim's alone). */
export const SIMULATOR_SOURCES = ['sim', 'wasm/sim_runner.c', 'wasm/sim_runner.h'];
const SKIPPED = new Set(['sim/sim_main.c']);

function newestSourceMs(sources: string[]): { path: string; ms: number } {
  let newest = { path: '', ms: 0 };
  const consider = (path: string): void => {
    if (SKIPPED.has(path) || !/\.[ch]$/.test(path)) return;
    const ms = statSync(join(PACKAGE_ROOT, path)).mtimeMs;
    if (ms > newest.ms) newest = { path, ms };
  };
  for (const source of sources) {
    const abs = join(PACKAGE_ROOT, source);
    if (!existsSync(abs)) continue;
    if (statSync(abs).isDirectory()) for (const f of readdirSync(abs)) consider(`${source}/${f}`);
    else consider(source);
  }
  return newest;
}

/** Throws when one of `sources` (files or folders, relative to the package) is newer than one of `outputs`. */
export function assertBuildsFresh(outputs: string[], sources: string[]): void {
  const source = newestSourceMs(sources);
  for (const output of outputs) {
    const abs = join(PACKAGE_ROOT, output);
    if (!existsSync(abs)) throw new Error(`${output} is missing: run \`npm run build -w controller-wasm\``);
    if (statSync(abs).mtimeMs < source.ms) {
      throw new Error(`${output} is older than ${source.path}: run \`npm run build -w controller-wasm\` (sources changed after the build)`);
    }
  }
}
