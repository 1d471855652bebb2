// PCC-Uspace as an optional peer (issue 17 item 4): the CLI refuses the scheme without a build (--uspace DIR) or with a
// DIR lacking its binaries, lists it with one, and a suite skips it with a note in summary.md when --uspace is absent.
// Runs nothing heavy (--list, parsing); a real PCC-Uspace run needs the user's build and root, so none is here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { parseScenario, ScenarioError } from '../harness/scenario.ts';
import { recordSkippedSchemes, selectExternalSchemes, skippedSchemesMarkdown } from '../harness/external-schemes.ts';
import { receiverPackets, senderRttsMs } from '../harness/run-uspace.ts';
import { suiteScenarios } from '../harness/suites.ts';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const SCENARIO = join(repoRoot, 'bench', 'scenarios', 'bulk-100mbps-30ms-75kb-0pct.json');

function bench(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', 'harness', 'cli.ts'), ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A DIR laid out as a PCC-Uspace checkout; `executable` false leaves the two files without exec permission. */
function checkoutLayout(executable: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'uspace-layout-'));
  mkdirSync(join(dir, 'src', 'app'), { recursive: true });
  for (const name of ['pccserver', 'pccclient']) {
    const path = join(dir, 'src', 'app', name);
    writeFileSync(path, '#!/bin/sh\nexit 1\n');
    chmodSync(path, executable ? 0o755 : 0o644);
  }
  return dir;
}

test('pcc-uspace without --uspace is refused where the user names it, and skipped from the bulk suite', () => {
  const named = bench(['--suite', 'bulk', '--schemes', 'pcc-uspace', '--list']);
  assert.equal(named.status, 2);
  assert.match(named.stderr, /--schemes pcc-uspace: .*give --uspace DIR/);

  const inFile = bench(['--scenario', SCENARIO, '--list']);
  assert.equal(inFile.status, 2);
  assert.match(inFile.stderr, /scenario bulk-100mbps-30ms-75kb-0pct names pcc-uspace .*give --uspace DIR/);

  const suite = bench(['--suite', 'bulk', '--list']);
  assert.equal(suite.status, 0, suite.stderr);
  assert.ok(suite.stdout.includes('bulk-100mbps-loss-0pct/vivace/1'));
  assert.ok(!suite.stdout.includes('pcc-uspace'), 'skipped without --uspace');
});

test('--uspace DIR without the binaries is refused; with them, --list includes pcc-uspace', (t) => {
  const empty = mkdtempSync(join(tmpdir(), 'uspace-empty-'));
  const notExecutable = checkoutLayout(false);
  const built = checkoutLayout(true);
  t.after(() => [empty, notExecutable, built].forEach((d) => rmSync(d, { recursive: true, force: true })));

  for (const dir of [empty, notExecutable, join(empty, 'absent')]) {
    const refused = bench(['--suite', 'bulk', '--uspace', dir, '--list']);
    assert.equal(refused.status, 2, `${dir}: ${refused.stdout}`);
    assert.match(refused.stderr, new RegExp(`--uspace ${dir}: (no such directory|no executable pccserver and pccclient)`));
  }

  const suite = bench(['--suite', 'bulk', '--uspace', built, '--list']);
  assert.equal(suite.status, 0, suite.stderr);
  const uspaceRuns = suite.stdout.split('\n').filter((id) => id.endsWith('/pcc-uspace/1'));
  assert.equal(uspaceRuns.length, suiteScenarios('bulk').length, 'one pcc-uspace run per bulk scenario');
  // The fidelity suite's bulk scenarios too, not its Chromium one (browser scenarios cannot run it).
  const fidelity = bench(['--suite', 'fidelity', '--uspace', built, '--list']);
  assert.equal(fidelity.status, 0, fidelity.stderr);
  const fidelityUspace = fidelity.stdout.split('\n').filter((id) => id.endsWith('/pcc-uspace/1')).map((id) => id.split('/')[0]);
  assert.deepEqual(fidelityUspace, suiteScenarios('fidelity').filter((sc) => sc.mode === 'bulk').map((sc) => sc.name));
  // The checkout's src/app and src/app itself are both accepted.
  const file = bench(['--scenario', SCENARIO, '--uspace', join(built, 'src', 'app'), '--schemes', 'pcc-uspace,vivace', '--list']);
  assert.equal(file.status, 0, file.stderr);
  assert.deepEqual(file.stdout.trim().split('\n').slice(0, 2), ['bulk-100mbps-30ms-75kb-0pct/vivace/1', 'bulk-100mbps-30ms-75kb-0pct/pcc-uspace/1']);
});

test('pcc-uspace runs in bulk scenarios only', () => {
  const browser = { name: 'b', duration_s: 10, link: { down: { rate_mbps: 10 }, up: { rate_mbps: 10 }, queue: { type: 'infinite' } }, schemes: ['vivace', 'pcc-uspace'] };
  assert.throws(() => parseScenario(browser, repoRoot), (e: unknown) => e instanceof ScenarioError && /schemes\[1\].*pcc-uspace runs in bulk scenarios only/.test(e.message));
  assert.deepEqual(parseScenario({ ...browser, mode: 'bulk' }, repoRoot).schemes, ['vivace', 'pcc-uspace']);
});

test('a suite\'s skipped external scheme is noted in summary.md', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'uspace-skip-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const scenarios = [{ name: 's', schemes: ['vivace', 'pcc-uspace'] }, { name: 'only', schemes: ['pcc-uspace'] }];
  const { scenarios: kept, skipped } = selectExternalSchemes(scenarios, new Set(['s', 'only']), [], new Set());
  assert.deepEqual(kept, [{ name: 's', schemes: ['vivace'] }]);
  recordSkippedSchemes(dir, skipped);
  assert.match(skippedSchemesMarkdown(dir).join('\n'), /### Skipped schemes\n\n- `pcc-uspace`: not run: no --uspace DIR given/);
  assert.deepEqual(selectExternalSchemes(scenarios, new Set(), [], new Set(['--uspace'])).scenarios, scenarios);
});

test('PCC-Uspace\'s monitor lines: packet counts and RTTs printed up to a time', () => {
  // As pccserver recv and pccclient send print them (tab-separated, one line a second).
  const server = ['server is ready at port: 9000', 'new connection: 100.110.0.93:60131', 'Recv Rate(Mb/s)\tRTT(ms)\tPackets Recvd',
    '33.2572\t\t10000\t3005\t\t', '63.8327\t\t10000\t5650\t\t', '0\t\t10000\t0\t\t'].map((text, i) => ({ atMs: 1000 * i, text }));
  assert.deepEqual(receiverPackets(server, 4000), [3005, 5650]);
  const client = ['Reset to Vivace Sender', 'SendRate(Mb/s)\tRTT(ms)\tCTotal\tLoss\tRecvACK\tRecvNAK', '1\t34.939\t33.8042\t3508\t86', '2\t70.1\t31.2\t9500\t90']
    .map((text, i) => ({ atMs: 1000 * i, text }));
  assert.deepEqual(senderRttsMs(client, 3000), [33.8042, 31.2]);
});
