// Everything the project needs is in the repository (issue 15): no tracked file outside bench/published refers to
// a path outside the checkout, so a clone on its own, in a directory with no parent folders, runs every suite.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const repoRoot = resolve(import.meta.dirname, '..', '..');
/** Published results record where they were made; they are history, not instructions. */
const EXEMPT = ['bench/published/'];
/** Folders outside any checkout that this project once read from, named anywhere. */
const OUTSIDE = [/(^|[^\w.])\.\.\/shared\b/, /\/work\/shared\b/, /\/work\/main\b/];
/**
 * Reviewed exceptions: a literal in one file that looks like a path out of the repository but is not one the project
 * reads. Each exempts only lines of that file containing that exact literal; an entry that no longer matches a
 * finding fails the test below, so the list cannot outlive its reason.
 */
const ALLOWED: ReadonlyArray<{ file: string; literal: string; why: string }> = [
  {
    file: 'bench/harness/faults/hostile-client.ts',
    literal: `'/${'../'.repeat(4)}etc/passwd'`, // built from parts, so this file does not hold it
    why: 'a path-traversal attack string the hostile client sends to the origin (faults suite, garbage case); the origin must refuse it',
  },
];

/** The ways `file` (a repository-relative path) refers outside the repository, one message per finding. */
function outsideReferences(file: string, text: string): string[] {
  const found: string[] = [];
  const depth = file.split('/').length - 1; // folders between the repository root and the file
  text.split('\n').forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    if (ALLOWED.some((a) => a.file === file && line.includes(a.literal))) return;
    for (const pattern of OUTSIDE) if (pattern.test(line)) found.push(`${where}: names a folder outside the repository: ${line.trim()}`);
    // Relative paths climb from the file's folder: three "../" in a file of bench/scenarios/ leave the repository,
    // and so do three '..' arguments of join(import.meta.dirname, …) in bench/test/.
    for (const m of line.matchAll(/(?:\.\.\/)+/g)) {
      if (m[0].length / 3 > depth) found.push(`${where}: climbs ${m[0].length / 3} folders from depth ${depth}: ${line.trim()}`);
    }
    for (const m of line.matchAll(/(?:(['"])\.\.\1\s*,\s*)+(?:(['"])\.\.\2)?/g)) {
      const climbs = m[0].match(/\.\./g)?.length ?? 0;
      if (climbs > depth) found.push(`${where}: climbs ${climbs} folders from depth ${depth}: ${line.trim()}`);
    }
  });
  return found;
}

function trackedTextFiles(): Array<{ file: string; text: string }> {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' }).split('\0').filter(Boolean);
  const out: Array<{ file: string; text: string }> = [];
  for (const file of listed) {
    if (EXEMPT.some((prefix) => file.startsWith(prefix))) continue;
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(repoRoot, file));
    } catch {
      continue; // deleted in the working tree, not yet committed
    }
    if (bytes.includes(0) || file.endsWith('.gz')) continue; // binary
    out.push({ file, text: bytes.toString('utf8') });
  }
  return out;
}

test('the check finds each kind of outside reference (so a clean result means something)', () => {
  // Built from parts, so this file does not contain what it looks for.
  const up = (n: number) => '../'.repeat(n);
  const args = (n: number) => Array.from({ length: n }, () => "'..'").join(', ');
  const shared = ['..', 'shared'].join('/');
  const traceSet = ['shared', 'traces'].join('/');
  const machine = ['', 'work', 'shared'].join('/');
  assert.equal(outsideReferences('bench/scenarios/x.json', `{"trace": "${up(3)}${traceSet}/T.down"}`).length, 2);
  assert.equal(outsideReferences('bench/scenarios/x.json', `{"trace": "${up(3)}elsewhere/T.down"}`).length, 1);
  assert.equal(outsideReferences('bench/scenarios/x.json', `{"trace": "${up(1)}traces/T.down"}`).length, 0);
  assert.equal(outsideReferences('bench/test/t.ts', `join(import.meta.dirname, ${args(3)}, 'data')`).length, 1);
  assert.equal(outsideReferences('bench/test/t.ts', `join(import.meta.dirname, ${args(2)}, 'bench')`).length, 0);
  assert.equal(outsideReferences('README.md', `npm run -s sim -- --trace ${machine}/traces/V.down`).length, 1);
  assert.equal(outsideReferences('README.md', 'npm run -s sim -- --trace bench/traces/V.down').length, 0);
  assert.equal(outsideReferences('bench/linkem/README.md', `--down ${shared}/traces/T.down`).length, 1);
});

test('every ALLOWED entry still exempts a line that would otherwise be flagged, and only in its own file', () => {
  for (const entry of ALLOWED) {
    assert.ok(entry.why.length > 20, `${entry.file}: say why ${entry.literal} is allowed`);
    const text = readFileSync(join(repoRoot, entry.file), 'utf8');
    const lines = text.split('\n').filter((line) => line.includes(entry.literal));
    assert.ok(lines.length > 0, `${entry.file} no longer contains ${entry.literal}: remove its ALLOWED entry`);
    // The same line in any other file is still a finding.
    assert.ok(lines.every((line) => outsideReferences('elsewhere/x/y.ts', line).length > 0), `${entry.literal} is no finding: remove its ALLOWED entry`);
  }
});

test('no tracked file outside bench/published refers to a path outside the repository', () => {
  const files = trackedTextFiles();
  assert.ok(files.length > 100, `only ${files.length} tracked text files: is this a git checkout?`);
  const found = files.flatMap(({ file, text }) => outsideReferences(file, text));
  assert.deepEqual(found, []);
});

test('every trace a shipped scenario file names resolves inside the repository', () => {
  const scenarios = trackedTextFiles().filter(({ file }) => file.startsWith('bench/scenarios/') && file.endsWith('.json'));
  assert.ok(scenarios.length > 0);
  for (const { file, text } of scenarios) {
    const link = (JSON.parse(text) as { link?: Record<string, { trace?: string }> }).link ?? {};
    for (const [direction, spec] of Object.entries(link)) {
      if (typeof spec?.trace !== 'string') continue;
      const target = relative(repoRoot, resolve(repoRoot, dirname(file), spec.trace));
      assert.ok(!target.startsWith('..') && !resolve(target).startsWith('/..'), `${file} link.${direction}.trace ${spec.trace} leaves the repository`);
      assert.ok(!spec.trace.startsWith('/'), `${file} link.${direction}.trace: an absolute path (${spec.trace}) exists on one machine only`);
    }
  }
});
