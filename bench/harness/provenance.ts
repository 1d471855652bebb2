// What produced a result: the code (commit), the browser and player library, the machine. Recorded with every run so
// a result set, merged from several machines or read a year later, says where its numbers came from.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, release } from 'node:os';
import { join } from 'node:path';
import { chromiumPath } from '@pcc-stream/e2e/chromium';
import { repoRoot } from './repo-root.ts';

export interface Provenance {
  /** `git rev-parse HEAD` of the checkout; null outside a git checkout. */
  commit: string | null;
  /** Tracked files differ from the commit (`git status --porcelain --untracked-files=no` is not empty). */
  dirty: boolean | null;
  /** `chromium --version`, null when the browser is not installed (bulk runs need none). */
  chromium: string | null;
  dashjs: string | null;
  /** `uname -r`. */
  kernel: string;
  cpu_model: string;
  cpu_count: number;
  node: string;
}

function command(file: string, args: string[]): string | null {
  try {
    return execFileSync(file, args, { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** dash.js as the player resolves it (its package exports hide package.json, so look where Node would). */
function dashjsVersion(): string | null {
  for (const dir of [join(repoRoot, 'player', 'node_modules'), join(repoRoot, 'node_modules')]) {
    try {
      return (JSON.parse(readFileSync(join(dir, 'dashjs', 'package.json'), 'utf8')) as { version?: string }).version ?? null;
    } catch {
      // not installed here: try the next folder up
    }
  }
  return null;
}

export function collectProvenance(): Provenance {
  const commit = command('git', ['-C', repoRoot, 'rev-parse', 'HEAD']);
  const status = commit === null ? null : command('git', ['-C', repoRoot, 'status', '--porcelain', '--untracked-files=no']);
  const cpuList = cpus();
  return {
    commit,
    dirty: status === null ? null : status !== '',
    chromium: command(chromiumPath, ['--version']),
    dashjs: dashjsVersion(),
    kernel: release(),
    cpu_model: cpuList[0]?.model.trim() ?? 'unknown',
    cpu_count: cpuList.length,
    node: process.version,
  };
}

/** One line naming a provenance, for summaries: "commit abc1234 (dirty), Chromium …, dash.js 5.2.1, …". */
export function describeProvenance(p: Provenance): string {
  const commit = p.commit === null ? 'no git commit' : `commit ${p.commit.slice(0, 12)}${p.dirty ? ' (with uncommitted changes)' : ''}`;
  return `${commit}; ${p.chromium ?? 'no Chromium'}; dash.js ${p.dashjs ?? 'unknown'}; kernel ${p.kernel}; ${p.cpu_count} × ${p.cpu_model}; Node ${p.node}`;
}

/** Markdown lines listing each distinct provenance of a result set with its number of runs (most runs first). */
export function provenanceMarkdown(results: ReadonlyArray<{ provenance?: Provenance }>): string[] {
  const counts = new Map<string, number>();
  let unrecorded = 0;
  for (const r of results) {
    if (!r.provenance) unrecorded += 1;
    else {
      const line = describeProvenance(r.provenance);
      counts.set(line, (counts.get(line) ?? 0) + 1);
    }
  }
  const lines = [...counts.entries()].sort(([a, na], [b, nb]) => nb - na || (a < b ? -1 : a > b ? 1 : 0)).map(([line, n]) => `- ${n} run${n === 1 ? '' : 's'}: ${line}`);
  if (unrecorded > 0) lines.push(`- ${unrecorded} run${unrecorded === 1 ? '' : 's'} without provenance (written before results recorded it)`);
  return lines.length === 0 ? [] : ['Produced by:', '', ...lines, ''];
}
