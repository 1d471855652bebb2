// Every command in every README's ```sh blocks runs from the repository root, in a short form (issue 15): the
// commands are parsed from the READMEs, so a new one is picked up, and each must have an entry in SHORT_FORMS
// below — a reviewed table of what stands for it (fewer seconds, --help or --list where a full run takes minutes,
// placeholders such as HEX filled with real values). Relative paths stay relative: outputs go to
// results/readme-<pid>/ under the repository root and the test checks they landed there.
// Needs root (linkem and the benchmark create network namespaces), like the rest of `npm test`. Each command runs in
// its own process group that dies with this test process, however it ends (src/process-groups.ts): a killed CI run
// leaves no origin behind.
import assert from 'node:assert/strict';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { freeTcpPort, freeUdpPort } from '../src/free-port.ts';
import { preparePlayerAndMedia } from '../src/player-fixture.ts';
import { spawnGroup } from '../src/process-groups.ts';
import { repoRoot } from '../src/repo-root.ts';

/** The README commands, as written: ```sh / ```bash blocks, `\` continuations joined, comments dropped. */
function readmeCommands(markdown: string): string[] {
  const commands: string[] = [];
  let inBlock = false;
  let pending = '';
  for (const line of markdown.split('\n')) {
    if (/^```/.test(line)) {
      inBlock = !inBlock && /^```(sh|bash|shell|console)\s*$/.test(line);
      pending = '';
      continue;
    }
    if (!inBlock) continue;
    const joined = pending + line;
    if (/\\$/.test(joined)) {
      pending = `${joined.slice(0, -1)} `;
      continue;
    }
    pending = '';
    const command = withoutComment(joined).replace(/\s+/g, ' ').trim();
    if (command !== '') commands.push(command);
  }
  return commands;
}

/** Drops a shell comment: a `#` that starts a word outside quotes. */
function withoutComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') i++;
    else if (quote) { if (c === quote) quote = null; }
    else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

function readmeFiles(): string[] {
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(listed.status, 0, 'git ls-files failed: is this a git checkout?');
  return listed.stdout.split('\0').filter((f) => /(^|\/)README\.md$/.test(f) && !f.startsWith('bench/published/'));
}

/** What a short form may use: fresh ports, the origin's certificate hash, a results folder under the root. */
interface Context {
  out: string; // repository-relative, e.g. results/readme-123
  wtPort: number;
  httpPort: number;
  httpsPort: number;
  certHash: string;
  echoPort: number;
}

interface ShortForm {
  /** The command run from the repository root (bash), given the context. */
  run: (c: Context) => string;
  /** Why this stands for the README's command. */
  why: string;
  /** Extra checks on the output and on the files it wrote (paths relative to the repository root). */
  check?: (output: string, c: Context) => void;
  /** Starts in the background and stays up until the end (the origin the fetch commands talk to). */
  background?: true;
}

const landed = (c: Context, relative: string) => {
  const path = join(repoRoot, c.out, relative);
  assert.ok(existsSync(path), `expected ${c.out}/${relative} under the repository root (paths are relative to where the command ran)`);
  return path;
};
/** One generated set (any name) with a manifest under the results folder's `dir`. */
const manifestUnder = (c: Context, dir: string) => {
  const sets = readdirSync(landed(c, dir)).filter((name) => existsSync(join(repoRoot, c.out, dir, name, 'manifest.mpd')));
  assert.equal(sets.length, 1, `one set with a manifest under ${dir}: ${sets.join(', ')}`);
};
const usage = (output: string) => assert.match(output, /usage|options:/i); // the origin prints its options without the word
const simJson = (output: string) => assert.ok((JSON.parse(output.trim().split('\n').pop()!) as { flows: unknown[] }).flows.length > 0);
const simVideoJson = (output: string) => assert.ok((JSON.parse(output.trim().split('\n').pop()!) as { flows: Array<{ video?: { buffer_level_s: number[] } }> }).flows[0]?.video?.buffer_level_s.length);
const paperFigure = (c: Context) => JSON.parse(readFileSync(landed(c, 'paper/fig4.9-lte.json'), 'utf8'));
/** --list output: run ids, one a line (`count` of them when the command fixes the schemes). */
const listed = (count?: number) => (output: string) => {
  const ids = output.trim().split('\n');
  if (count === undefined) assert.ok(ids.length > 0, output);
  else assert.equal(ids.length, count, output);
  for (const id of ids) assert.match(id, /^[\w.-]+\/[\w.@+-]+\/\d+$/);
};
const tscOf = (workspace: string) => `npm exec -w ${workspace} -- tsc --noEmit -p .`;
const ORIGIN = 'npm run -s origin -- --media .cache/media --port 4433 --http-port 8080 --https-port 8443 --cc vivace --log-dir results/origin';
const fetched = (bytes: number) => (output: string) => assert.equal((JSON.parse(output.trim().split('\n').pop()!) as { bytes: number }).bytes, bytes);
const MANIFEST_BYTES = 3000;
const BIG_BYTES = 2_000_000;

const KEPT_RECORDING = 'controller-wasm/test/recordings/vivace-100mbps-30ms-75kb-sender-stalls.replay';

// Keyed by the command exactly as the README writes it (whitespace collapsed, comment dropped).
const SHORT_FORMS = new Map<string, ShortForm>([
  // README.md
  ['npm start', { run: () => 'npm start -- --help', check: usage, why: 'bootstrap (idempotent, seconds when built) then start.mjs, which would serve until Ctrl-C: its usage instead' }],
  ['npm start -- --network list', { run: () => 'npm start -- --network list', check: (output) => assert.match(output, /^ {2}lte-driving +ATT-LTE-driving-2016/m), why: 'as written' }],
  ['npm start -- --network lte', {
    run: () => 'npm start -- --network lte --help', check: usage,
    why: 'it serves until Ctrl-C: its usage here; e2e/test/demo-network.test.ts starts it and plays through the link' }],
  ['npm run -s screenshots', {
    run: (c) => `npm run -s screenshots -- --out ${c.out}/shots --only playground`, check: (_, c) => { landed(c, 'shots/playground.png'); },
    why: 'the playground image only, into the results folder (never over docs/images/); the lte compare image needs npm start behind linkem for 30 s' }],
  ['npm run -s screenshots -- --out results/shots --only playground', {
    run: (c) => `npm run -s screenshots -- --out ${c.out}/shots-only --only playground`, check: (_, c) => { landed(c, 'shots-only/playground.png'); }, why: 'into the results folder of this test run' }],
  ['npm test', { run: () => 'npm test -- protocol', why: 'bootstrap and test-all.mjs, limited to one workspace (the whole suite is what runs this test)' }],
  ['npm run -s fuzz -- --list', { run: () => 'npm run -s fuzz -- --list', check: (output) => assert.deepEqual(output.trim().split('\n').map((l) => l.split('\t')[0]), ['cc-api', 'cc-api-long', 'trace-parser', 'linkem-options']), why: 'as written' }],
  ['npm run -s fuzz -- --target cc-api --seconds 60', { run: () => 'npm run -s fuzz -- --target cc-api --runs 300', why: '300 runs instead of a minute' }],
  ['npm run -s fuzz -- --target cc-api-long --seconds 600', { run: () => 'npm run -s fuzz -- --target cc-api-long --runs 30', why: '30 runs instead of ten minutes' }],
  ['npm run -s fuzz -- --target trace-parser --runs 1000000', { run: () => 'npm run -s fuzz -- --target trace-parser --runs 20000', why: '20,000 runs instead of a million' }],
  ['npm run -s fuzz -- --ci', { run: () => 'npm run -s fuzz -- --ci', why: 'as written (~20 s; npm test runs it too)' }],
  ['npm run -s sim -- --cc vivace --rate-mbps 100 --rtt-ms 30 --buffer-kb 75 --loss 0.01 --duration-s 60 --json', {
    run: () => 'npm run -s sim -- --cc vivace --rate-mbps 100 --rtt-ms 30 --buffer-kb 75 --loss 0.01 --duration-s 2 --json', check: simJson, why: '2 simulated seconds instead of 60' }],
  ['npm run -s sim:paper', { run: (c) => `npm run -s sim:paper -- --quick --only fig4.9-lte --out ${c.out}/paper`, check: (_, c) => paperFigure(c), why: 'one figure (the LTE trace one), --quick, written where --out says' }],
  ['npm run -s origin -- --help', { run: () => 'npm run -s origin -- --help', check: usage, why: 'as written' }],
  ['npm run -s fetch -- https://127.0.0.1:4433/abr/manifest.mpd --cc vivace --cert-hash HEX --json', {
    run: (c) => `npm run -s fetch -- https://127.0.0.1:${c.wtPort}/abr/manifest.mpd --cc vivace --cert-hash ${c.certHash} --json`, check: fetched(MANIFEST_BYTES), why: 'against the origin started below: its port and certificate hash' }],
  ['npm run -s media', { run: () => 'npm run -s media -- --help', check: usage, why: 'encoding every set takes minutes (the e2e tests generate what they play)' }],
  // player/README.md (media on demand: short clips, written where the relative --out says)
  ['npm run -s media -- --sets abr', { run: () => 'npm run -s media -- --sets abr', why: 'as written (made before this test, so it is found complete and kept)' }],
  ['npm run -s media -- --bitrate-mbps 5 --duration-s 300 --segment-s 2', {
    run: (c) => `npm run -s media -- --bitrate-mbps 5 --duration-s 4 --segment-s 2 --out ${c.out}/media-cbr`, check: (_, c) => { landed(c, 'media-cbr/cbr-5000k-4s-2s/manifest.mpd'); }, why: '4 s instead of 300' }],
  ['npm run -s media -- --bitrate-mbps 3.3 --duration-s 60 --vbr', {
    run: (c) => `npm run -s media -- --bitrate-mbps 3.3 --duration-s 4 --vbr --out ${c.out}/media-vbr`, check: (_, c) => manifestUnder(c, 'media-vbr'), why: '4 s instead of 60' }],
  ['npm run -s media -- --bitrate-mbps 5 --duration-s 60 --vbr', {
    run: (c) => `npm run -s media -- --bitrate-mbps 5 --duration-s 4 --vbr --out ${c.out}/media-vbr5`, check: (_, c) => manifestUnder(c, 'media-vbr5'), why: '4 s instead of 60' }],
  // PCC-Uspace is the user's own build (none on a CI machine): the runs the commands plan without it
  ['npm run -s bench -- --suite bulk --uspace ../PCC-Uspace --out results/bulk', {
    run: () => 'npm run -s bench -- --suite bulk --out results/bulk --list', check: listed(), why: '--list without --uspace (the suite drops the peer with a note; no PCC-Uspace here)' }],
  ['npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-1mb.json --uspace ../PCC-Uspace --out results/1mb', {
    run: () => 'npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-1mb.json --schemes vivace,tcp-cubic --out results/1mb --list', check: listed(6), why: '--list of our schemes in the shipped scenario (it names pcc-uspace, refused without --uspace)' }],
  ['npm run -s bench -- --suite fidelity --out results/fidelity', { run: () => 'npm run -s bench -- --suite fidelity --out results/fidelity --list', check: listed(), why: '--list (bench/test/harness-fidelity.test.ts runs its short form)' }],
  ['npm run -s bench -- --suite fidelity --schemes vivace,vivace-loss --repetitions 6 --out results/fidelity-6', {
    run: () => 'npm run -s bench -- --suite fidelity --schemes vivace,vivace-loss --repetitions 6 --out results/fidelity-6 --list', check: listed(), why: '--list' }],
  ['npm run -s bench -- --scenario bench/scenarios/changing-rtt-8mbps-40s.json --fidelity --out results/mine-fidelity', {
    run: () => 'npm run -s bench -- --scenario bench/scenarios/changing-rtt-8mbps-40s.json --fidelity --out results/mine-fidelity --list', check: listed(), why: '--list' }],
  // controller-wasm/README.md (record and replay) over the kept recording
  ['npm run -s replay -w controller-wasm -- FILE --summary', {
    run: () => `npm run -s replay -w controller-wasm -- ${KEPT_RECORDING} --summary`, why: 'FILE: the kept recording' }],
  ['npm run -s replay -w controller-wasm -- FILE --check', {
    run: () => `npm run -s replay -w controller-wasm -- ${KEPT_RECORDING} --check 2>&1; s=$?; [ $s -eq 0 ] || [ $s -eq 3 ]`,
    check: (out) => assert.match(out, /"recordedBuild":null/, 'the kept recording names no build, and --check says so'),
    why: 'the kept recording predates the MI fix (b7f380e) and names no controller build: a decision that differs is exit 3 (not a defect); --check on fresh recordings is server/test/record-replay.test.ts' }],
  [`controller-wasm/build/pcc-replay --mi ${KEPT_RECORDING}`, { run: () => `controller-wasm/build/pcc-replay --mi ${KEPT_RECORDING}`, why: 'as written' }],
  ['npm run -s origin -- --media .cache/media --record-dir results/record', {
    run: () => 'npm run -s origin -- --media .cache/media --record-dir results/record --help', check: usage, why: 'it serves until stopped: its usage (recording is tested by server/test/record-replay.test.ts)' }],
  ['npm run -s origin -- --media .cache/media --max-sessions 256 --max-sessions-per-address 4 --session-memory-mb 4', {
    run: () => 'npm run -s origin -- --media .cache/media --max-sessions 256 --max-sessions-per-address 4 --session-memory-mb 4 --help', check: usage,
    why: 'it serves until stopped: its usage (the limits are tested by server/test/origin-limits.test.ts)' }],
  ['npm run -s media -- --ladder --duration-s 90 --vbr --out /tmp/media', {
    run: (c) => `npm run -s media -- --ladder --duration-s 2 --vbr --out ${c.out}/media-ladder`, check: (_, c) => manifestUnder(c, 'media-ladder'), why: '2 s instead of 90, into the results folder' }],
  ['npm run -s linkem -- --down bench/traces/TMobile-LTE-short.down --up bench/traces/TMobile-LTE-short.up --delay-ms 20', {
    run: () => 'npm run -s linkem -- --down bench/traces/TMobile-LTE-short.down --up bench/traces/TMobile-LTE-short.up --delay-ms 20', why: 'as written; the shell inside reads no input (stdin is /dev/null) and exits' }],
  ['npm run -s bench -- --suite smoke --out results/smoke', {
    run: (c) => `npm run -s bench -- --suite smoke --schemes vivace --duration-s 4 --out ${c.out}/smoke`,
    check: (_, c) => {
      const runs = readFileSync(landed(c, 'smoke/results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { status?: string; error?: string });
      assert.equal(runs.length, 1);
      assert.equal(runs[0]!.status, 'ok', runs[0]!.error);
      landed(c, 'smoke/summary.md');
    },
    why: 'one scheme for 4 s instead of two for 20 s' }],

  // bench/harness/README.md (its smoke command is the same as README.md's, above)
  ['npm run -s bench -- --suite seed-changing-rtt --out results/rtt', { run: () => 'npm run -s bench -- --suite seed-changing-rtt --out results/rtt --list', check: listed(), why: '--list: the runs it would make' }],
  ['npm run -s bench -- --suite seed-changing-rtt-stream --out results/thesis', { run: () => 'npm run -s bench -- --suite seed-changing-rtt-stream --out results/thesis --list', check: listed(), why: '--list: the runs it would make' }],
  ['npm run -s bench -- --scenario bench/scenarios/changing-rtt-8mbps-40s.json --schemes vivace,tcp-bbr --repetitions 5 --out results/mine', {
    run: () => 'npm run -s bench -- --scenario bench/scenarios/changing-rtt-8mbps-40s.json --schemes vivace,tcp-bbr --repetitions 5 --out results/mine --list', check: listed(10), why: '--list (the scenario path is read from the root)' }],
  ['npm run -s bench -- --report-only --out results/rtt', {
    run: (c) => `npm run -s bench -- --report-only --out ${c.out}/smoke`, check: (_, c) => { landed(c, 'smoke/report.html'); }, why: 'on the smoke run above' }],
  ['npm run -s bench -- --suite seed-changing-rtt --schemes vivace --cc-param vivace.epsilon_min=0.02 --cc-param vivace.epsilon_min_on_reversal=1 --out results/rtt-eps', {
    run: () => 'npm run -s bench -- --suite seed-changing-rtt --schemes vivace --cc-param vivace.epsilon_min=0.02 --cc-param vivace.epsilon_min_on_reversal=1 --out results/rtt-eps --list', check: listed(5 * 3), why: '--list' }],
  ['npm run -s bench -- --suite lte --schemes vivace-video,tcp-bbr --player-param abrThroughput=dashjs --out results/lte-dashjs-abr', {
    run: () => 'npm run -s bench -- --suite lte --schemes vivace-video,tcp-bbr --player-param abrThroughput=dashjs --out results/lte-dashjs-abr --list', check: listed(4 * 3 * 2), why: '--list' }],

  ['npm run -s bench -- --suite seed-changing-rtt --list', { run: () => 'npm run -s bench -- --suite seed-changing-rtt --list', check: listed(), why: 'as written (runs nothing)' }],
  ['npm run -s bench -- --suite seed-changing-rtt --list --shard 2/3', { run: () => 'npm run -s bench -- --suite seed-changing-rtt --list --shard 2/3', check: listed(), why: 'as written (runs nothing)' }],
  ['npm run -s bench -- --suite seed-changing-rtt --shard 1/2 --out results/rtt-1', { run: () => 'npm run -s bench -- --suite seed-changing-rtt --shard 1/2 --out results/rtt-1 --list', check: listed(), why: '--list: the shard\'s runs' }],
  ['npm run -s bench -- --suite seed-changing-rtt --shard 2/2 --out results/rtt-2', { run: () => 'npm run -s bench -- --suite seed-changing-rtt --shard 2/2 --out results/rtt-2 --list', check: listed(), why: '--list: the shard\'s runs' }],
  ['npm run -s bench -- merge results/rtt-1 results/rtt-2 --out results/rtt', {
    run: (c) => `npm run -s bench -- merge ${c.out}/smoke --out ${c.out}/merged`, check: (_, c) => { landed(c, 'merged/summary.md'); }, why: 'merges the smoke run above (relative DIRs and --out)' }],
  ['npm run -s bench -- --suite seed-changing-rtt --shard $((JOB_COMPLETION_INDEX + 1))/4 --out /results/shard-$JOB_COMPLETION_INDEX', {
    run: () => 'JOB_COMPLETION_INDEX=3; npm run -s bench -- --suite seed-changing-rtt --shard $((JOB_COMPLETION_INDEX + 1))/4 --out /results/shard-$JOB_COMPLETION_INDEX --list', check: listed(), why: 'the Indexed Job\'s last pod, --list' }],

  // bench/harness/README.md: the faults suite, blackout and origin restart (issue 20)
  ['npm run -s bench -- --suite faults --list', { run: () => 'npm run -s bench -- --suite faults --list', check: listed(), why: 'as written (runs nothing)' }],
  ['npm run -s bench -- --suite faults --run blackout/vivace/1 --out results/faults', {
    run: () => 'npm run -s bench -- --suite faults --run blackout/vivace/1 --out results/faults --list', check: listed(1), why: '--list: a 45 s run in Chromium (the case runs short in bench/test/harness-faults.test.ts)' }],
  ['npm run -s bench -- --suite faults --run origin-restart/vivace/1 --out results/faults', {
    run: () => 'npm run -s bench -- --suite faults --run origin-restart/vivace/1 --out results/faults --list', check: listed(1), why: '--list: a 45 s run in Chromium (the case runs short in bench/test/harness-faults.test.ts)' }],
  // server/README.md: restarts and graceful stop
  ['npm run -s origin -- --media .cache/media --pacing-burst-us 500', {
    run: () => 'npm run -s origin -- --media .cache/media --pacing-burst-us 500 --help', check: usage,
    why: 'it serves until stopped: its usage (the burst is tested by server/test/token-bucket.test.ts, bad values by cli-limits.test.ts)' }],
  ['npm run -s origin -- --media .cache/media --pacer addon', {
    run: () => 'npm run -s origin -- --media .cache/media --pacer addon --help', check: usage,
    why: 'it serves until stopped: its usage (the pacer is tested by server/test/paced-sender.test.ts, addon-pacer.test.ts and server/native/test/pacer.test.ts, bad values by cli-limits.test.ts)' }],
  ['npm run -s origin -- --media .cache/media --cert-dir results/origin-cert --drain-ms 5000', {
    run: () => 'npm run -s origin -- --media .cache/media --cert-dir results/origin-cert --drain-ms 5000 --help', check: usage, why: 'it serves until stopped: its usage (the drain is tested by server/test/graceful-stop.test.ts, --cert-dir by bench origin-restart)' }],

  // bench/harness/README.md: the faults suite's load cases and the soak (issue 20)
  ['npm run -s bench -- --suite faults --run garbage/vivace/1 --out results/faults', {
    run: () => 'npm run -s bench -- --suite faults --run garbage/vivace/1 --out results/faults --list', check: listed(1), why: '--list: a paired run takes minutes (the hostile client runs in bench/test/harness-faults-load.test.ts)' }],
  ['npm run -s bench -- --suite faults --run churn/vivace/1 --out results/faults', {
    run: () => 'npm run -s bench -- --suite faults --run churn/vivace/1 --out results/faults --list', check: listed(1), why: '--list: 10,000 sessions take minutes (churn runs short in bench/test/harness-faults-load.test.ts)' }],
  ['npm run -s bench -- --suite faults --run flood/vivace/1 --out results/faults', {
    run: () => 'npm run -s bench -- --suite faults --run flood/vivace/1 --out results/faults --list', check: listed(1), why: '--list: a paired run takes minutes (the flood runs short in bench/test/harness-faults-load.test.ts)' }],
  ['npm run -s bench -- --suite soak --minutes 30 --out results/soak', {
    run: (c) => `npm run -s bench -- --suite soak --minutes 0.25 --sessions 5 --out ${c.out}/soak`,
    check: (_, c) => { landed(c, 'soak/summary.md'); landed(c, 'soak/plots/rss.svg'); }, why: '15 s with 5 sessions instead of 30 min with 50, into the results folder' }],

  // bench/linkem/README.md
  ["npm run -s linkem -- --down bench/traces/TMobile-LTE-short.down --up bench/traces/TMobile-LTE-short.up --delay-ms 20 --queue-down droptail --queue-down-args bytes=300000 --log-down results/linkem/down.log --summary-json results/linkem/summary.json -- sh -c 'curl -s http://$MAHIMAHI_BASE:8080/ -o /dev/null'", {
    run: (c) => `npm run -s linkem -- --down bench/traces/TMobile-LTE-short.down --up bench/traces/TMobile-LTE-short.up --delay-ms 20 --queue-down droptail --queue-down-args bytes=300000 --log-down ${c.out}/linkem/down.log --summary-json ${c.out}/linkem/summary.json -- sh -c 'curl -sf http://$MAHIMAHI_BASE:${c.echoPort}/ -o /dev/null'`,
    check: (_, c) => {
      const summary = JSON.parse(readFileSync(landed(c, 'linkem/summary.json'), 'utf8')) as { down: { departedPackets: number } };
      assert.ok(summary.down.departedPackets > 0);
      landed(c, 'linkem/down.log');
    },
    why: 'a host-side HTTP server on a free port stands in for npm start on 8080' }],
  ['npm run -s linkem -- --help', { run: () => 'npm run -s linkem -- --help', check: usage, why: 'as written' }],
  ['npm run -s bench:linkem -w bench', { run: () => 'npm run -s bench:linkem -w bench -- --help', check: usage, why: 'the benchmark takes minutes' }],
  ['npm test -w bench', { run: () => tscOf('bench'), why: "the workspace's type check; its tests run in npm test itself" }],

  // controller-wasm/README.md
  ['npm run build -w controller-wasm', { run: () => 'npm run build -w controller-wasm', why: 'as written (incremental)' }],
  ['npm test -w controller-wasm', { run: () => tscOf('controller-wasm'), why: "the workspace's type check; its tests run in npm test itself" }],
  ['npm run -s sim:paper -w controller-wasm', { run: (c) => `npm run -s sim:paper -w controller-wasm -- --quick --only fig4.9-lte --out ${c.out}/paper`, check: (_, c) => paperFigure(c), why: 'one figure, --quick' }],
  ['npm run -s sim:paper:reference -w controller-wasm', {
    run: () => tscOf('controller-wasm'), why: 'it rewrites tracked reference files (~4 min): the type check of its script; npm test replays the stored output (ts/test/sim-paper-reference.test.ts)' }],
  ['npm run -s sim -w controller-wasm -- --help', { run: () => 'npm run -s sim -w controller-wasm -- --help', check: usage, why: 'as written' }],
  ['npm run -s sim -w controller-wasm -- --cc vivace --jitter-sd-us 200 --duration-s 30 --json', {
    run: () => 'npm run -s sim -w controller-wasm -- --cc vivace --jitter-sd-us 200 --duration-s 2 --json', check: simJson, why: '2 simulated seconds instead of 30' }],
  ['npm run -s bench:ack -w controller-wasm', { run: () => 'npm run -s bench:ack -w controller-wasm -- --packets 20000', why: '20k packets instead of 1M' }],

  // controller-wasm/sim/README.md
  ['npm run -s sim -- --cc vivace,cubic --start-gap-s 10 --csv /tmp/series.csv', {
    run: (c) => `npm run -s sim -- --cc vivace,cubic --start-gap-s 1 --duration-s 2 --csv ${c.out}/series.csv`, check: (_, c) => { landed(c, 'series.csv'); }, why: '2 s; the CSV written to a relative path, which must land under the root' }],
  ['npm run -s sim -- --cc vivace --trace bench/traces/Verizon-LTE-short.down --buffer-kb 300', {
    run: () => 'npm run -s sim -- --cc vivace --trace bench/traces/Verizon-LTE-short.down --buffer-kb 300 --duration-s 2', why: '2 simulated seconds' }],
  ['npm run -s sim -- --cc vivace-loss --rate-schedule 10:100:5 --rtt-schedule 10:100:5 --loss-schedule 0:0.01:5', {
    run: () => 'npm run -s sim -- --cc vivace-loss --rate-schedule 10:100:5 --rtt-schedule 10:100:5 --loss-schedule 0:0.01:5 --duration-s 2', why: '2 simulated seconds' }],
  ['npm run -s sim -- --help', { run: () => 'npm run -s sim -- --help', check: usage, why: 'as written' }],
  ['npm run -s sim -- --cc vivace --video-mbps 8 --segment-s 2 --rtt-schedule 10:100:5 --rate-mbps 8.8 --buffer-kb 300 --loss 0.0001 --duration-s 60 --json', {
    run: () => 'npm run -s sim -- --cc vivace --video-mbps 8 --segment-s 2 --rtt-schedule 10:100:5 --rate-mbps 8.8 --buffer-kb 300 --loss 0.0001 --duration-s 4 --json', check: simVideoJson, why: '4 simulated seconds' }],
  ['npm run -s sim -- --cc vivace-video --video-abr 0.3,0.8,2,4,8 --trace bench/traces/Verizon-LTE-short.down --rtt-ms 40 --buffer-kb 300 --duration-s 30 --rtt-noise real-path --video-abr-samples 5 --video-abandon-s 4 --json', {
    run: () => 'npm run -s sim -- --cc vivace-video --video-abr 0.3,0.8,2,4,8 --trace bench/traces/Verizon-LTE-short.down --rtt-ms 40 --buffer-kb 300 --duration-s 3 --rtt-noise real-path --video-abr-samples 5 --video-abandon-s 4 --json', check: simJson, why: '3 simulated seconds instead of 30' }],
  ['npm run -s sim -- --cc vivace --video-abr 0.3,0.8,2,4,8 --video-continuous --rate-mbps 8.8 --rtt-ms 50 --duration-s 60', {
    run: () => 'npm run -s sim -- --cc vivace --video-abr 0.3,0.8,2,4,8 --video-continuous --rate-mbps 8.8 --rtt-ms 50 --duration-s 4', check: (output) => assert.match(output, /video flow 0: buffering ratio/), why: '4 simulated seconds' }],
  ['npm run -s sim -- --cc vivace,cubic --video-mbps 8,0 --rate-mbps 20 --duration-s 30', {
    run: () => 'npm run -s sim -- --cc vivace,cubic --video-mbps 8,0 --rate-mbps 20 --duration-s 3', check: (output) => assert.match(output, /video flow 0: buffering ratio/), why: '3 simulated seconds' }],
  ['npm run -s sim:video', { run: (c) => `npm run -s sim:video -- --seeds 1 --duration-s 2 --out ${c.out}/video`, check: (_, c) => JSON.parse(readFileSync(landed(c, 'video/fig5.2-multiflow.json'), 'utf8')), why: 'every table, 1 seed of 2 simulated seconds, written where --out says' }],
  ['npm run -s sim:paper -- --quick', { run: (c) => `npm run -s sim:paper -- --quick --only fig4.9-lte --out ${c.out}/paper`, check: (_, c) => paperFigure(c), why: 'one figure' }],
  ['npm run -s sim:paper -- --long', { run: (c) => `npm run -s sim:paper -- --long --only fig4.9-lte --out ${c.out}/paper`, check: (_, c) => paperFigure(c), why: 'one figure (140 s of LTE trace)' }],
  ['npm run -s bench:sim -w controller-wasm', { run: () => 'BENCH_REPEATS=1 npm run -s bench:sim -w controller-wasm', why: 'one repetition per scenario instead of three' }],

  // server/README.md — the origin first, in the background, for the fetch commands
  [ORIGIN, {
    run: (c) => `${ORIGIN.replace('--media .cache/media', `--media ${c.out}/media`).replace('4433', String(c.wtPort)).replace('8080', String(c.httpPort)).replace('8443', String(c.httpsPort)).replace('results/origin', `${c.out}/origin`)}`,
    background: true, check: (_, c) => { landed(c, 'origin'); }, why: 'free ports and a small media folder; stays up for the fetch commands' }],
  ['npm run -s fetch -- https://127.0.0.1:4433/abr/manifest.mpd --cc vivace --cert-hash HEX --out results/manifest.mpd --json', {
    run: (c) => `npm run -s fetch -- https://127.0.0.1:${c.wtPort}/abr/manifest.mpd --cc vivace --cert-hash ${c.certHash} --out ${c.out}/manifest.mpd --json`,
    check: (output, c) => { fetched(MANIFEST_BYTES)(output); assert.equal(statSync(landed(c, 'manifest.mpd')).size, MANIFEST_BYTES); }, why: 'the origin above' }],
  ['npm run -s fetch -- https://127.0.0.1:4433/big.bin --transport quic-stream --cc bbr --cert-hash HEX --json', {
    run: (c) => `npm run -s fetch -- https://127.0.0.1:${c.wtPort}/big.bin --transport quic-stream --cc bbr --cert-hash ${c.certHash} --json`, check: fetched(BIG_BYTES), why: 'the origin above' }],
  ['npm run -s fetch -- https://127.0.0.1:8443/big.bin --transport tcp --cc cubic --cert-hash HEX --json', {
    run: (c) => `npm run -s fetch -- https://127.0.0.1:${c.httpsPort}/big.bin --transport tcp --cc cubic --cert-hash ${c.certHash} --json`, check: fetched(BIG_BYTES), why: 'the origin above' }],
  ['npm test -w @pcc-stream/server', { run: () => tscOf('@pcc-stream/server'), why: "the workspace's type check; its tests run in npm test itself" }],
  ['npm run -s bench -w @pcc-stream/server', { run: () => 'npm run -s bench -w @pcc-stream/server -- --help', check: usage, why: 'the benchmark moves gigabytes' }],

  // netpath/README.md
  ['cmake --build controller-wasm/build --parallel 2 && ctest --test-dir controller-wasm/build -R "trace_vectors|droptail"', {
    run: () => 'cmake --build controller-wasm/build --parallel 2 && ctest --test-dir controller-wasm/build -R "trace_vectors|droptail"', why: 'as written (incremental build, two ctest targets)' }],
  ['make -s -C bench/linkem', { run: () => 'make -s -C bench/linkem', why: 'as written (incremental)' }],
  ['cd bench && node --import tsx --test test/linkem-trace-vectors.test.ts', { run: () => 'cd bench && node --import tsx --test test/linkem-trace-vectors.test.ts', why: 'as written' }],

  // server/native/README.md
  ['npm run build -w server/native', { run: () => 'npm run build -w server/native', why: 'as written (rebuilds only when sources changed)' }],
  ['npm test -w server/native', { run: () => tscOf('server/native'), why: "the workspace's type check; its tests run in npm test itself" }],
  ['npm run -s bench -w server/native -- --seconds 3 --rates-mbps 0,1000', { run: () => 'npm run -s bench -w server/native -- --seconds 1 --rates-mbps 1000', why: '1 s at one rate' }],
]);

test('README commands: the parser joins continuations, drops comments and keeps quoted #', () => {
  const md = ['text', '```sh', 'npm run a -- --x 1   # note', '  # only a comment', 'npm run b -- \\', '  --y "#not" \\$V', '```', '```ts', 'ignored()', '```'].join('\n');
  assert.deepEqual(readmeCommands(md), ['npm run a -- --x 1', 'npm run b -- --y "#not" \\$V']);
});

test('every README command has a reviewed short form, and every short form a README command', () => {
  const found = new Set(readmeFiles().flatMap((f) => readmeCommands(readFileSync(join(repoRoot, f), 'utf8'))));
  assert.ok(found.size > 20, `only ${found.size} commands found`);
  const missing = [...found].filter((c) => !SHORT_FORMS.has(c));
  assert.deepEqual(missing, [], 'add these to SHORT_FORMS in e2e/test/readme-commands.test.ts');
  const stale = [...SHORT_FORMS.keys()].filter((c) => !found.has(c));
  assert.deepEqual(stale, [], 'these SHORT_FORMS entries match no README command any more');
});

function runShell(command: string, timeoutMs: number): Promise<{ code: number | null; output: string; stderr: string }> {
  return new Promise((resolve) => {
    // As a user's shell at the repository root: no npm variables inherited from this test's own npm run.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$|PCC_USER_CWD$)/.test(k)));
    const child = spawnGroup('bash', ['-c', command], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, stderr });
    });
  });
}

function startBackground(command: string): Promise<{ child: ChildProcess; ready: { cert_sha256: string } }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$|PCC_USER_CWD$)/.test(k)));
  const child = spawnGroup('bash', ['-c', command], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ready line within 60 s: ${stderr}`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.includes('"ready"'));
      if (line) {
        clearTimeout(timer);
        resolve({ child, ready: JSON.parse(line) as { cert_sha256: string } });
      }
    });
    child.on('close', (code) => reject(new Error(`exited ${code} before ready: ${stderr}`)));
  });
}

test('every README command runs from the repository root in its short form', { timeout: 10 * 60_000 }, async (t) => {
  preparePlayerAndMedia(); // the smoke run plays the ABR ladder
  const out = `results/readme-${process.pid}`;
  const c: Context = { out, wtPort: await freeUdpPort(), httpPort: await freeTcpPort(), httpsPort: await freeTcpPort(), certHash: '', echoPort: 0 };
  const scratch = mkdtempSync(join(tmpdir(), 'readme-commands-'));
  // The origin's small media folder (under the results folder, as the README's relative --media would be).
  mkdirSync(join(repoRoot, out, 'media', 'abr'), { recursive: true });
  writeFileSync(join(repoRoot, out, 'media', 'abr', 'manifest.mpd'), randomBytes(MANIFEST_BYTES));
  writeFileSync(join(repoRoot, out, 'media', 'big.bin'), randomBytes(BIG_BYTES));
  let echoRequests = 0;
  const echo: Server = createServer((_, res) => {
    echoRequests++;
    res.end('ok');
  });
  await new Promise<void>((resolve) => echo.listen(0, '0.0.0.0', resolve));
  c.echoPort = (echo.address() as { port: number }).port;
  const background: ChildProcess[] = [];
  t.after(async () => {
    for (const child of background) {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch { /* already gone */ }
    }
    await new Promise<void>((resolve) => echo.close(() => resolve()));
    rmSync(join(repoRoot, out), { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  const seen = new Set<string>();
  const failures: string[] = []; // every command is tried; all failures are reported together
  const order = [...SHORT_FORMS.entries()].sort(([, a], [, b]) => Number(b.background ?? false) - Number(a.background ?? false));
  for (const [readme, short] of order) {
    const command = short.run(c);
    if (command === '' || seen.has(command)) continue;
    seen.add(command);
    const started = Date.now();
    let outcome = 'ok';
    try {
      if (short.background) {
        const { child, ready } = await startBackground(command);
        background.push(child);
        c.certHash = ready.cert_sha256;
        short.check?.('', c);
      } else {
        const r = await runShell(command, 120_000);
        assert.equal(r.code, 0, `exit ${r.code}\n  stderr: ${r.stderr.slice(-2000)}\n  stdout: ${r.output.slice(-500)}`);
        short.check?.(r.output, c);
      }
    } catch (error) {
      outcome = 'FAILED';
      failures.push(`${readme}\n  ran: ${command}\n  ${error instanceof Error ? error.message : String(error)}`);
    }
    t.diagnostic(`${outcome} ${((Date.now() - started) / 1000).toFixed(1)} s  ${command}`);
  }
  if (echoRequests === 0) failures.push('the linkem curl command never reached the host');
  assert.deepEqual(failures, []);
});
