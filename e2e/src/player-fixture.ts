// Media and built player for the tests: everything the page needs besides the origin.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './repo-root.ts';

export const mediaDir = join(repoRoot, '.cache', 'media');
export const playerDist = join(repoRoot, 'player', 'dist');

/** Generates the ABR ladder and the 30 Mbit/s stream (for bench/receive-rate.ts) if absent (idempotent) and builds the
 *  player if stale. */
export function preparePlayerAndMedia(): void {
  // The generator's progress is JSON lines on stderr, passed on; its description of the sets and vite's report are not.
  run(['run', '-s', 'media', '--', '--sets', 'abr,fixed-30000k'], 'media generation', 'inherit');
  run(['run', '-s', 'build', '-w', 'player'], 'player build', 'pipe');
  if (!existsSync(join(playerDist, 'index.html'))) throw new Error('player build failed: no dist/index.html');
}

/** The tools' other output is shown only when they fail: a CLI using this fixture keeps its stdout (npm run
 *  screenshots prints the files it wrote) and its stderr's JSON log lines, whether or not the player was stale. */
function run(npmArgs: string[], what: string, stderr: 'inherit' | 'pipe'): void {
  const r = spawnSync('npm', npmArgs, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', stderr] });
  if (r.status !== 0) throw new Error(`${what} failed (${r.status ?? r.signal}):\n${(r.stdout ?? '').slice(-4000)}\n${(r.stderr ?? '').slice(-4000)}`);
}
