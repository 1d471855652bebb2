// `sim:paper`'s default rows must not move by accident: a refactoring of a controller leaves every figure
// identical. test/sim-paper.reference.txt is the stored copy of `npm run -s sim:paper` (default run), and
// test/sim-paper.subset.json holds, for every distinct scenario behind its rows (each controller, variant and
// link of every figure), one shortened simulator run (seed 1, at most 20 s) with its exact JSON. This test
// replays the subset natively and compares byte for byte (the full run takes ~4 minutes; the subset ~30 s).
//
// A change that moves a controller ON PURPOSE updates both copies in the same commit with
// `npm run -s sim:paper:reference -w controller-wasm` (rewrites both files from a fresh sim:paper run), and the
// commit message says why the figures moved and by how much (diff test/sim-paper.reference.txt).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { REFERENCE_SUBSET, REFERENCE_TEXT, runSubsetArgs, SUBSET_DURATION_S, type SubsetRun } from '../../scripts/paper/reference.ts';
import { runPool } from '../../scripts/paper/pool.ts';
import { assertBuildsFresh, LIBRARY_SOURCES, SIMULATOR_SOURCES } from './support/build-freshness.ts';

const SIM_CLI_BINARY = fileURLToPath(new URL('../../build/sim/pcc-sim', import.meta.url));

function loadSubset(): { subsetDurationS: number; runs: SubsetRun[] } {
  return JSON.parse(readFileSync(REFERENCE_SUBSET, 'utf8')) as { subsetDurationS: number; runs: SubsetRun[] };
}

test('the stored subset covers every figure of the stored sim:paper output', () => {
  const subset = loadSubset();
  assert.equal(subset.subsetDurationS, SUBSET_DURATION_S);
  const text = readFileSync(REFERENCE_TEXT, 'utf8');
  const figures = text.split('\n').filter((line) => line.startsWith('== ')).length;
  assert.ok(figures >= 6, `the reference shows ${figures} figures`);
  // Every controller named in the reference's tables has runs in the subset, with and without the moving state.
  const ccs = new Set(subset.runs.map((r) => r.args[r.args.indexOf('--cc') + 1]));
  for (const cc of ['vivace', 'vivace-loss', 'allegro', 'pcp', 'cubic', 'bbr']) assert.ok(ccs.has(cc), `no ${cc} run in the subset`);
  for (const variant of ['moving=1', 'moving=0']) assert.ok(subset.runs.some((r) => r.args.includes(variant)), `no ${variant} run`);
  assert.ok(subset.runs.some((r) => r.args.includes('--trace')), 'no trace-driven (Fig 4.9) run');
});

test('every stored sim:paper scenario gives byte-identical simulator output', { timeout: 300_000 }, async () => {
  assertBuildsFresh(['build/sim/pcc-sim'], [...LIBRARY_SOURCES, ...SIMULATOR_SOURCES]);
  const { runs } = loadSubset();
  const outputs = await runPool(runs.map((run) => () => runSubsetArgs(SIM_CLI_BINARY, run.args)), 2);
  const differing = runs.flatMap((run, i) => (outputs[i] === run.output ? [] : [`pcc-sim ${run.args.join(' ')}\n  stored: ${run.output}\n  now:    ${outputs[i]}`]));
  assert.equal(differing.length, 0, `${differing.length} of ${runs.length} sim:paper scenarios changed (pcc-sim runs from the repository root):\n${differing.slice(0, 5).join('\n')}`);
});
