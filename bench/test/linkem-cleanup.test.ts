// Lifecycle: the CLI runs a command with MAHIMAHI_BASE and passes its exit status on; SIGTERM,
// SIGINT and SIGKILL of the CLI leave no namespace, TUN device or process behind; a crashed
// forwarder's leftovers are reclaimed by the next instance; shells run side by side, isolated.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';

import { startLinkem } from '../linkem/src/driver/index.ts';
import { port, runProbe, tempDir } from './linkem-helpers.ts';

const CLI = join(import.meta.dirname, '..', 'linkem', 'cli.ts');

interface CliRun {
  child: ChildProcess;
  up: Promise<{ namespace: string; MAHIMAHI_BASE: string; forwarderPid: number }>;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** The CLI process ended (its output pipes may stay open in orphans). */
  exited: Promise<void>;
}

function runCli(args: string[]): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  let resolveUp: (v: { namespace: string; MAHIMAHI_BASE: string; forwarderPid: number }) => void = () => {};
  const up = new Promise<{ namespace: string; MAHIMAHI_BASE: string; forwarderPid: number }>((resolve) => (resolveUp = resolve));
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderr += `${line}\n`;
    if (line.includes('"emulated link up"')) resolveUp(JSON.parse(line) as { namespace: string; MAHIMAHI_BASE: string; forwarderPid: number });
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, up, done, exited };
}

const namespaceExists = (name: string): boolean => existsSync(`/run/netns/${name}`);
const interfaceExists = (name: string): boolean => existsSync(`/sys/class/net/${name}`);
const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    // a zombie still answers kill(0); it holds nothing
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};
/** Live processes whose command line contains `pattern` (what `pgrep -f` does, without procps). */
function pidsOf(pattern: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmdline.includes(pattern) && processAlive(Number(entry))) pids.push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  return pids;
}

async function eventually(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`${what} (after ${timeoutMs} ms)`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function assertAllGone(namespace: string, forwarderPid: number, marker: string): Promise<void> {
  await eventually(() => !namespaceExists(namespace), 5000, `namespace ${namespace} still exists`);
  await eventually(() => !interfaceExists(namespace), 5000, `TUN ${namespace} still exists`);
  await eventually(() => !processAlive(forwarderPid), 5000, `forwarder ${forwarderPid} still runs`);
  await eventually(() => pidsOf(marker).length === 0, 5000, `command "${marker}" still runs`);
}

test('the CLI gives the command MAHIMAHI_BASE, returns its exit status and removes everything', { timeout: 30000 }, async () => {
  const files = tempDir('linkem-cli-files-');
  try {
    const summaryPath = join(files.path, 'summary.json');
    const logPath = join(files.path, 'up.log');
    const script = [
      'sleep 0.5', // the test reads the host-side TUN's settings meanwhile
      'echo "base=$MAHIMAHI_BASE"',
      'echo "ipv6-off-inside=$(cat /proc/sys/net/ipv6/conf/$LINKEM_NAMESPACE/disable_ipv6)"',
      'echo "ipv6-addresses-inside=$(ip -6 addr show dev $LINKEM_NAMESPACE | wc -l)"',
      'ip -4 route',
      'exit 7',
    ].join('; ');
    const run = runCli(['--down-mbps', '50', '--up-mbps', '50', '--summary-json', summaryPath, '--log-up', logPath, '--', 'sh', '-c', script]);
    const up = await run.up;
    const hostIpv6Off = readFileSync(`/proc/sys/net/ipv6/conf/${up.namespace}/disable_ipv6`, 'utf8').trim();
    const r = await run.done;
    assert.equal(r.code, 7, r.stderr);
    assert.match(r.stdout, new RegExp(`base=${up.MAHIMAHI_BASE.replace(/\./g, '\\.')}\\n`));
    assert.match(up.MAHIMAHI_BASE, /^100\.110\.\d+\.\d+$/);
    assert.equal(hostIpv6Off, '1', 'IPv6 is on for the host-side TUN');
    assert.match(r.stdout, /ipv6-off-inside=1\n/);
    assert.match(r.stdout, /ipv6-addresses-inside=0\n/);
    // the only route inside leads to the host end of the link
    const routes = r.stdout.split('\n').filter((l) => /^\d/.test(l));
    assert.deepEqual(routes.map((l) => l.split(' ')[0]), [up.MAHIMAHI_BASE]);
    await assertAllGone(up.namespace, up.forwarderPid, 'no-such-marker-process');
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as { namespace: string; up: { ingressPackets: number }; down: { queueDelayMs: { p50: number; p95: number } } };
    assert.equal(summary.namespace, up.namespace);
    assert.equal(typeof summary.down.queueDelayMs.p95, 'number');
    assert.match(readFileSync(logPath, 'utf8'), /^# mahimahi mm-link \(uplink\) \[constant 50 Mbit\/s\] > /);
  } finally {
    files.remove();
  }
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} to the CLI stops the command and removes namespace, TUNs and processes`, { timeout: 30000 }, async () => {
    const marker = `sleep 61.${signal === 'SIGTERM' ? 1 : 2}`;
    const run = runCli(['--delay-ms', '5', '--', 'sh', '-c', `${marker}; true`]);
    const up = await run.up;
    assert.ok(namespaceExists(up.namespace) && interfaceExists(up.namespace));
    await eventually(() => pidsOf(marker).length > 0, 5000, 'command did not start');
    run.child.kill(signal);
    const r = await run.done;
    assert.notEqual(r.code, 0);
    await assertAllGone(up.namespace, up.forwarderPid, marker);
  });
}

test('SIGKILL of the CLI: the forwarder notices and removes everything itself', { timeout: 30000 }, async () => {
  const marker = 'sleep 61.3';
  const run = runCli(['--', 'sh', '-c', `${marker}; true`]);
  const up = await run.up;
  await eventually(() => pidsOf(marker).length > 0, 5000, 'command did not start');
  run.child.kill('SIGKILL');
  await run.done;
  await assertAllGone(up.namespace, up.forwarderPid, marker);
});

test('SIGKILL of CLI and forwarder: the next instance reclaims the leftovers', { timeout: 30000 }, async () => {
  const marker = 'sleep 61.4';
  const run = runCli(['--', 'sh', '-c', `${marker}; true`]);
  const up = await run.up;
  await eventually(() => pidsOf(marker).length > 0, 5000, 'command did not start');
  process.kill(up.forwarderPid, 'SIGKILL');
  run.child.kill('SIGKILL');
  await run.exited; // the orphaned command keeps the output pipes open until it is reclaimed
  await eventually(() => !processAlive(up.forwarderPid), 5000, 'forwarder survived SIGKILL');
  assert.ok(namespaceExists(up.namespace), 'expected a leftover namespace to reclaim');
  const logs: string[] = [];
  const next = await startLinkem({}, { onLog: (l) => logs.push(l) });
  try {
    assert.equal(next.namespace, up.namespace, 'the freed instance number is reused');
    assert.ok(logs.some((l) => l.includes('removed leftovers')), 'the reclaim was not reported');
    await eventually(() => pidsOf(marker).length === 0, 5000, 'leftover command still runs');
  } finally {
    await next.stop();
  }
  await assertAllGone(up.namespace, next.forwarderPid, marker);
});

test('--reclaim removes a dead instance without starting one, and leaves live ones alone', { timeout: 30000 }, async () => {
  const live = await startLinkem({}, { onLog: () => {} });
  try {
    const marker = 'sleep 61.5';
    const run = runCli(['--', 'sh', '-c', `${marker}; true`]);
    const up = await run.up;
    await eventually(() => pidsOf(marker).length > 0, 5000, 'command did not start');
    process.kill(up.forwarderPid, 'SIGKILL');
    run.child.kill('SIGKILL');
    await run.exited;
    assert.ok(namespaceExists(up.namespace));
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const c = spawn(process.execPath, ['--import', 'tsx', CLI, '--reclaim'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      c.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      c.on('close', (code) => resolve({ code, stderr }));
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /"reclaimed dead instances","instances":[1-9]/);
    await assertAllGone(up.namespace, up.forwarderPid, marker);
    assert.ok(namespaceExists(live.namespace), 'a live instance was removed');
  } finally {
    await live.stop();
  }
});

test('two shells at once get their own namespace and addresses, and cannot reach each other or elsewhere', { timeout: 30000 }, async () => {
  const a = await startLinkem({ delayMs: 1 }, { onLog: () => {} });
  try {
    const b = await startLinkem({ delayMs: 1 }, { onLog: () => {} });
    try {
      assert.notEqual(a.namespace, b.namespace);
      assert.notEqual(a.baseAddress, b.baseAddress);
      assert.notEqual(a.innerAddress, b.innerAddress);
      for (const [shell, p] of [
        [a, port(25000)],
        [b, port(25000) + 1],
      ] as const) {
        const recv = runProbe(['udp-recv', '--bind', shell.baseAddress, '--port', String(p), '--idle-ms', '300', '--max-ms', '15000']);
        await recv.event('listening');
        await runProbe(['udp-send', '--to', shell.baseAddress, '--port', String(p), '--pps', '1000', '--count', '50', '--size', '100'], shell).result();
        assert.equal((await recv.result()).received, 50);
      }
      // No route from A to B's namespace, nor to any other address (192.0.2.1 is TEST-NET-1):
      // the send fails inside A's namespace; nothing leaves it.
      for (const to of [b.innerAddress, '192.0.2.1']) {
        const sent = await runProbe(['udp-send', '--to', to, '--port', '9', '--pps', '1000', '--count', '5', '--size', '100'], a).result();
        assert.equal(sent.sent, 0, `a packet to ${to} was accepted for sending from ${a.namespace}`);
      }
    } finally {
      await b.stop();
    }
  } finally {
    await a.stop();
  }
});
