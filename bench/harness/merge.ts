// Merges result directories (shards run on several machines, or one suite run in parts) into one result set: the
// union of their results.jsonl in canonical order, their runs/ artefacts copied, and the report written from it, so
// the tables are the ones a single machine would have written from the same results.
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compareRuns, paramsKey, readResults, runDirPath, type RunResult } from './results.ts';

export class MergeError extends Error {}

export interface MergeOptions {
  /** Accept runs of different commits in one result set (summary.md lists each provenance with its run count). */
  allowMixedCommits?: boolean;
}

export interface MergeOutcome {
  results: RunResult[];
  /** Runs that failed in one directory and succeeded in another: the successful one is kept. */
  replacedFailures: string[];
}

interface Source {
  result: RunResult;
  dir: string;
}

function commitOf(r: RunResult): string {
  const p = r.provenance;
  if (!p) return 'unrecorded';
  return p.commit === null ? 'no git commit' : `${p.commit}${p.dirty ? ' (with uncommitted changes)' : ''}`;
}

/**
 * Chooses one result per run id. Conflicts are errors naming both directories: the same run with other controller
 * parameters or from another commit, or completed in two directories with different outcomes. A failure in one
 * directory and a success in another keep the success (a shard retried elsewhere).
 */
export function mergeResults(inputs: ReadonlyArray<{ dir: string; results: readonly RunResult[] }>, options: MergeOptions = {}): MergeOutcome {
  const chosen = new Map<string, Source>();
  const replacedFailures: string[] = [];
  for (const { dir, results } of inputs) {
    for (const result of results) {
      const before = chosen.get(result.run_id);
      if (!before) {
        chosen.set(result.run_id, { result, dir });
        continue;
      }
      const where = `run ${result.run_id} is in ${before.dir} and in ${dir}`;
      if (paramsKey(before.result.controller_params) !== paramsKey(result.controller_params)) {
        throw new MergeError(`${where} with different controller parameters ("${paramsKey(before.result.controller_params)}" vs "${paramsKey(result.controller_params)}"): merge only directories of one configuration`);
      }
      // A failed run has no figures to mix: its rerun replaces it whatever commit it ran (the set's own commit
      // check below still applies to the runs kept).
      const oneFailed = before.result.status !== 'ok' || result.status !== 'ok';
      if (!oneFailed && commitOf(before.result) !== commitOf(result)) {
        throw new MergeError(`${where} from different commits (${commitOf(before.result)} vs ${commitOf(result)}): keep the run in one directory only`);
      }
      if (before.result.status === 'ok' && result.status === 'ok') {
        if (JSON.stringify(before.result) === JSON.stringify(result)) continue; // the same line twice
        throw new MergeError(`${where}, completed in both with different outcomes: keep it in one directory only`);
      }
      if (result.status === 'ok') {
        chosen.set(result.run_id, { result, dir });
        replacedFailures.push(result.run_id);
      } else if (before.result.status !== 'ok' && result.started_at > before.result.started_at) {
        chosen.set(result.run_id, { result, dir }); // two failures: the later one
      }
    }
  }
  const results = [...chosen.values()].map((s) => s.result).sort(compareRuns);
  // One DIR holds one parameter set per scheme (as resume enforces): the same holds for the merged set.
  const paramsByScheme = new Map<string, Source>();
  for (const source of chosen.values()) {
    const key = `${source.result.scenario}/${source.result.scheme}`;
    const other = paramsByScheme.get(key);
    if (other && paramsKey(other.result.controller_params) !== paramsKey(source.result.controller_params)) {
      throw new MergeError(`${key} ran with controller parameters "${paramsKey(other.result.controller_params)}" in ${other.dir} and "${paramsKey(source.result.controller_params)}" in ${source.dir}: merge only directories of one configuration`);
    }
    paramsByScheme.set(key, source);
  }
  if (!options.allowMixedCommits) {
    const commits = new Map<string, string>();
    for (const source of chosen.values()) commits.set(commitOf(source.result), source.dir);
    if (commits.size > 1) {
      const list = [...commits.entries()].map(([commit, dir]) => `${commit} (e.g. ${dir})`).join(', ');
      throw new MergeError(`the directories hold runs of different commits: ${list}; run every shard from one commit, or pass --allow-mixed-commits (summary.md then lists each)`);
    }
  }
  return { results, replacedFailures };
}

/** Reads each input directory, merges (see mergeResults), writes outDir/results.jsonl and copies the runs' artefacts. */
export function mergeDirs(inputDirs: readonly string[], outDir: string, options: MergeOptions = {}): MergeOutcome {
  if (inputDirs.length === 0) throw new MergeError('merge needs at least one input DIR');
  const out = resolve(outDir);
  const inputs = inputDirs.map((d) => {
    const dir = resolve(d);
    if (dir === out) throw new MergeError(`--out ${outDir} is also an input: merge into a new directory`);
    const file = join(dir, 'results.jsonl');
    if (!existsSync(file)) throw new MergeError(`${dir} holds no results.jsonl: not a benchmark result directory`);
    return { dir, results: readResults(file) };
  });
  if (existsSync(join(out, 'results.jsonl'))) throw new MergeError(`${join(out, 'results.jsonl')} exists: merge into a new or empty directory`);
  const sourceOf = new Map<RunResult, string>();
  for (const input of inputs) for (const r of input.results) sourceOf.set(r, input.dir);
  const outcome = mergeResults(inputs, options);
  mkdirSync(out, { recursive: true });
  for (const r of outcome.results) {
    const from = runDirPath(sourceOf.get(r) as string, r.scenario, r.scheme, r.repetition);
    if (existsSync(from)) cpSync(from, runDirPath(out, r.scenario, r.scheme, r.repetition), { recursive: true });
  }
  writeFileSync(join(out, 'results.jsonl'), outcome.results.map((r) => `${JSON.stringify(r)}\n`).join(''));
  writeFileSync(join(out, 'merged-from.json'), `${JSON.stringify({ inputs: inputs.map((i) => i.dir), runs: outcome.results.map((r) => ({ run_id: r.run_id, from: sourceOf.get(r) })) }, null, 2)}\n`);
  return outcome;
}
