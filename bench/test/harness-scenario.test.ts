import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenarioFile, parseScenario, ScenarioError } from '../harness/scenario.ts';
import { SUITES, suiteScenarios } from '../harness/suites.ts';
import { scratchDir } from './scratch-dir.ts';

const valid = {
  name: 'changing-rtt-8mbps',
  duration_s: 120,
  repetitions: 3,
  link: { down: { rate_mbps: 8.8 }, up: { trace: 'traces/x.up' }, queue: { type: 'droptail', bytes: 300000 } },
  delay: { rtt_pattern: { min_ms: 10, max_ms: 100, period_s: 5, seed: 1 } },
  loss: { down: 0.0001, up: 0 },
  media: { abr: false, bitrate_mbps: 8 },
  players: 1,
  schemes: ['vivace', 'tcp-cubic'],
};

test('the issue-6 scenario shape parses into typed fields, trace paths resolved against the file', () => {
  const s = parseScenario(valid, '/data');
  assert.equal(s.name, 'changing-rtt-8mbps');
  assert.deepEqual(s.link.down, { rateMbps: 8.8 });
  assert.deepEqual(s.link.up, { tracePath: '/data/traces/x.up' });
  assert.deepEqual(s.link.queue, { type: 'droptail', bytes: 300000 });
  assert.deepEqual(s.delay, { rttPattern: { minMs: 10, maxMs: 100, periodS: 5, seed: 1 } });
  assert.deepEqual(s.media, { abr: false, bitrateMbps: 8, segmentS: 2, vbr: false });
  assert.deepEqual(s.schemes, ['vivace', 'tcp-cubic']);
  assert.equal(s.mode, 'browser');
});

test('scheme aliases (cc@transport) are stored as the registry\'s canonical names', () => {
  const s = parseScenario({ ...valid, schemes: ['vivace@datagram', 'cubic@tcp', 'tcp-cubic', 'newreno@quic-stream'] }, '/data');
  assert.deepEqual(s.schemes, ['vivace', 'tcp-cubic', 'quic-newreno']);
});

test('bad scenarios are rejected with the field named', () => {
  const cases: Array<[unknown, RegExp]> = [
    [{ ...valid, name: '../etc' }, /scenario\.name/],
    [{ ...valid, duration_s: -1 }, /duration_s.*\[1,/],
    [{ ...valid, duration_s: 'long' }, /duration_s: expected a finite number/],
    [{ ...valid, schemes: ['vivace', 'reno'] }, /schemes\[1\]: unknown scheme "reno"/],
    [{ ...valid, schemes: [] }, /schemes: expected a non-empty array/],
    [{ ...valid, link: { ...valid.link, down: { rate_mbps: 5, trace: 'x' } } }, /either rate_mbps or trace/],
    [{ ...valid, link: { ...valid.link, queue: { type: 'droptail' } } }, /needs "bytes" and\/or "packets"/],
    [{ ...valid, link: { ...valid.link, queue: { type: 'red', bytes: 1 } } }, /queue\.type/],
    [{ ...valid, loss: { down: 1.5 } }, /loss\.down/],
    [{ ...valid, delay: { rtt_pattern: { min_ms: 50, max_ms: 10, period_s: 5 } } }, /max_ms/],
    [{ ...valid, colour: 'blue' }, /scenario\.colour: unknown field/],
    [{ ...valid, media: { abr: false } }, /bitrate_mbps/],
    [[1, 2], /scenario: expected an object/],
  ];
  for (const [input, message] of cases) {
    assert.throws(() => parseScenario(input, '/'), (error: unknown) => error instanceof ScenarioError && message.test(error.message), `expected ${message}`);
  }
});

test('scenario files: missing, not JSON, and valid', (t) => {
  const dir = scratchDir(t, 'pcc-scenario');
  assert.throws(() => loadScenarioFile(join(dir, 'nope.json')), /cannot read scenario file \(ENOENT\)/);
  writeFileSync(join(dir, 'bad.json'), '{ "name": ');
  assert.throws(() => loadScenarioFile(join(dir, 'bad.json')), /not valid JSON/);
  writeFileSync(join(dir, 'good.json'), JSON.stringify(valid));
  assert.equal(loadScenarioFile(join(dir, 'good.json')).link.up.constructor, Object);
  assert.deepEqual(loadScenarioFile(join(dir, 'good.json')).link.up, { tracePath: join(dir, 'traces/x.up') });
});

test('every built-in suite yields valid scenarios with the seed parameters', () => {
  for (const name of Object.keys(SUITES)) assert.ok(suiteScenarios(name).length > 0, name);
  const changing = suiteScenarios('seed-changing-rtt');
  const eight = changing.find((s) => s.name === 'changing-rtt-8mbps');
  assert.ok(eight);
  assert.deepEqual(eight.link.down, { rateMbps: 8.8 });
  assert.deepEqual(eight.link.queue, { type: 'droptail', bytes: 300000 });
  assert.deepEqual(eight.delay, { rttPattern: { minMs: 10, maxMs: 100, periodS: 5, seed: 1 } });
  assert.equal(eight.loss.down, 0.0001);
  const multi = suiteScenarios('seed-multiflow')[0];
  assert.ok(multi);
  assert.equal(multi.players, 3);
  assert.deepEqual(multi.link.queue, { type: 'droptail', bytes: 75000 });
  assert.deepEqual(multi.delay, { oneWayMs: 50 });
  // The cheaper picture at the same bitrate (multiflow-floor: the default one's decoding starved the transport).
  assert.deepEqual(multi.media, { abr: false, bitrateMbps: 8, segmentS: 2, vbr: false, picture: { width: 320, height: 180, framesPerSecond: 10 } });
  assert.throws(() => suiteScenarios('nope'), /unknown suite "nope"/);
});

test('the shipped scenario files (bench/scenarios) parse, and their trace files exist', async () => {
  const { readdirSync, existsSync } = await import('node:fs');
  const dir = join(import.meta.dirname, '..', 'scenarios');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  assert.ok(files.length >= 3);
  for (const file of files) {
    const s = loadScenarioFile(join(dir, file));
    for (const d of [s.link.down, s.link.up]) if ('tracePath' in d) assert.ok(existsSync(d.tracePath), `${file}: ${d.tracePath}`);
  }
});

test('trace paths in a scenario file are relative to that file, wherever the command runs; NAME finds a stored NAME.gz', async (t) => {
  const { mkdirSync, readFileSync } = await import('node:fs');
  const { gzipSync } = await import('node:zlib');
  const dir = scratchDir(t, 'pcc-scenario');
  mkdirSync(join(dir, 'scenarios'));
  mkdirSync(join(dir, 'traces'));
  const text = `1\n2\n3\n# ${dir}\n`; // unique content, so the cache entry is this test's
  writeFileSync(join(dir, 'traces', 'x.down.gz'), gzipSync(text));
  writeFileSync(join(dir, 'traces', 'x.up'), '5\n');
  writeFileSync(join(dir, 'scenarios', 's.json'), JSON.stringify({ ...valid, link: { ...valid.link, down: { trace: '../traces/x.down' }, up: { trace: '../traces/x.up' } } }));
  const cwd = process.cwd();
  try {
    process.chdir(tmpdir()); // not the scenario's folder: the file's location decides
    const s = loadScenarioFile(join(dir, 'scenarios', 's.json'));
    assert.deepEqual(s.link.up, { tracePath: join(dir, 'traces', 'x.up') });
    assert.ok('tracePath' in s.link.down && s.link.down.tracePath.includes('/.cache/traces/'), JSON.stringify(s.link.down));
    assert.equal(readFileSync((s.link.down as { tracePath: string }).tracePath, 'utf8'), text);
  } finally {
    process.chdir(cwd);
  }
});

test('the lte suite reads every trace from the repository (bench/traces), compressed ones included', async () => {
  const { existsSync } = await import('node:fs');
  const scenarios = suiteScenarios('lte');
  assert.equal(scenarios.length, 4);
  for (const s of scenarios) {
    for (const d of [s.link.down, s.link.up]) {
      assert.ok('tracePath' in d, s.name);
      assert.ok(existsSync(d.tracePath), `${s.name}: ${d.tracePath}`);
      const inRepo = d.tracePath.startsWith(join(import.meta.dirname, '..', 'traces') + '/') || d.tracePath.startsWith(join(import.meta.dirname, '..', '..', '.cache', 'traces') + '/');
      assert.ok(inRepo, `${s.name}: ${d.tracePath} is outside the repository`);
    }
  }
});

test('controller_params: per datagram scheme, finite numbers, reaching the player URL as cc.<name>', async () => {
  const { playerUrl } = await import('../harness/run-browser.ts');
  const s = parseScenario({ ...valid, controller_params: { vivace: { epsilon_min: 0.02, epsilon_min_on_reversal: 1 } } }, '/data');
  assert.deepEqual(s.controllerParams, { vivace: { epsilon_min: 0.02, epsilon_min_on_reversal: 1 } });
  assert.deepEqual(parseScenario(valid, '/data').controllerParams, {});
  const ports = { host: '10.0.0.1', webTransportPort: 4433, httpPort: 8080, httpsPort: 8443, tcpPort: 8081 };
  const url = new URL(playerUrl(ports, 'vivace', s));
  assert.equal(url.searchParams.get('cc.epsilon_min'), '0.02');
  assert.equal(url.searchParams.get('cc.epsilon_min_on_reversal'), '1');
  assert.equal(new URL(playerUrl(ports, 'tcp-cubic', s)).searchParams.get('cc.epsilon_min'), null); // other schemes: none
  // The TCP schemes take the plain-HTTP baseline's port (no certificate step in the browser).
  assert.equal(new URL(playerUrl(ports, 'tcp-cubic', s)).searchParams.get('tcpPort'), '8081');
  const bad = (controller_params: unknown, pattern: RegExp) =>
    assert.throws(() => parseScenario({ ...valid, controller_params }, '/data'), (e: unknown) => e instanceof ScenarioError && pattern.test(e.message));
  bad({ 'tcp-cubic': { x: 1 } }, /controller_params\.tcp-cubic: .*datagram schemes only/);
  bad({ vivace: { epsilon_min: 'a' } }, /controller_params\.vivace\.epsilon_min: expected a finite number/);
  bad({ vivace: { 'Bad-Name': 1 } }, /controller_params\.vivace\.Bad-Name: expected a parameter name/);
  bad({ vivace: 3 }, /controller_params\.vivace: expected an object/);
});

test('player params (--player-param): reach every scheme\'s player URL; one the harness sets itself is refused', async () => {
  const { playerUrl } = await import('../harness/run-browser.ts');
  const ports = { host: '10.0.0.1', webTransportPort: 4433, httpPort: 8080, httpsPort: 8443, tcpPort: 8081 };
  const s = { ...parseScenario(valid, '/data'), playerParams: { abrThroughput: 'dashjs' } };
  for (const scheme of ['vivace', 'tcp-bbr'] as const) assert.equal(new URL(playerUrl(ports, scheme, s)).searchParams.get('abrThroughput'), 'dashjs');
  assert.equal(new URL(playerUrl(ports, 'vivace', parseScenario(valid, '/data'))).searchParams.get('abrThroughput'), null);
  assert.throws(() => playerUrl(ports, 'vivace', { ...s, playerParams: { cc: 'cubic' } }), /player parameter cc: the harness sets it itself/);
});

test('aided schemes: <scheme>+prefetch (aliases too) with the plain scheme\'s controller, parameters and the player\'s prefetch=1; bad aids are errors', async () => {
  const { playerUrl } = await import('../harness/run-browser.ts');
  const { controllerParamsFor, schemeTransport } = await import('../harness/schemes.ts');
  const s = parseScenario({
    name: 'aided', duration_s: 10, link: { down: { rate_mbps: 8 }, up: { rate_mbps: 8 } }, media: { abr: false, bitrate_mbps: 4 },
    schemes: ['vivace+prefetch', 'cubic@tcp+prefetch', 'vivace'], controller_params: { vivace: { epsilon_min: 0.02 } },
  }, '/tmp');
  assert.deepEqual(s.schemes, ['vivace+prefetch', 'tcp-cubic+prefetch', 'vivace']);
  assert.deepEqual(schemeTransport('tcp-cubic+prefetch'), { transport: 'tcp', cc: 'cubic' });
  assert.deepEqual(controllerParamsFor(s, 'vivace+prefetch'), { epsilon_min: 0.02 });
  const ports = { host: '10.0.0.1', webTransportPort: 4433, httpPort: 8080, httpsPort: 8443, tcpPort: 8081 };
  assert.equal(new URL(playerUrl(ports, 'tcp-cubic+prefetch', s)).searchParams.get('prefetch'), '1');
  assert.equal(new URL(playerUrl(ports, 'vivace', s)).searchParams.get('prefetch'), null);
  for (const bad of ['vivace+teleport', 'nope+prefetch', 'vivace+prefetch+prefetch']) {
    assert.throws(() => parseScenario({ name: 'x', duration_s: 10, link: { down: { rate_mbps: 8 }, up: { rate_mbps: 8 } }, schemes: [bad] }, '/tmp'), ScenarioError, bad);
  }
});
