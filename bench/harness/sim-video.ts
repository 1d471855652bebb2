// npm run -s sim:video [-- --quick] [--seeds N] [--duration-s S] [--jobs N] [--out DIR]
// Buffering ratio of simulated video players (pcc-sim's DASH client model, sim/video_player.h) under the thesis's
// §5.2 settings, the thesis's claims beside ours: Fig. 5.1 (RTT redrawn in 10-100 ms every 5 s, link 10% above the
// bitrate, 300 KB, 0.01% loss) at the thesis's bitrates and the bench's, and Fig. 5.2 (three players, 75 KB,
// 100 ms, 0.01% loss, the bench's 3 x 8 Mbit/s on 30 Mbit/s). Each in two deliveries: DASH (2 s segments fetched one
// at a time, a request round trip between them) and continuous (segments back to back, as the thesis's
// RTSP-over-TCP proxy delivered). Then the bench's `lte` suite (its traces, delay and buffer) with the player's ABR
// ladder, DASH: average bitrate and queueing delay beside the buffering ratio. Controllers: every one the registry (protocol/src/schemes.ts) lists for the
// datagram transport and this build has, but `fixed`. Writes JSON and CSV into build/video/; logs go to stderr.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { WASM_CONTROLLERS } from '@pcc-stream/protocol';
import { userPath } from '@pcc-stream/protocol/node/user-path';
import { abrLadder, fixedBitratesKbps, segmentDurationS } from '@pcc-stream/player/media';
import { meanCi95, type MeanCi } from './stats.ts';
import { suiteScenarios } from './suites.ts';
import { assertSimBuilt, controllerDir, runSim, simControllers, type SimResult } from '@pcc-stream/controller/paper/run-sim';
import { runPool } from '@pcc-stream/controller/paper/pool';
import { renderTable, toCsv, type Cell } from '@pcc-stream/controller/paper/table';
import { logEvent as log } from '@pcc-stream/controller/paper/log';

const usage = 'usage: sim-video [--quick] [--seeds N] [--duration-s S] [--jobs N] [--out DIR]\n  default: 3 seeds x 60 s per setting; --quick: 1 seed x 30 s';

/** Thesis §5.2 Fig. 5.1's bitrates and the bench's fixed-bitrate sets (seed-changing-rtt). */
const THESIS_BITRATES_MBPS = [15, 30, 50, 95];
const BENCH_BITRATES_MBPS = fixedBitratesKbps.map((kbps) => kbps / 1000);
const HEADROOM = 1.1;           // "network bandwidth of at least 10% more than the required bit rate"
const SEGMENT_S = segmentDurationS;
const LADDER_MBPS = abrLadder.renditions.map((r) => r.videoKbps / 1000);
/** `fixed` sends at a set rate: not a controller to compare. */
const NOT_COMPARED = new Set(['fixed']);
const DELIVERIES = [
  { name: 'DASH', args: [] as string[] },
  { name: 'continuous', args: ['--video-continuous'] },
];

interface Options { quick: boolean; seeds: number; durationS: number | null; jobs: number; out: string }

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv, strict: true,
    options: {
      quick: { type: 'boolean' }, seeds: { type: 'string' }, 'duration-s': { type: 'string' }, jobs: { type: 'string' }, out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(usage + '\n');
    process.exit(0);
  }
  const integer = (flag: string, raw: string, lowest: number, highest: number): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < lowest || n > highest) throw new Error(`--${flag} must be an integer in [${lowest}, ${highest}]`);
    return n;
  };
  const quick = values.quick === true;
  return {
    quick,
    seeds: values.seeds === undefined ? (quick ? 1 : 3) : integer('seeds', values.seeds, 1, 100),
    durationS: values['duration-s'] === undefined ? null : integer('duration-s', values['duration-s'], 1, 3600),
    jobs: values.jobs === undefined ? 2 : integer('jobs', values.jobs, 1, 64),
    out: values.out === undefined ? join(controllerDir, 'build', 'video') : userPath(values.out),
  };
}

async function availableControllers(): Promise<string[]> {
  const compared = WASM_CONTROLLERS.filter((name) => !NOT_COMPARED.has(name));
  return simControllers(compared, (cc) => log({ event: 'controller_unavailable', cc }));
}

interface Job { key: string; args: string[] }

/** Runs every job (in parallel up to `jobs`), logging progress with an ETA. */
async function runJobs(jobs: Job[], parallel: number): Promise<Map<string, SimResult>> {
  const started = Date.now();
  let lastLogged = 0;
  const results = await runPool(jobs.map((job) => async () => (await runSim(job.args)).result), parallel, (done) => {
    const now = Date.now();
    if (done === jobs.length || now - lastLogged > 5000) {
      lastLogged = now;
      const elapsedS = (now - started) / 1000;
      log({ event: 'progress', done, total: jobs.length, elapsed_s: Math.round(elapsedS), eta_s: Math.round((elapsedS / done) * (jobs.length - done)) });
    }
  });
  return new Map(jobs.map((job, i) => [job.key, results[i] as SimResult]));
}

/** Mean buffering ratio of a run's video flows. */
function bufferingRatio(result: SimResult): number {
  const ratios = result.flows.flatMap((f) => (f.video ? [f.video.buffering_ratio] : []));
  if (ratios.length === 0) throw new Error('pcc-sim reported no video flow');
  return ratios.reduce((s, r) => s + r, 0) / ratios.length;
}

function percent(ci: MeanCi): string {
  if (!Number.isFinite(ci.mean)) return '-';
  return ci.n > 1 ? `${(100 * ci.mean).toFixed(2)} ± ${(100 * ci.ci95).toFixed(2)}` : (100 * ci.mean).toFixed(2);
}

/** How far below `other` a ratio is, in percent of `other` (the thesis's "reduction"), or how many times above it. */
function reduction(ours: number, other: number): string {
  if (!Number.isFinite(ours) || !Number.isFinite(other)) return '-';
  if (ours === 0 && other === 0) return 'both 0';
  if (ours <= other) return `${(100 * (1 - ours / other)).toFixed(0)}% below`;
  return other > 0 ? `${(ours / other).toFixed(1)}x above` : 'above (theirs 0)';
}

interface TableOut { id: string; title: string; setup: string; headers: string[]; rows: Cell[][]; notes: string[]; raw: unknown }

function printTable(out: string, table: TableOut): void {
  process.stdout.write(`\n== ${table.title}\n${table.setup}\n\n${renderTable(table.headers, table.rows, 2)}\n`);
  for (const note of table.notes) process.stdout.write(`${note}\n`);
  writeFileSync(join(out, `${table.id}.csv`), toCsv(table.headers, table.rows));
  writeFileSync(join(out, `${table.id}.json`), JSON.stringify({ id: table.id, title: table.title, setup: table.setup, headers: table.headers, rows: table.rows, notes: table.notes, raw: table.raw }, null, 1) + '\n');
}

async function main(): Promise<void> {
  let options: Options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`sim-video: ${(error as Error).message}\n${usage}\n`);
    process.exit(2);
  }
  assertSimBuilt();
  mkdirSync(options.out, { recursive: true });
  const ccs = await availableControllers();
  const seeds = Array.from({ length: options.seeds }, (_, i) => i + 1);
  const durationS = options.durationS ?? (options.quick ? 30 : 60);
  const bitrates = [...new Set([...BENCH_BITRATES_MBPS, ...THESIS_BITRATES_MBPS])].sort((a, b) => a - b);
  const started = Date.now();

  // Fig. 5.1: one player, changing RTT.
  const changingRtt: Job[] = [];
  const rttKey = (delivery: string, bitrate: number, cc: string, seed: number): string => `rtt/${delivery}/${bitrate}/${cc}/${seed}`;
  for (const delivery of DELIVERIES) {
    for (const bitrate of bitrates) {
      for (const cc of ccs) {
        for (const seed of seeds) {
          changingRtt.push({
            key: rttKey(delivery.name, bitrate, cc, seed),
            args: ['--cc', cc, '--video-mbps', String(bitrate), '--segment-s', String(SEGMENT_S), ...delivery.args,
              '--rate-mbps', String(Number((bitrate * HEADROOM).toFixed(2))), '--rtt-schedule', '10:100:5', '--buffer-kb', '300',
              '--loss', '0.0001', '--duration-s', String(durationS), '--seed', String(seed)],
          });
        }
      }
    }
  }
  // Fig. 5.2: three players sharing a link (the bench's seed-multiflow: 3 x 8 Mbit/s on 30 Mbit/s).
  const multiflow: Job[] = [];
  const multiKey = (delivery: string, cc: string, seed: number): string => `multi/${delivery}/${cc}/${seed}`;
  for (const delivery of DELIVERIES) {
    for (const cc of ccs) {
      for (const seed of seeds) {
        multiflow.push({
          key: multiKey(delivery.name, cc, seed),
          args: ['--cc', cc, '--flows', '3', '--video-mbps', '8', '--segment-s', String(SEGMENT_S), ...delivery.args, '--rate-mbps', '30',
            '--rtt-ms', '100', '--buffer-kb', '75', '--loss', '0.0001', '--duration-s', String(durationS), '--seed', String(seed)],
        });
      }
    }
  }
  // The bench's lte suite: one ABR player on each trace.
  const lteScenarios = suiteScenarios('lte').flatMap((scenario) => {
    const down = scenario.link.down;
    const queue = scenario.link.queue;
    if (!('tracePath' in down) || !('oneWayMs' in scenario.delay) || !('bytes' in queue) || queue.bytes === undefined) return [];
    return [{ name: scenario.name, trace: down.tracePath, rttMs: 2 * scenario.delay.oneWayMs, bufferKb: queue.bytes / 1000 }];
  });
  const lte: Job[] = [];
  const lteKey = (scenario: string, cc: string, seed: number): string => `lte/${scenario}/${cc}/${seed}`;
  for (const scenario of lteScenarios) {
    for (const cc of ccs) {
      for (const seed of seeds) {
        lte.push({
          key: lteKey(scenario.name, cc, seed),
          args: ['--cc', cc, '--video-abr', LADDER_MBPS.join(','), '--segment-s', String(SEGMENT_S), '--trace', scenario.trace,
            '--rtt-ms', String(scenario.rttMs), '--buffer-kb', String(scenario.bufferKb), '--duration-s', String(durationS), '--seed', String(seed)],
        });
      }
    }
  }
  log({ event: 'start', runs: changingRtt.length + multiflow.length + lte.length, controllers: ccs, seeds: seeds.length, duration_s: durationS });
  const results = await runJobs([...changingRtt, ...multiflow, ...lte], options.jobs);
  const ratioCi = (keys: string[]): MeanCi => meanCi95(keys.map((key) => bufferingRatio(results.get(key) as SimResult)));
  const ccShown = ccs.map((cc) => `${cc} %`);
  /** The thesis's own scheme (its figures say Allegro-Latency) and ours, each held against the better TCP. */
  const compared = ['allegro-latency', 'vivace', 'vivace-video'].filter((cc) => ccs.includes(cc));

  process.stdout.write(`# pcc-sim: video buffering ratio (${options.quick ? 'quick' : 'default'} run, ${seeds.length} seed${seeds.length > 1 ? 's' : ''}, ${durationS} s each)\n`);
  for (const delivery of DELIVERIES) {
    const ci = (bitrate: number, cc: string): MeanCi => ratioCi(seeds.map((seed) => rttKey(delivery.name, bitrate, cc, seed)));
    const rows: Cell[][] = bitrates.map((bitrate) => {
      const thesisRate = THESIS_BITRATES_MBPS.includes(bitrate);
      const bestTcp = Math.min(...['cubic', 'bbr'].filter((n) => ccs.includes(n)).map((n) => ci(bitrate, n).mean));
      return [bitrate, ...ccs.map((cc) => percent(ci(bitrate, cc))), thesisRate ? '< 5; CUBIC, BBR >= 10x' : '-',
        ...compared.map((cc) => reduction(ci(bitrate, cc).mean, bestTcp))];
    });
    printTable(options.out, {
      id: `fig5.1-${delivery.name.toLowerCase()}`,
      title: `Video buffering ratio under changing RTT (thesis Fig. 5.1), ${delivery.name} delivery`,
      setup: `one player, ${delivery.name === 'DASH' ? `${SEGMENT_S} s segments fetched one at a time (a request round trip between them)` : `${SEGMENT_S} s segments streamed back to back (the thesis's RTSP proxy)`}; link ${HEADROOM}x the bitrate, RTT U(10,100) ms redrawn every 5 s, 300 KB droptail, 0.01% loss, ${durationS} s; buffering ratio = stall / (stall + playing), startup excluded; mean ± 95% CI over seeds ${seeds.join(', ')}`,
      headers: ['Mbit/s', ...ccShown, 'thesis: PCC %', ...compared.map((cc) => `${cc} vs best TCP`)],
      rows,
      notes: [
        'Thesis §5.2 (Fig. 5.1, 15/30/50/95 Mbit/s, continuous RTSP-over-TCP through a PCC proxy): Allegro-Latency\'s average buffering ratio stays below 5%, at least 90% below both BBR and CUBIC. 4/8 Mbit/s are the bench\'s seed-changing-rtt bitrates.',
        '"vs best TCP": the mean against the lower of cubic\'s and bbr\'s (our WASM copies; the thesis: at least 90% below); "both 0": neither buffered.',
      ],
      raw: bitrates.map((bitrate) => ({ bitrate_mbps: bitrate, results: ccs.map((cc) => ({ cc, buffering_ratio: ci(bitrate, cc), runs: seeds.map((seed) => results.get(rttKey(delivery.name, bitrate, cc, seed))) })) })),
    });
  }

  const multiRows: Cell[][] = [];
  for (const delivery of DELIVERIES) {
    for (const cc of ccs) {
      const runs = seeds.map((seed) => results.get(multiKey(delivery.name, cc, seed)) as SimResult);
      const stalls = runs.reduce((s, r) => s + r.flows.reduce((t, f) => t + (f.video?.stall_count ?? 0), 0), 0) / runs.length;
      multiRows.push([delivery.name, cc, percent(ratioCi(seeds.map((seed) => multiKey(delivery.name, cc, seed)))), stalls,
        meanCi95(runs.map((r) => r.jain_index)).mean, meanCi95(runs.map((r) => 100 * r.link_utilization)).mean]);
    }
  }
  const multiMean = (delivery: string, cc: string): number => ratioCi(seeds.map((seed) => multiKey(delivery, cc, seed))).mean;
  printTable(options.out, {
    id: 'fig5.2-multiflow',
    title: 'Three players sharing a bottleneck (thesis Fig. 5.2)',
    setup: `3 players of 8 Mbit/s, 30 Mbit/s link (the bench's seed-multiflow), 100 ms RTT, 75 KB droptail, 0.01% loss, ${durationS} s; buffering ratio: mean over the players, mean ± 95% CI over seeds ${seeds.join(', ')}; stalls per run (all players); Jain index of the players' last-half throughput`,
    headers: ['delivery', 'cc', 'buffering %', 'stalls/run', 'jain', 'util %'],
    rows: multiRows,
    notes: [
      'Thesis §5.2 (Fig. 5.2): Allegro-Latency\'s buffering ratio at least 76% below BBR\'s and 90% below CUBIC\'s.',
      ...DELIVERIES.flatMap((delivery) => compared.map((cc) => `${delivery.name}, ${cc}: vs bbr ${reduction(multiMean(delivery.name, cc), multiMean(delivery.name, 'bbr'))} (thesis: >= 76% below), vs cubic ${reduction(multiMean(delivery.name, cc), multiMean(delivery.name, 'cubic'))} (thesis: >= 90% below)`)),
    ],
    raw: multiflow.map((job) => ({ args: job.args, result: results.get(job.key) })),
  });
  const lteRows: Cell[][] = [];
  for (const scenario of lteScenarios) {
    for (const cc of ccs) {
      const runs = seeds.map((seed) => results.get(lteKey(scenario.name, cc, seed)) as SimResult);
      const flows = runs.map((r) => r.flows[0]);
      lteRows.push([scenario.name, cc, percent(ratioCi(seeds.map((seed) => lteKey(scenario.name, cc, seed)))),
        meanCi95(flows.map((f) => f?.video?.average_bitrate_mbps ?? NaN)).mean, meanCi95(flows.map((f) => f?.video?.switches ?? NaN)).mean,
        meanCi95(flows.map((f) => (f ? f.p95_rtt_ms - f.min_rtt_ms : NaN))).mean, meanCi95(flows.map((f) => 100 * (f?.loss_rate ?? NaN))).mean]);
    }
  }
  printTable(options.out, {
    id: 'lte-abr',
    title: 'ABR over LTE traces (the bench\'s lte suite)',
    setup: `one player, ABR over ${LADDER_MBPS.join('/')} Mbit/s (dash.js-like throughput rule), ${SEGMENT_S} s segments, DASH; each trace with the suite's one-way delay and droptail buffer, ${durationS} s; means over seeds ${seeds.join(', ')} (the seed moves only the send jitter on a trace); queueing = p95 RTT - min RTT`,
    headers: ['scenario', 'cc', 'buffering %', 'avg Mbit/s', 'switches', 'p95 queueing ms', 'loss %'],
    rows: lteRows,
    notes: ['Issue 18\'s target for the bench: vivace-video\'s average bitrate >= 95% of the better TCP scheme\'s, buffering <= 0.5%, p95 queueing <= half of cubic\'s and <= bbr\'s (here against our WASM cubic and bbr).'],
    raw: lte.map((job) => ({ args: job.args, result: results.get(job.key) })),
  });
  process.stdout.write(`\nresults: ${options.out}\n`);
  log({ event: 'done', seconds: (Date.now() - started) / 1000 });
}

main().catch((error: unknown) => {
  process.stderr.write(`sim-video: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
