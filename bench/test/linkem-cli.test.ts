// Clear errors, before anything is created: bad flags, bad traces (checked by the TS side and,
// independently, by the C forwarder), no CAP_NET_ADMIN, no /dev/net/tun. Plus the pure
// helpers: trace parsing, opportunity counting, mm-link log reading.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { FORWARDER_PATH, opportunitiesBetween, parseCommandLine, parseMmLog, parseTrace, startLinkem, TraceError, traceMeanRateBps, UsageError } from '../linkem/src/driver/index.ts';
import { tempDir } from './linkem-helpers.ts';

const CLI = join(import.meta.dirname, '..', 'linkem', 'cli.ts');
let dir: ReturnType<typeof tempDir>;
const traces: Record<string, string> = {};

before(() => {
  dir = tempDir('linkem-cli-');
  const files: Record<string, string> = {
    empty: '',
    decreasing: '1\n5\n3\n',
    nonNumeric: '1\n2ms\n3\n',
    negative: '1\n-2\n',
    zeroLength: '0\n0\n',
    good: '1\n1\n3\n',
  };
  for (const [name, text] of Object.entries(files)) {
    traces[name] = join(dir.path, `${name}.trace`);
    writeFileSync(traces[name], text);
  }
});
after(() => dir.remove());

const namespaces = (): string[] => (existsSync('/run/netns') ? readdirSync('/run/netns').sort() : []);

function cli(args: string[], wrap: string[] = []): { code: number | null; stderr: string; stdout: string } {
  const command = [...wrap, process.execPath, '--import', 'tsx', CLI, ...args];
  const r = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', timeout: 20000 });
  return { code: r.status, stderr: r.stderr, stdout: r.stdout };
}

const badTraceCases: [string, RegExp][] = [
  ['empty', /: empty file/],
  ['decreasing', /:3: timestamp decreases/],
  ['nonNumeric', /:2: expected a non-negative integer/],
  ['negative', /:2: expected a non-negative integer/],
  ['zeroLength', /last timestamp is 0/],
];

for (const [name, message] of badTraceCases) {
  test(`bad trace (${name}) is refused with a clear message by the API and by the forwarder`, async () => {
    const before = namespaces();
    await assert.rejects(startLinkem({ downTrace: traces[name]! }), (e: Error) => e instanceof TraceError && message.test(e.message));
    const direct = spawnSync(FORWARDER_PATH, ['--up-trace', traces[name]!], { encoding: 'utf8', timeout: 10000 });
    assert.equal(direct.status, 2, direct.stderr);
    assert.match(direct.stderr, message);
    assert.deepEqual(namespaces(), before, 'a namespace was created despite the error');
  });
}

test('the CLI reports a bad trace and exits 2', () => {
  const r = cli(['--down', traces.decreasing!, '--', 'true']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /:3: timestamp decreases/);
});

const badFlagCases: [string[], RegExp][] = [
  [['--bogus', '1'], /unknown flag --bogus/],
  [['--loss-down', '2'], /--loss-down needs a number in \[0, 1\]/],
  [['--down-mbps', 'fast'], /--down-mbps needs a number/],
  [['--delay-ms', '-1'], /--delay-ms needs a number/],
  [['--delay-ms', '5', '--rtt-pattern', '10:100:5:1'], /exclude each other/],
  [['--rtt-pattern', '100:10:5:1'], /--rtt-pattern needs/],
  [['--queue-down', 'droptail'], /needs --queue-down-args packets=N and\/or bytes=N/],
  [['--queue-up', 'red'], /--queue-up must be one of/],
  [['--queue-down', 'droptail', '--queue-down-args', 'pkts=3'], /--queue-down-args: expected/],
  [['--down', 'a', '--down-mbps', '3'], /not both/],
  [['--delay-ms'], /--delay-ms needs a value/],
  [['stray'], /unexpected argument .*stray.* \(put the command after --\)/],
];

for (const [args, message] of badFlagCases) {
  test(`bad flags ${args.join(' ')} are refused with a clear message`, () => {
    assert.throws(() => parseCommandLine([...args, '--', 'true']), (e: Error) => e instanceof UsageError && message.test(e.message));
  });
}

test('the CLI prints the error and the usage for bad flags, exit 2', () => {
  const r = cli(['--loss-down', '2', '--', 'true']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--loss-down needs a number in \[0, 1\]/);
  assert.match(r.stderr, /usage: npm run -s linkem/);
});

test('the forwarder refuses bad queue arguments and options by itself', () => {
  for (const [args, message] of [
    [['--queue-down', 'droptail', '--queue-down-args', 'packets=0'], /must be > 0/],
    [['--queue-down', 'infinite', '--queue-down-args', 'packets=5'], /infinite queue takes no/],
    // Found by the linkem-options fuzz target: milliseconds beyond 2^64 / 1000 wrapped when stored as microseconds.
    [['--queue-down', 'codel', '--queue-down-args', 'interval=495555555555555559'], /codel interval must be at most 3600000 ms/],
    [['--queue-up', 'codel', '--queue-up-args', 'target=999999999999999999'], /codel target must be at most 3600000 ms/],
    [['--loss-up', 'x'], /--loss-up needs a probability/],
    [['--nope'], /unknown or incomplete option/],
  ] as const) {
    const r = spawnSync(FORWARDER_PATH, [...args], { encoding: 'utf8', timeout: 10000 });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, message);
  }
});

test('--help prints the usage and exits 0', () => {
  const r = cli(['--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /MAHIMAHI_BASE/);
});

test('without CAP_NET_ADMIN: a clear error, exit 3, nothing created', () => {
  const before = namespaces();
  const r = cli(['--', 'true'], ['setpriv', '--bounding-set', '-net_admin', '--inh-caps', '-net_admin', '--']);
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /needs root \(CAP_NET_ADMIN\)/);
  const direct = spawnSync('setpriv', ['--bounding-set', '-net_admin', '--inh-caps', '-net_admin', '--', FORWARDER_PATH], { encoding: 'utf8' });
  assert.equal(direct.status, 3);
  assert.match(direct.stderr, /needs root \(CAP_NET_ADMIN\)/);
  assert.deepEqual(namespaces(), before);
});

test('without /dev/net/tun: a clear error, exit 3', () => {
  // a private mount namespace where /dev/net is an empty tmpfs
  const r = spawnSync('unshare', ['-m', 'sh', '-c', `mount -t tmpfs tmpfs /dev/net && exec "${process.execPath}" --import tsx "${CLI}" -- true`], { encoding: 'utf8', timeout: 20000 });
  assert.equal(r.status, 3, r.stderr);
  assert.match(r.stderr, /\/dev\/net\/tun is missing/);
});

test('parseCommandLine keeps everything after -- as the command', () => {
  const p = parseCommandLine(['--down-mbps', '12', '--delay-ms', '20', '--', 'curl', '--max-time', '3', 'http://x/']);
  assert.deepEqual(p.command, ['curl', '--max-time', '3', 'http://x/']);
  assert.equal(p.options.downMbps, 12);
  assert.equal(p.options.delayMs, 20);
  assert.throws(() => parseCommandLine(['--seed', '1.5']), UsageError);
});

test('trace helpers: parsing, looping opportunity counts, mean rate', () => {
  const t = parseTrace('1\n1\n3\n');
  assert.deepEqual(t, [1, 1, 3]);
  // opportunities at 1,1,3 | 4,4,6 | 7,7,9 ...
  assert.equal(opportunitiesBetween(t, 0, 3), 2);
  assert.equal(opportunitiesBetween(t, 0, 3.5), 3);
  assert.equal(opportunitiesBetween(t, 3.5, 9.5), 6);
  assert.equal(opportunitiesBetween(t, 0, 3000), 2999); // the opportunity at exactly 3000 is not before it
  assert.equal(opportunitiesBetween(t, 0, 3000.5), 3000);
  assert.equal(traceMeanRateBps(t), (3 * 1504 * 8 * 1000) / 3);
  assert.throws(() => parseTrace('2\n1\n'), /decreases/);
});

test('mm-link log reader', () => {
  const log = parseMmLog('# mahimahi mm-link (downlink) [x] > y\n# queue: droptail [packets=5]\n# base timestamp: 0\n3 + 1504\n4 # 1504\n4 - 1504 1\n5 d 1 1504\n');
  assert.equal(log.header.queue, 'droptail [packets=5]');
  assert.deepEqual(log.events.map((e) => e.kind), ['arrival', 'opportunity', 'departure', 'drop']);
  assert.deepEqual(log.events[2], { tMs: 4, kind: 'departure', bytes: 1504, delayMs: 1 });
});
