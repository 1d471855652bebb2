// pcc-replay --check tells a defect from a recording of another controller build (README "Recording and replaying a
// session"): a recording names the build it was made with ("# controller-build ID"), pcc-replay knows its own
// (--build-id, computed by CMake from the library's sources), and a decision that differs is exit 1 only when the
// two are the same build; from another build, or one that names none (the kept recordings predate the line), it is
// exit 3 with a message saying so.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { controllerBuild, controllerSourceId } from '../../scripts/build-id.ts';
import { inputsOnly, REPLAY_BINARY } from '../../scripts/replay.ts';
import { assertBuildsFresh, LIBRARY_SOURCES } from './support/build-freshness.ts';

const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));
const DIR = join(PACKAGE_DIR, 'test/recordings');
const scratch = mkdtempSync(join(tmpdir(), 'replay-build-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Checked { status: number | null; summary: Record<string, unknown> | null; error: Record<string, unknown> | null; stderr: string }

function check(text: string, name: string): Checked {
  const path = join(scratch, name);
  writeFileSync(path, text);
  const r = spawnSync(REPLAY_BINARY, ['--check', path], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const out = r.stdout.trim();
  const err = r.stderr.trim().split('\n')[0] ?? '';
  return { status: r.status, summary: out ? JSON.parse(out) as Record<string, unknown> : null, error: err ? JSON.parse(err) as Record<string, unknown> : null, stderr: r.stderr };
}

function ownBuild(): string {
  if (REPLAY_BINARY === join(PACKAGE_DIR, 'build/pcc-replay')) assertBuildsFresh(['build/pcc-replay'], LIBRARY_SOURCES);
  const r = spawnSync(REPLAY_BINARY, ['--build-id'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

/** A kept recording's inputs with this build's own decisions as `expect` lines, written as the origin writes them
 *  (after the command that changed the pacing rate or cwnd), under the build line `build`. */
function recordedByThisBuild(build: string | null): string {
  const inputs = inputsOnly(readFileSync(join(DIR, 'vivace-10mbps-20ms-150kb-startup-return-path-gradient.replay'), 'utf8')).split('\n');
  const r = spawnSync(REPLAY_BINARY, [], { input: inputs.join('\n'), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.equal(r.status, 0, r.stderr);
  const after = new Map<number, string>();
  let last = '';
  for (const row of r.stdout.trim().split('\n')) {
    const o = JSON.parse(row) as { line: number; pacingRateBytesPerSec: number; cwndBytes: number };
    const decision = `expect ${o.pacingRateBytesPerSec} ${o.cwndBytes}`;
    if (decision !== last) after.set(o.line, decision);
    last = decision;
  }
  const body = inputs.flatMap((l, i) => (after.has(i + 1) ? [l, after.get(i + 1)!] : [l]));
  return [...(build === null ? [] : [`# ${build}`]), ...body].join('\n');
}

/** The same recording with one decision (the 20th) changed: a replay must miss it. */
function withWrongDecision(text: string): string {
  let n = 0;
  return text.split('\n').map((l) => (l.startsWith('expect ') && ++n === 20 ? l.replace(/^expect (\S+)/, (_, rate: string) => `expect ${Number(rate) * 2}`) : l)).join('\n');
}

test('the build id pcc-replay was compiled with is the one scripts/build-id.ts computes from the same sources', () => {
  assert.match(ownBuild(), /^[0-9a-f]{12}$/);
  assert.equal(ownBuild(), controllerSourceId());
});

test('pcc-replay --check: a miss in a recording of this build is a defect (exit 1), of another or no named build exit 3', () => {
  const build = ownBuild();
  const good = check(recordedByThisBuild(`controller-build ${build} (controller sources; WASM sha256 00000000)`), 'good.replay');
  assert.equal(good.status, 0, good.stderr);
  assert.ok((good.summary!.expects as number) > 20, `expects ${good.summary!.expects}`);
  assert.equal(good.summary!.recordedBuild, build);
  assert.equal(good.summary!.build, build);

  const defect = check(withWrongDecision(recordedByThisBuild(`controller-build ${build}`)), 'defect.replay');
  assert.equal(defect.status, 1, defect.stderr);
  assert.equal(defect.error!.message, 'decision differs');
  assert.equal(defect.error!.expectsMatched, 19);

  const other = check(withWrongDecision(recordedByThisBuild('controller-build 000000000000 (controller sources)')), 'other.replay');
  assert.equal(other.status, 3, other.stderr);
  assert.match(other.error!.message as string, /another controller build: not evidence of a defect/);
  assert.equal(other.error!.recordedBuild, '000000000000');
  assert.equal(other.error!.build, build);

  for (const [name, line] of [['none', null], ['unknown', 'controller-build unknown (WASM sha256 12345678 is older than the controller sources)']] as const) {
    const unnamed = check(withWrongDecision(recordedByThisBuild(line)), `${name}.replay`);
    assert.equal(unnamed.status, 3, unnamed.stderr);
    assert.match(unnamed.error!.message as string, /names no controller build/);
    assert.equal(unnamed.error!.recordedBuild, null);
  }
  // A recording of another build whose decisions this build still reaches passes.
  const reached = check(recordedByThisBuild('controller-build 000000000000'), 'reached.replay');
  assert.equal(reached.status, 0, reached.stderr);
  assert.equal(reached.summary!.recordedBuild, '000000000000');
});

test('the kept recordings name no build: --check reaches every decision or says the build differs, never a defect', () => {
  ownBuild();
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.replay'))) {
    const r = check(readFileSync(join(DIR, file), 'utf8'), file);
    assert.ok(r.status === 0 || r.status === 3, `${file}: exit ${r.status} ${r.stderr}`);
    assert.equal((r.summary ?? r.error)!.recordedBuild, null, file);
  }
});

test('the origin names the build of its WASM only when the WASM is newer than every controller source', () => {
  const pkg = join(scratch, 'package');
  for (const dir of ['wasm', 'wasm-dist']) mkdirSync(join(pkg, dir), { recursive: true });
  for (const dir of ['src', 'include']) cpSync(join(PACKAGE_DIR, dir), join(pkg, dir), { recursive: true });
  for (const f of ['wasm/event_batch.c', 'wasm/event_batch.h']) copyFileSync(join(PACKAGE_DIR, f), join(pkg, f));
  assert.equal(controllerSourceId(pkg), controllerSourceId(), 'the copy has the same sources');
  assert.equal(controllerBuild(pkg).id, null, 'no WASM');
  writeFileSync(join(pkg, 'wasm-dist/pcc_cc.wasm'), 'not really wasm');
  const fresh = controllerBuild(pkg);
  assert.equal(fresh.id, controllerSourceId());
  assert.match(fresh.note, new RegExp(`^controller-build ${fresh.id} \\(controller sources; WASM sha256 [0-9a-f]{8}\\)$`));
  const old = new Date(Date.now() - 3_600_000);
  utimesSync(join(pkg, 'wasm-dist/pcc_cc.wasm'), old, old);
  const stale = controllerBuild(pkg);
  assert.equal(stale.id, null);
  assert.match(stale.note, /^controller-build unknown \(WASM sha256 [0-9a-f]{8} is older than the controller sources\)$/);
  // A changed source changes the id.
  writeFileSync(join(pkg, 'src/algorithms/extra.c'), '/* one more file */\n');
  assert.notEqual(controllerSourceId(pkg), controllerSourceId());
});
