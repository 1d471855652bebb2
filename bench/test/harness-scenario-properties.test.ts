// Property-based fuzzing (fast-check) of scenario files (harness/scenario.ts): whatever JSON a file holds, and
// whatever bytes, parsing either gives a scenario or throws a ScenarioError naming the field, never anything else;
// the repository's own scenarios survive any single field replaced by junk only by refusing it or by keeping their
// meaning; a valid scenario's fields come back as given; out-of-range values are refused.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { ScenarioError, loadScenarioFile, parseScenario } from '../harness/scenario.ts';

const RUNS = 1000;
const scenariosDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'scenarios');
const shipped: Record<string, unknown>[] = readdirSync(scenariosDir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(scenariosDir, f), 'utf8')) as Record<string, unknown>);
const withTraces = shipped.find((s) => JSON.stringify(s.link).includes('"trace"'))!;

// A folder with a trace stored compressed but not gzip inside, and a folder named like a compressed trace.
const scratch = mkdtempSync(join(tmpdir(), 'pcc-scenario-properties-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
writeFileSync(join(scratch, 'broken.down.gz'), 'not gzip');
mkdirSync(join(scratch, 'folder.up.gz'));

/** parseScenario's contract: a Scenario, or a ScenarioError whose message names where (`scenario...: ...`). */
function parsesOrRefuses(value: unknown): void {
  try {
    parseScenario(value, scratch);
  } catch (error) {
    assert.ok(error instanceof ScenarioError, `threw ${String(error)} (${(error as Error)?.name})`);
    assert.match(error.message, /^scenario.*: ./s);
  }
}

const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, -1, 0, 1e309, -0.5, 1e12, '', 'broken.down', 'broken.down.gz', 'folder.up.gz', '../x', [], {}, true),
);
const fieldPaths = [
  ['name'], ['duration_s'], ['repetitions'], ['link'], ['link', 'down'], ['link', 'up'], ['link', 'down', 'rate_mbps'],
  ['link', 'up', 'trace'], ['link', 'down', 'trace'], ['link', 'queue'], ['link', 'queue', 'type'], ['link', 'queue', 'bytes'],
  ['link', 'queue', 'packets'], ['delay'], ['delay', 'one_way_ms'], ['delay', 'rtt_pattern'], ['delay', 'rtt_pattern', 'min_ms'],
  ['delay', 'rtt_pattern', 'max_ms'], ['delay', 'rtt_pattern', 'period_s'], ['loss'], ['loss', 'down'], ['media'], ['media', 'abr'],
  ['media', 'bitrate_mbps'], ['media', 'segment_s'], ['media', 'vbr'], ['media', 'mpd'], ['players'], ['schemes'], ['schemes', '0'],
  ['controller_params'], ['controller_params', 'vivace'], ['controller_params', 'vivace', 'epsilon_min'], ['mode'], ['__proto__'], ['extra'],
];

/** A copy of `value` with the field at `path` set to `replacement` (objects made on the way as needed). */
function withField(value: Record<string, unknown>, path: readonly string[], replacement: unknown): Record<string, unknown> {
  const copy = structuredClone(value);
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    if (typeof next !== 'object' || next === null) {
      const made: Record<string, unknown> = {};
      Object.defineProperty(at, key, { value: made, enumerable: true, writable: true, configurable: true });
      at = made;
    } else at = next as Record<string, unknown>;
  }
  // defineProperty, as JSON.parse does: "__proto__" becomes an own key, not the prototype.
  Object.defineProperty(at, path[path.length - 1]!, { value: replacement, enumerable: true, writable: true, configurable: true });
  return copy;
}

test('scenarios: any JSON value, and any shipped scenario with one field replaced by junk, parses or is refused with a ScenarioError', () => {
  fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), parsesOrRefuses), { numRuns: RUNS });
  fc.assert(fc.property(fc.constantFrom(...shipped), fc.constantFrom(...fieldPaths), junk, (scenario, path, replacement) => {
    parsesOrRefuses(withField(scenario, path, replacement));
  }), { numRuns: RUNS, examples: [[withTraces, ['link', 'down', 'trace'], 'broken.down.gz'], [withTraces, ['link', 'up', 'trace'], 'folder.up.gz']] }); // bad .gz once escaped as TraceFileError
});

test('scenario files: any bytes read as a scenario or a ScenarioError naming the file', () => {
  const file = join(scratch, 'fuzzed.json');
  fc.assert(fc.property(fc.oneof(fc.uint8Array({ maxLength: 300 }), fc.jsonValue().map((v) => new TextEncoder().encode(JSON.stringify(v)))), (bytes) => {
    writeFileSync(file, bytes);
    try {
      loadScenarioFile(file);
    } catch (error) {
      assert.ok(error instanceof ScenarioError, `threw ${String(error)}`);
      assert.ok(error.message.startsWith(file), error.message);
    }
  }), { numRuns: RUNS });
});

test('scenarios: valid fields come back as given; values out of their documented range are refused', () => {
  const valid = fc.record({
    name: fc.stringMatching(/^[A-Za-z0-9._-]{1,80}$/),
    duration_s: fc.double({ min: 1, max: 24 * 3600, noNaN: true }),
    down: fc.double({ min: 0.01, max: 10_000, noNaN: true }),
    up: fc.double({ min: 0.01, max: 10_000, noNaN: true }),
    one_way_ms: fc.double({ min: 0, max: 10_000, noNaN: true }),
    loss: fc.double({ min: 0, max: 1, noNaN: true }),
    players: fc.integer({ min: 1, max: 16 }),
  });
  fc.assert(fc.property(valid, (v) => {
    const s = parseScenario({
      name: v.name, duration_s: v.duration_s, players: v.players, loss: { down: v.loss },
      link: { down: { rate_mbps: v.down }, up: { rate_mbps: v.up } }, delay: { one_way_ms: v.one_way_ms },
    }, scratch);
    assert.deepEqual([s.name, s.durationS, s.players, s.loss.down, s.link.down, s.link.up, s.delay],
      [v.name, v.duration_s, v.players, v.loss, { rateMbps: v.down }, { rateMbps: v.up }, { oneWayMs: v.one_way_ms }]);
  }), { numRuns: RUNS });
  const base = shipped[0]!;
  const outOfRange = fc.oneof(
    fc.tuple(fc.constant(['duration_s']), fc.oneof(fc.double({ max: 0.999, noNaN: true }), fc.double({ min: 86400.001, noNaN: true }))),
    fc.tuple(fc.constant(['players']), fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 17 }))),
    fc.tuple(fc.constant(['loss', 'down']), fc.oneof(fc.double({ max: -1e-9, noNaN: true }), fc.double({ min: 1.000001, noNaN: true }))),
    fc.tuple(fc.constant(['link', 'down']), fc.double({ max: 0.0099, noNaN: true }).map((r) => ({ rate_mbps: r }))),
    fc.tuple(fc.constant(['name']), fc.string().filter((s) => !/^[A-Za-z0-9._-]{1,80}$/.test(s))),
  );
  fc.assert(fc.property(outOfRange, ([path, value]) => {
    assert.throws(() => parseScenario(withField(base, path, value), scratch), (e: unknown) => e instanceof ScenarioError && e.message.includes(path[0]!));
  }), { numRuns: RUNS });
});
