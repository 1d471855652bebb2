// The fidelity suite (issue 17 item 1): each real run (origin + Node client or Chromium + linkem) is paired with
// the simulator (pcc-sim) on the same link, controller, parameters and seed, and both are reduced to per-second
// series: sending rate (bytes entering the bottleneck), delivery rate (bytes it delivered), RTT samples, queueing
// delay (real: linkem's log; sim: its queue), and the CPU each real process used. The differences table compares
// throughput as the thesis measures it (IP bytes the bottleneck delivered), goodput, p95 queueing delay and bytes on
// the wire per byte delivered.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { traceFile } from '@pcc-stream/protocol/node/trace-file';
import { schemeTransport } from './schemes.ts';
import type { CpuSample } from './cpu-sampler.ts';
import { repoRoot } from './repo-root.ts';
import { mmLogLines } from '../linkem/src/driver/index.ts';
import type { RunResult } from './results.ts';
import type { Scenario, Scheme } from './scenario.ts';
import { meanCi95, percentile, signFlipTest } from './stats.ts';
import { timeSeriesChart, type Series } from './svg-charts.ts';

export const SIM_BINARY = join(repoRoot, 'controller-wasm', 'build', 'sim', 'pcc-sim');
/** The simulator's packet size on the wire: a full-size datagram on a 1500-byte MTU path, as the origin sends. */
export const SIM_PACKET_BYTES = 1500;
/** The simulator's sampling interval: ten samples a second, averaged per second; its queueing-delay samples give the
 *  p95 (time-weighted; linkem's is per packet). */
export const SIM_SAMPLE_MS = 100;

/** One second of a run, real or simulated; absent quantities are omitted. */
export interface FidelitySecond {
  t_s: number;
  sending_mbps?: number;
  delivery_mbps?: number;
  rtt_ms?: number;
  rtt_p95_ms?: number;
  queue_delay_ms?: number;
  queue_delay_max_ms?: number;
  cpu?: Record<string, number>;
}

/** The per-run figures of the differences table, real beside simulated. */
export interface FidelityRecord {
  real_throughput_mbps: number;
  sim_throughput_mbps: number;
  real_goodput_mbps: number | null;
  real_queue_p95_ms: number;
  sim_queue_p95_ms: number;
  real_wire_per_delivered: number | null;
  /** Simulated packets sent per packet delivered (retransmissions and drops; the simulator has no headers). */
  sim_wire_per_delivered: number;
  /** Mean CPU per process class over the run, percent of one core; and the highest second of the busiest. */
  cpu_mean_percent: Record<string, number>;
  cpu_total_max_percent: number;
  /** Mean run-queue wait per process class, summed over its threads, percent of one thread's time (runnable, no core
   * free: CPU contention; above 100 when several threads wait). */
  cpu_wait_mean_percent?: Record<string, number>;
}

/** Only the WASM controllers exist in the simulator; other schemes get no sim pairing. */
export function simulatable(scheme: Scheme): boolean {
  return schemeTransport(scheme).transport === 'datagram';
}

export function simArgs(scenario: Scenario, scheme: Scheme, seed: number, params: Record<string, number>): string[] {
  const args = ['--cc', schemeTransport(scheme).cc, '--duration-s', String(scenario.durationS), '--seed', String(seed),
    '--packet-bytes', String(SIM_PACKET_BYTES), '--sample-ms', String(SIM_SAMPLE_MS), '--json', '--loss', String(scenario.loss.down)];
  const down = scenario.link.down;
  if ('rateMbps' in down) args.push('--rate-mbps', String(down.rateMbps));
  else args.push('--trace', traceFile(down.tracePath));
  const queue = scenario.link.queue;
  // An infinite queue or a packet-limited one has no byte limit in the simulator: 100 MB stands for "unlimited".
  const bytes = queue.type === 'infinite' ? 100e6 : queue.bytes ?? (queue.packets ?? 1000) * SIM_PACKET_BYTES;
  args.push('--buffer-kb', String(bytes / 1000));
  if ('oneWayMs' in scenario.delay) args.push('--rtt-ms', String(2 * scenario.delay.oneWayMs));
  else {
    const p = scenario.delay.rttPattern;
    // Same range and period as linkem's RTT pattern; the draws themselves come from the simulator's generator.
    args.push('--rtt-ms', String(p.minMs), '--rtt-schedule', `${p.minMs}:${p.maxMs}:${p.periodS}`);
  }
  for (const [name, value] of Object.entries(params)) args.push('--cc-param', `${name}=${value}`);
  return args;
}

interface SimJson { flows: Array<{ throughput_mbps: number; p95_rtt_ms: number; min_rtt_ms: number; packets_sent: number; packets_received: number }> }

/** Runs the simulator for one run; writes sim.csv and sim.json in runDir and returns its per-second series and the
 *  p95 of its queueing-delay samples. */
export function runSim(runDir: string, scenario: Scenario, scheme: Scheme, seed: number, params: Record<string, number>): { seconds: FidelitySecond[]; json: SimJson; queueP95Ms: number } {
  const csvPath = join(runDir, 'sim.csv');
  const args = [...simArgs(scenario, scheme, seed, params), '--csv', csvPath];
  const r = spawnSync(SIM_BINARY, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`pcc-sim ${args.join(' ')} exited with ${r.status}: ${r.stderr.trim()}`);
  writeFileSync(join(runDir, 'sim.json'), r.stdout);
  const json = JSON.parse(r.stdout) as SimJson;
  const [header, ...rows] = readFileSync(csvPath, 'utf8').trim().split('\n');
  const col = (name: string) => header!.split(',').indexOf(name);
  const [t, send, thru, rtt, qd] = ['time_s', 'send_rate_mbps', 'throughput_mbps', 'rtt_ms', 'queue_delay_ms'].map(col);
  const perSecond: number[][][] = [];
  const delays: number[] = [];
  for (const row of rows) {
    const f = row.split(',');
    // A row at time T covers the interval before it.
    const second = Math.ceil(Number(f[t!]) - 1e-9) - 1;
    (perSecond[second] ??= []).push([Number(f[send!]), Number(f[thru!]), Number(f[rtt!]), Number(f[qd!])]);
    delays.push(Number(f[qd!]));
  }
  const avg = (v: number[][], i: number) => v.reduce((a, x) => a + x[i]!, 0) / v.length;
  const seconds = perSecond.flatMap((v, s) => (v && v.length > 0 ? [{
    t_s: s, sending_mbps: avg(v, 0), delivery_mbps: avg(v, 1), rtt_ms: avg(v, 2), queue_delay_ms: avg(v, 3), queue_delay_max_ms: Math.max(...v.map((x) => x[3]!)),
  }] : []));
  return { seconds, json, queueP95Ms: percentile(delays, 95) };
}

/** linkem's downlink log reduced per second, from the first byte that entered the link (the session's start). */
export function linkSeconds(logPath: string): { seconds: FidelitySecond[]; firstArrivalMs: number; queueDelaysMs: number[] } {
  const text = readFileSync(logPath, 'utf8');
  let firstArrivalMs = Number.NaN;
  const arrived: number[] = [];
  const departed: number[] = [];
  const delays: number[][] = [];
  const all: number[] = [];
  for (const line of mmLogLines(text)) {
    if (line === '' || line.startsWith('#')) continue;
    const f = line.split(' ');
    const tMs = Number(f[0]);
    if (f[1] === '+') {
      if (Number.isNaN(firstArrivalMs)) firstArrivalMs = tMs;
      const s = Math.floor((tMs - firstArrivalMs) / 1000);
      arrived[s] = (arrived[s] ?? 0) + Number(f[2]);
    } else if (f[1] === '-' && !Number.isNaN(firstArrivalMs)) {
      const s = Math.floor((tMs - firstArrivalMs) / 1000);
      departed[s] = (departed[s] ?? 0) + Number(f[2]);
      (delays[s] ??= []).push(Number(f[3]));
      all.push(Number(f[3]));
    }
  }
  const n = Math.max(arrived.length, departed.length);
  const seconds: FidelitySecond[] = [];
  for (let s = 0; s < n; s++) {
    const d = delays[s] ?? [];
    seconds.push({
      t_s: s, sending_mbps: ((arrived[s] ?? 0) * 8) / 1e6, delivery_mbps: ((departed[s] ?? 0) * 8) / 1e6,
      ...(d.length > 0 ? { queue_delay_ms: d.reduce((a, b) => a + b, 0) / d.length, queue_delay_max_ms: Math.max(...d) } : {}),
    });
  }
  return { seconds, firstArrivalMs, queueDelaysMs: all };
}

/** RTT samples per second of the session from its recording (every ACK's sample, as the controller got it). */
export function recordedRttSeconds(recordDir: string): Array<{ t_s: number; rtt_ms: number; rtt_p95_ms: number }> {
  if (!existsSync(recordDir)) return [];
  const files = readdirSync(recordDir).filter((f) => f.endsWith('.replay')).sort();
  if (files.length === 0) return [];
  const perSecond: number[][] = [];
  let createUs = Number.NaN;
  for (const line of readFileSync(join(recordDir, files[0]!), 'utf8').split('\n')) {
    if (line.startsWith('create ')) createUs = Number(line.split(' ')[3]);
    else if (line.startsWith('ack ')) {
      const f = line.split(' ');
      const rttUs = Number(f[2]);
      if (rttUs > 0) (perSecond[Math.floor((Number(f[4]) - createUs) / 1e6)] ??= []).push(rttUs / 1000);
    }
  }
  const out: Array<{ t_s: number; rtt_ms: number; rtt_p95_ms: number }> = [];
  perSecond.forEach((v, s) => {
    if (v && v.length > 0) out.push({ t_s: s, rtt_ms: v.reduce((a, b) => a + b, 0) / v.length, rtt_p95_ms: percentile(v, 95) });
  });
  return out;
}

export interface FidelityInputs {
  runDir: string;
  scenario: Scenario;
  scheme: Scheme;
  seed: number;
  params: Record<string, number>;
  cpu: CpuSample[];
  goodputMbps: number | null;
  wirePerDelivered: number | null;
  /** linkem's start, ms after the CPU sampler's start (to put CPU seconds on the link's clock). */
  linkStartOffsetMs: number;
}

/** Builds fidelity.json (both series, aligned by second from the session's start) and the run's record. */
export function collectFidelity(inputs: FidelityInputs): FidelityRecord {
  const { runDir, scenario, scheme, seed, params, cpu } = inputs;
  const link = linkSeconds(join(runDir, 'link-down.log'));
  const rtt = recordedRttSeconds(join(runDir, 'record'));
  const real: FidelitySecond[] = link.seconds.slice(0, Math.ceil(scenario.durationS)).map((s) => {
    const r = rtt.find((x) => x.t_s === s.t_s);
    // CPU seconds are on the sampler's clock; the link log's on linkem's: shift by both offsets.
    const cpuT = s.t_s + 1 + (link.firstArrivalMs + inputs.linkStartOffsetMs) / 1000;
    const c = cpu.find((x) => Math.abs(x.t_s - cpuT) < 0.55);
    return { ...s, ...(r ? { rtt_ms: r.rtt_ms, rtt_p95_ms: r.rtt_p95_ms } : {}), ...(c ? { cpu: c.percent } : {}) };
  });
  const sim = simulatable(scheme) ? runSim(runDir, scenario, scheme, seed, params) : null;
  const flow = sim?.json.flows[0];
  const seconds = Math.max(1, real.length);
  const realBytesMbps = real.reduce((a, s) => a + (s.delivery_mbps ?? 0), 0) / seconds;
  const cpuMean: Record<string, number> = {};
  for (const s of cpu) for (const [k, v] of Object.entries(s.percent)) cpuMean[k] = (cpuMean[k] ?? 0) + v / Math.max(1, cpu.length);
  const waitMean: Record<string, number> = {};
  for (const s of cpu) for (const [k, v] of Object.entries(s.waitPercent ?? {})) waitMean[k] = (waitMean[k] ?? 0) + v / Math.max(1, cpu.length);
  const record: FidelityRecord = {
    real_throughput_mbps: realBytesMbps,
    sim_throughput_mbps: flow?.throughput_mbps ?? Number.NaN,
    real_goodput_mbps: inputs.goodputMbps,
    real_queue_p95_ms: percentile(link.queueDelaysMs, 95),
    sim_queue_p95_ms: sim?.queueP95Ms ?? Number.NaN,
    real_wire_per_delivered: inputs.wirePerDelivered,
    sim_wire_per_delivered: flow && flow.packets_received > 0 ? flow.packets_sent / flow.packets_received : Number.NaN,
    cpu_mean_percent: cpuMean,
    cpu_total_max_percent: Math.max(0, ...cpu.map((s) => Object.values(s.percent).reduce((a, b) => a + b, 0))),
    cpu_wait_mean_percent: waitMean,
  };
  writeFileSync(join(runDir, 'fidelity.json'), JSON.stringify({ real, sim: sim?.seconds ?? [], record, sim_args: sim ? simArgs(scenario, scheme, seed, params) : null }));
  return record;
}

function cell(values: number[], digits: number): string {
  const m = meanCi95(values);
  if (m.n === 0) return 'n/a';
  return m.n > 1 ? `${m.mean.toFixed(digits)} ± ${m.ci95.toFixed(digits)}` : m.mean.toFixed(digits);
}

/** Paired real − sim per repetition: mean ± 95% CI and the exact sign-flip p. */
function pairedCell(real: number[], sim: number[], digits: number): string {
  const d = real.map((r, i) => r - sim[i]!).filter(Number.isFinite);
  if (d.length === 0) return 'n/a';
  const m = meanCi95(d);
  const p = d.length >= 3 ? `, p ${signFlipTest(d).p.toFixed(2)}` : '';
  return `${m.mean >= 0 ? '+' : ''}${m.mean.toFixed(digits)}${m.n > 1 ? ` ± ${m.ci95.toFixed(digits)}` : ''}${p}`;
}

export interface FidelityReport {
  markdown: string;
  /** Plot names written (SVG via the caller's writer). */
  plots: Array<{ name: string; svg: string }>;
}

/** The differences table and the per-second overlays of every scenario and scheme (first repetition). */
export function fidelityReport(outDir: string, results: readonly RunResult[]): FidelityReport {
  const runs = results.filter((r) => r.status === 'ok' && r.fidelity);
  if (runs.length === 0) return { markdown: '', plots: [] };
  const lines = [
    '### Fidelity: real path vs simulator',
    '',
    'Per scenario and scheme, means ± 95% CI over repetitions (the seed is the repetition); real − sim paired per repetition with the exact sign-flip p. Throughput: IP bytes the bottleneck delivered (real: linkem\'s log; sim: bytes received). p95 queueing: real, linkem\'s per-packet queueing delay; sim, its queue sampled every 100 ms. Wire per delivered: real, linkem\'s IP bytes per application byte; sim, packets sent per packet delivered (no headers modelled). CPU: mean percent of one core over the run; waiting: mean run-queue wait (/proc schedstat: runnable, no core free), summed over the process\'s threads, percent of one thread\'s time (can exceed 100 with several threads), i.e. descheduled by contention rather than busy.',
    '',
    '| scenario | scheme | runs | throughput real Mbit/s | sim | real − sim | goodput real | p95 queueing real ms | sim | real − sim | wire/delivered real | sim | CPU origin / client / linkem / chromium % | busiest second, all % | waiting for a core origin / client / linkem % |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const plots: Array<{ name: string; svg: string }> = [];
  const keys = [...new Set(runs.map((r) => `${r.scenario}\u0000${r.scheme}`))];
  for (const key of keys) {
    const [scenario, scheme] = key.split('\u0000') as [string, string];
    const group = runs.filter((r) => r.scenario === scenario && r.scheme === scheme);
    const f = group.map((r) => r.fidelity!);
    const pick = (k: keyof FidelityRecord) => f.map((x) => x[k] as number);
    const cpu = (name: string) => cell(f.map((x) => x.cpu_mean_percent[name] ?? 0), 0);
    const wait = (name: string) => cell(f.map((x) => x.cpu_wait_mean_percent?.[name] ?? Number.NaN), 1);
    lines.push(`| ${scenario} | ${scheme} | ${group.length} | ${cell(pick('real_throughput_mbps'), 1)} | ${cell(pick('sim_throughput_mbps'), 1)} | ${pairedCell(pick('real_throughput_mbps'), pick('sim_throughput_mbps'), 1)} | ${cell(f.map((x) => x.real_goodput_mbps ?? Number.NaN), 1)} | ${cell(pick('real_queue_p95_ms'), 1)} | ${cell(pick('sim_queue_p95_ms'), 1)} | ${pairedCell(pick('real_queue_p95_ms'), pick('sim_queue_p95_ms'), 1)} | ${cell(f.map((x) => x.real_wire_per_delivered ?? Number.NaN), 3)} | ${cell(pick('sim_wire_per_delivered'), 3)} | ${cpu('origin')} / ${cpu('client')} / ${cpu('linkem')} / ${cpu('chromium')} | ${cell(pick('cpu_total_max_percent'), 0)} | ${wait('origin')} / ${wait('client')} / ${wait('linkem')} |`);
    const first = group.slice().sort((a, b) => a.repetition - b.repetition)[0]!;
    const file = join(outDir, 'runs', first.scenario, first.scheme, String(first.repetition), 'fidelity.json');
    if (!existsSync(file)) continue;
    const data = JSON.parse(readFileSync(file, 'utf8')) as { real: FidelitySecond[]; sim: FidelitySecond[] };
    const pts = (rows: FidelitySecond[], k: keyof FidelitySecond) =>
      rows.filter((s) => typeof s[k] === 'number').map((s) => [s.t_s + 0.5, s[k] as number] as const);
    const name = `${scenario}-${scheme}`.replace(/[^A-Za-z0-9._-]+/g, '_');
    const title = `${scenario}: ${scheme}, run ${first.repetition}`;
    plots.push({ name: `fidelity-${name}-rates`, svg: timeSeriesChart(`${title}: rates`, 'Mbit/s', null, [
      { name: 'real sending', points: pts(data.real, 'sending_mbps'), colorIndex: 0 },
      { name: 'real delivery', points: pts(data.real, 'delivery_mbps'), colorIndex: 1 },
      { name: 'sim sending', points: pts(data.sim, 'sending_mbps'), colorIndex: 2 },
      { name: 'sim delivery', points: pts(data.sim, 'delivery_mbps'), colorIndex: 3 },
    ] satisfies Series[]) });
    plots.push({ name: `fidelity-${name}-delay`, svg: timeSeriesChart(`${title}: RTT and queueing`, 'ms', null, [
      { name: 'real RTT (mean)', points: pts(data.real, 'rtt_ms'), colorIndex: 0 },
      { name: 'real RTT (p95)', points: pts(data.real, 'rtt_p95_ms'), colorIndex: 4 },
      { name: 'real queueing', points: pts(data.real, 'queue_delay_ms'), colorIndex: 1 },
      { name: 'sim RTT', points: pts(data.sim, 'rtt_ms'), colorIndex: 2 },
      { name: 'sim queueing', points: pts(data.sim, 'queue_delay_ms'), colorIndex: 3 },
    ] satisfies Series[]) });
    const cpuSeries = ['origin', 'client', 'linkem', 'chromium', 'bench'].map((c, i) => ({
      name: `${c} CPU`, colorIndex: i,
      points: data.real.filter((s) => s.cpu).map((s) => [s.t_s + 0.5, s.cpu![c] ?? 0] as const),
    })).filter((s) => s.points.some(([, v]) => v > 0));
    if (cpuSeries.length > 0) plots.push({ name: `fidelity-${name}-cpu`, svg: timeSeriesChart(`${title}: CPU per process`, '% of one core', null, cpuSeries) });
  }
  lines.push('');
  return { markdown: lines.join('\n'), plots };
}
