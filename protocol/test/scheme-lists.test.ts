// One place for scheme names: fails when a package declares its own list of schemes or controllers instead of
// importing the registry (protocol/src/schemes.ts). It scans every TypeScript/JavaScript source of the repository for
// arrays of string literals, union types and "a|b" strings naming two or more registry spellings. In tests, where a
// few names are fixtures, only a copy of a whole transport's list counts (e.g. every WASM controller). What is left is
// reviewed below, each with its reason.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SCHEMES, SCHEME_TRANSPORTS, schemeSpellings, schemesOn } from '../src/index.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REGISTRY_FILE = 'protocol/src/schemes.ts';
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build', 'wasm-dist', 'target', '.cache', '.git', 'results']);
const SOURCE_FILE = /\.(ts|mts|mjs|js)$/;

/** Reviewed exceptions: `file` and the literal's text, and why it is not a second list. */
const FIGURE_ROWS = 'the algorithms one seed-paper figure compares, in the figure\'s order (a selection; present() skips any not built)';
const ALLOWED: ReadonlyArray<{ file: string; literal: string; why: string }> = [
  { file: 'server/bench/origin-bench.ts', literal: "['fixed', 'vivace']", why: 'the two controllers whose code paths the goodput bench warms up' },
  { file: 'server/native/index.d.ts', literal: "'none' | 'cubic' | 'bbr' | 'newreno'", why: 'the Rust addon\'s own declaration of what quinn implements (registry.c\'s counterpart)' },
  { file: 'server/native/test/congestion.test.ts', literal: "['none', 'cubic', 'bbr', 'newreno']", why: 'the addon\'s test of what it implements' },
  { file: 'controller-wasm/scripts/paper/figures.ts', literal: "['vivace', 'vivace-loss', 'allegro', 'bbr', 'cubic', 'pcp']", why: FIGURE_ROWS },
  { file: 'controller-wasm/scripts/paper/figures.ts', literal: "['vivace-loss', 'vivace', 'allegro', 'bbr', 'cubic', 'pcp']", why: FIGURE_ROWS },
  { file: 'controller-wasm/scripts/paper/figures.ts', literal: "['vivace', 'vivace-loss']", why: 'the two Vivace variants a figure\'s verdicts are about' },
  { file: 'controller-wasm/scripts/paper/figures.ts', literal: "['cubic', 'bbr']", why: 'the two baselines a figure\'s verdicts compare Vivace with' },
  { file: 'bench/harness/sim-video.ts', literal: "['allegro-latency', 'vivace', 'vivace-video']", why: 'the thesis\'s video scheme and ours, the ones sim:video holds against the best TCP (a selection)' },
  { file: 'bench/harness/suites.ts', literal: "['allegro-latency', 'vivace', 'tcp-cubic', 'tcp-bbr']", why: 'the thesis\'s video experiment (§5.2, Fig 5.1): its two PCC schemes and the kernel TCP it compares them with, a selection the -stream suites run' },
  { file: 'player/src/playground/url-config.ts', literal: "['vivace', 'cubic']", why: 'the playground\'s default pair of flows, a selection' },
  { file: 'bench/harness/soak/soak-plan.ts', literal: "['vivace', 'allegro', 'bbr', 'cubic', 'fixed']", why: 'the soak\'s session mix: PCC, two kernel-style baselines and fixed (whose pacing error the soak measures), a selection' },
  { file: 'bench/harness/sim-video.ts', literal: "['cubic', 'bbr']", why: 'the TCP baselines sim:video\'s reductions are measured against' },
];

/** Whole per-transport lists: in tests, a literal holding one of these completely is a copied list. */
const TRANSPORT_LISTS: ReadonlyArray<ReadonlySet<string>> = SCHEME_TRANSPORTS.flatMap((t) => [
  new Set(schemesOn(t).map((s) => s.cc)),
  new Set(schemesOn(t).map((s) => s.name)),
]).filter((list) => list.size >= 3);

/** Every spelling of every scheme, and every controller name on its transport. */
const NAMES = new Set(SCHEMES.flatMap((s) => [...schemeSpellings(s), s.cc]));

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) yield* sourceFiles(join(dir, entry.name));
    } else if (SOURCE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts.map')) {
      yield join(dir, entry.name);
    }
  }
}

/** Distinct registry names among the quoted strings of `text`. */
function namesIn(text: string): Set<string> {
  const found = new Set<string>();
  for (const m of text.matchAll(/(['"`])([a-z0-9@-]+)\1/g)) if (NAMES.has(m[2]!)) found.add(m[2]!);
  // "vivace|cubic" inside one string (help texts).
  for (const m of text.matchAll(/(['"`])([a-z0-9@|-]+\|[a-z0-9@|-]+)\1/g)) {
    for (const part of m[2]!.split('|')) if (NAMES.has(part)) found.add(part);
  }
  return found;
}

interface Finding { file: string; line: number; literal: string; names: string[] }

/** A source's own list: two or more names; in a test, a whole transport's list. */
function isList(names: Set<string>, inTest: boolean): boolean {
  if (!inTest) return names.size >= 2;
  return TRANSPORT_LISTS.some((list) => [...list].every((name) => names.has(name)));
}

function findLists(file: string, text: string, inTest: boolean): Finding[] {
  const findings: Finding[] = [];
  const patterns = [
    /\[\s*(['"`])[a-z0-9@-]+\1(?:\s*,\s*(['"`])[a-z0-9@-]+\2)*\s*,?\s*\]/g, // arrays of string literals
    /(?:(['"])[a-z0-9@-]+\1\s*\|\s*)+(['"])[a-z0-9@-]+\2/g, // union types: 'a' | 'b'
    /(['"`])[a-z0-9@-]+(?:\|[a-z0-9@-]+)+\1/g, // "a|b|c" strings
  ];
  for (const pattern of patterns) {
    for (const m of text.matchAll(pattern)) {
      const names = namesIn(m[0]);
      if (!isList(names, inTest)) continue;
      const literal = m[0].replace(/\s+/g, ' ');
      if (ALLOWED.some((a) => a.file === file && a.literal === literal)) continue;
      findings.push({ file, line: text.slice(0, m.index).split('\n').length, literal: literal.slice(0, 160), names: [...names] });
    }
  }
  return findings;
}

test('no package declares its own list of scheme or controller names', () => {
  const findings: Finding[] = [];
  let scanned = 0;
  for (const path of sourceFiles(repoRoot)) {
    const file = relative(repoRoot, path).split(sep).join('/');
    if (file === REGISTRY_FILE || file === 'protocol/test/scheme-lists.test.ts') continue;
    const isTest = /(^|\/)test\//.test(file);
    findings.push(...findLists(file, readFileSync(path, 'utf8'), isTest));
    scanned++;
  }
  assert.ok(scanned > 100, `scanned only ${scanned} files: is the repository root right (${repoRoot})?`);
  assert.deepEqual(findings.map((f) => `${f.file}:${f.line} ${f.literal}`), [],
    'import the names from @pcc-stream/protocol (SCHEMES, WASM_CONTROLLERS, schemesOn, ...) instead of listing them');
});

test('the scanner finds the lists it is meant to find', () => {
  const planted = [
    "const ccs = ['vivace', 'cubic'];",
    "type Cc = 'allegro' | 'pcp';",
    "help: 'vivace|vivace-loss|bbr'",
    "schemes: [\n  'tcp-cubic',\n  'quic-bbr',\n]",
    "compare: ['cubic@tcp', 'vivace']",
  ];
  for (const text of planted) assert.equal(findLists('x.ts', text, false).length, 1, text);
  for (const text of ["['vivace']", "['a', 'b']", "[f('vivace'), g('cubic')]"]) assert.equal(findLists('x.ts', text, false).length, 0, text);
  // In tests only a whole transport's list counts.
  assert.equal(findLists('x.test.ts', "['vivace', 'tcp-cubic', 'quic-bbr']", true).length, 0);
  assert.equal(findLists('x.test.ts', "for (const cc of ['cubic', 'bbr', 'newreno'])", true).length, 1);
  assert.equal(findLists('x.test.ts', "['vivace', 'vivace-loss', 'vivace-video', 'allegro', 'allegro-latency', 'pcp', 'cubic', 'bbr', 'fixed']", true).length, 1);
  assert.equal(findLists('player/src/playground/url-config.ts', "flows: ['vivace', 'cubic']", false).length, 0); // allowed above
});
