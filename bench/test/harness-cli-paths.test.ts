// Paths on npm command lines mean what the user typed (issue 15): relative to the directory the command ran in,
// also from a folder that is no workspace (the root script's nested npm passes it on as PCC_USER_CWD) and from
// inside a workspace (npm's INIT_CWD). Runs nothing heavy: --list, a 1 s simulation.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { PLAYER_OPTION_PARAMS } from '@pcc-stream/player/session-params';

const repoRoot = resolve(import.meta.dirname, '..', '..');

function npm(cwd: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  // As a user's shell: nothing inherited from this test's own npm run.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$|PCC_USER_CWD$)/.test(k)));
  const r = spawnSync('npm', ['run', '-s', ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('bench --scenario and sim --trace/--csv resolve against the folder the command ran in', (t) => {
  const outside = join(repoRoot, 'results', `cli-paths-${process.pid}`); // in no workspace: root scripts, nested npm
  mkdirSync(outside, { recursive: true });
  t.after(() => rmSync(outside, { recursive: true, force: true }));

  const fromOutside = npm(outside, ['bench', '--', '--scenario', '../../bench/scenarios/lte-tmobile-short-40s.json', '--schemes', 'vivace', '--list', '--out', 'r']);
  assert.equal(fromOutside.status, 0, fromOutside.stderr);
  assert.equal(fromOutside.stdout.trim(), 'lte-tmobile-short/vivace/1');

  const inWorkspace = npm(join(repoRoot, 'bench', 'harness'), ['bench', '--', '--scenario', '../scenarios/lte-tmobile-short-40s.json', '--schemes', 'vivace', '--list', '--out', 'r']);
  assert.equal(inWorkspace.status, 0, inWorkspace.stderr);
  assert.equal(inWorkspace.stdout.trim(), 'lte-tmobile-short/vivace/1');

  const missing = npm(outside, ['bench', '--', '--scenario', 'bench/scenarios/lte-tmobile-short-40s.json', '--list', '--out', 'r']);
  assert.equal(missing.status, 2, 'a path relative to the repository root is not found from elsewhere');
  assert.match(missing.stderr, new RegExp(`${outside}/bench/scenarios/lte-tmobile-short-40s.json: cannot read scenario file`));

  // The compressed trace (TMobile-LTE-driving.down is stored as .gz) by its plain name, and the CSV beside the user.
  const sim = npm(outside, ['sim', '--', '--cc', 'vivace', '--trace', '../../bench/traces/TMobile-LTE-driving.down', '--duration-s', '1', '--csv', 'series.csv', '--json']);
  assert.equal(sim.status, 0, sim.stderr);
  assert.ok((JSON.parse(sim.stdout) as { capacity_mbps: number }).capacity_mbps > 0);
  assert.ok(existsSync(join(outside, 'series.csv')), 'the CSV lands in the folder the command ran in');
});

test('bench --player-param: a player option reaches the run plan; an unknown name or value is refused, naming it', () => {
  const list = (param: string) => npm(repoRoot, ['bench', '--', '--suite', 'smoke', '--schemes', 'vivace', '--list', '--out', 'r', '--player-param', param]);
  const ok = list('abrThroughput=dashjs');
  assert.equal(ok.status, 0, ok.stderr);
  // The page ignores a name it does not know: without this check a typo would be recorded as in effect.
  const typo = list('abrthroughput=dashjs');
  assert.equal(typo.status, 2);
  // The error names every option the page takes (the player's own list, so a new option needs no edit here).
  assert.ok(
    typo.stderr.includes(`--player-param abrthroughput=dashjs: abrthroughput is not a player option a benchmark sets (one of: ${Object.keys(PLAYER_OPTION_PARAMS).join(', ')};`),
    typo.stderr,
  );
  assert.ok(Object.keys(PLAYER_OPTION_PARAMS).includes('abrThroughput'));
  const value = list('abrThroughput=ewma');
  assert.equal(value.status, 2);
  assert.match(value.stderr, /--player-param abrThroughput=ewma: abrThroughput must be one of harmonic, dashjs/);
  const harness = list('cc=cubic');
  assert.equal(harness.status, 2);
  assert.match(harness.stderr, /cc is not a player option a benchmark sets/);
});
