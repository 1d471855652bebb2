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
  const media = spawnSync('npm', ['run', '-s', 'media', '--', '--sets', 'abr,fixed-30000k'], { cwd: repoRoot, stdio: 'inherit' });
  if (media.status !== 0) throw new Error('media generation failed');
  const build = spawnSync('npm', ['run', '-s', 'build', '-w', 'player'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0 || !existsSync(join(playerDist, 'index.html'))) throw new Error('player build failed');
}
