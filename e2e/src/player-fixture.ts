// Media, built player and player server for the tests: everything the page needs besides the origin.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startPlayerServer, type PlayerServer } from '@pcc-stream/player/serve';
import { repoRoot } from './origin-process.ts';

export const mediaDir = join(repoRoot, '.cache', 'media');
const playerDir = join(repoRoot, 'player');

/** Generates the ABR ladder if absent (idempotent) and builds the player if it is stale. */
export function preparePlayerAndMedia(): void {
  const media = spawnSync('npm', ['run', '-s', 'media', '--', '--sets', 'abr'], { cwd: repoRoot, stdio: 'inherit' });
  if (media.status !== 0) throw new Error('media generation failed');
  const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: playerDir, stdio: 'inherit' });
  if (build.status !== 0 || !existsSync(join(playerDir, 'dist', 'index.html'))) throw new Error('player build failed');
}

export function servePlayer(originHttpBase: string): Promise<PlayerServer> {
  return startPlayerServer({ distDir: join(playerDir, 'dist'), host: '127.0.0.1', port: 0, originHttpBase });
}
