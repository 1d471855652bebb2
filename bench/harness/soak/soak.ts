// `npm run -s bench -- --suite soak --minutes N --out DIR` (issue 20 item 2; not in CI): 50 Node-client sessions at
// mixed bitrates and controllers (soak-plan.ts) behind linkem for N minutes. Every 10 s the origin's RSS, open fds,
// timers and sessions (/status) and each session's bytes are sampled; soak.jsonl keeps every sample as it is taken
// (a crash leaves the samples so far readable), summary.md the figures against the targets (RSS growth ≤ 5 %
// after warm-up, no fd growth, pacing error unchanged) and plots/*.svg the series.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startOriginProcess } from '@pcc-stream/server/process';
import { userPath } from '@pcc-stream/protocol/node/user-path';
import { startLink } from '../link.ts';
import { repoRoot } from '../repo-root.ts';
import { ensureBulkObject } from '../run-bulk.ts';
import { PORTS } from '../runner.ts';
import { parseScenario } from '../scenario.ts';
import { timeSeriesChart, type Series } from '../svg-charts.ts';
import type { SoakClientSample } from './soak-clients.ts';
import { SAMPLE_INTERVAL_S, SOAK_SESSIONS, WARM_UP_S, soakPlan, type SoakSession } from './soak-plan.ts';

export const SOAK_USAGE = `usage: npm run -s bench -- --suite soak --minutes N --out DIR [--sessions N] [--media DIR]
  --minutes N      how long the sessions run (the issue's target is judged over 30)
  --sessions N     sessions (default ${SOAK_SESSIONS}: controllers vivace, allegro, bbr, cubic, fixed x 0.5/1/2 Mbit/s)
  --media DIR      media root (default .cache/media; the soak reads a sparse object it creates there)
  --report-only    rewrite summary.md and plots from DIR/soak.jsonl (same --minutes and --sessions)
Outputs in DIR: soak.jsonl (a line per 10 s sample), plan.json (the sessions), summary.md, plots/{rss,fds,pacing-error,goodput}.svg`;

/** The targets over a 30 min soak. */
export const MAX_RSS_GROWTH = 0.05;
/** Pacing error "unchanged": the last quarter's median within this many points of the first quarter's (after warm-up). */
export const MAX_PACING_ERROR_DRIFT = 0.02;
const MAX_MINUTES = 24 * 60;

export class SoakUsageError extends Error {}

export interface SoakSample {
  t_s: number;
  rss_bytes: number;
  heap_used_bytes: number;
  open_fds: number | null;
  active_timers: number;
  sessions: number;
  send_loop_members: number;
  /** Per `fixed` session of the origin: |sent datagram rate / pacing rate − 1| over the last interval. */
  pacing_error_median: number | null;
  pacing_error_max: number | null;
  /** Per plan session: Mbit/s received over the last interval (client side). */
  goodput_mbps: number[];
  /** Sessions reopened after an error, so far. */
  client_errors: number;
  load_avg_1m: number;
}

interface OriginSessionStats {
  id: number;
  algorithm?: string;
  sent_datagram_bytes?: number;
  pacing_rate_bps?: number;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export interface SoakFigures {
  minutes: number;
  samples: number;
  rss_after_warm_up_mb: number | null;
  rss_end_mb: number | null;
  rss_growth: number | null;
  fds_after_warm_up: number | null;
  fds_end: number | null;
  pacing_error_first_quarter: number | null;
  pacing_error_last_quarter: number | null;
  mean_goodput_mbps_per_session: number | null;
  client_errors: number;
}

/** The figures of a soak from its samples (pure: also what the short test checks). */
export function soakFigures(samples: readonly SoakSample[], minutes: number): SoakFigures {
  const after = samples.filter((s) => s.t_s >= Math.min(WARM_UP_S, (minutes * 60) / 4));
  // RSS moves by ±10 % between samples as V8 collects: the first and last quarter's medians, not two single samples.
  const quarter = Math.max(1, Math.floor(after.length / 4));
  const head = after.slice(0, quarter);
  const tail = after.slice(-quarter);
  const med = (part: readonly SoakSample[], pick: (s: SoakSample) => number | null) => median(part.map(pick).filter((v): v is number => v !== null));
  const rssHead = med(head, (s) => s.rss_bytes);
  const rssTail = med(tail, (s) => s.rss_bytes);
  const goodputs = after.flatMap((s) => s.goodput_mbps);
  return {
    minutes, samples: samples.length,
    rss_after_warm_up_mb: rssHead === null ? null : rssHead / 1048576, rss_end_mb: rssTail === null ? null : rssTail / 1048576,
    rss_growth: rssHead !== null && rssTail !== null ? rssTail / rssHead - 1 : null,
    fds_after_warm_up: med(head, (s) => s.open_fds), fds_end: med(tail, (s) => s.open_fds),
    pacing_error_first_quarter: med(head, (s) => s.pacing_error_median), pacing_error_last_quarter: med(tail, (s) => s.pacing_error_median),
    mean_goodput_mbps_per_session: goodputs.length === 0 ? null : goodputs.reduce((a, b) => a + b, 0) / goodputs.length,
    client_errors: samples.at(-1)?.client_errors ?? 0,
  };
}

function writeOutputs(outDir: string, samples: readonly SoakSample[], plan: readonly SoakSession[], minutes: number, note: string): SoakFigures {
  const f = soakFigures(samples, minutes);
  const plots = join(outDir, 'plots');
  mkdirSync(plots, { recursive: true });
  const xy = (pick: (s: SoakSample) => number | null): Array<[number, number]> =>
    samples.flatMap((s) => { const v = pick(s); return v === null ? [] : [[s.t_s, v] as [number, number]]; });
  writeFileSync(join(plots, 'rss.svg'), timeSeriesChart('Origin RSS and V8 heap; load of the shared machine', 'MiB', 'load avg (1 min)', [
    { name: 'RSS', points: xy((s) => s.rss_bytes / 1048576) }, { name: 'V8 heap used', points: xy((s) => s.heap_used_bytes / 1048576) },
    { name: 'load avg', points: xy((s) => s.load_avg_1m), axis: 'right' },
  ]));
  writeFileSync(join(plots, 'fds.svg'), timeSeriesChart('Origin open fds, timers and sessions', 'count', null, [
    { name: 'open fds', points: xy((s) => s.open_fds) }, { name: 'timers', points: xy((s) => s.active_timers) },
    { name: 'sessions', points: xy((s) => s.sessions) },
  ]));
  writeFileSync(join(plots, 'pacing-error.svg'), timeSeriesChart('Pacing error of the fixed-rate sessions (|sent / paced − 1|)', 'ratio', null, [
    { name: 'median', points: xy((s) => s.pacing_error_median) }, { name: 'max', points: xy((s) => s.pacing_error_max) },
  ]));
  const byCc = new Map<string, number[]>();
  for (const s of plan) byCc.set(`${s.cc}`, [...(byCc.get(s.cc) ?? []), s.index]);
  const goodputSeries: Series[] = [...byCc.entries()].map(([cc, indexes]) => ({
    name: `${cc} (mean of ${indexes.length})`,
    points: xy((s) => indexes.reduce((sum, i) => sum + (s.goodput_mbps[i] ?? 0), 0) / indexes.length),
  }));
  writeFileSync(join(plots, 'goodput.svg'), timeSeriesChart('Per-session goodput by controller (10 s means)', 'Mbit/s', null, goodputSeries));
  const fmt = (v: number | null, digits = 2) => (v === null ? 'n/a' : v.toFixed(digits));
  const pass = (ok: boolean | null) => (ok === null ? 'n/a' : ok ? 'yes' : 'NO');
  const drift = f.pacing_error_first_quarter !== null && f.pacing_error_last_quarter !== null
    ? f.pacing_error_last_quarter - f.pacing_error_first_quarter : null;
  writeFileSync(join(outDir, 'summary.md'), [
    `# Soak: ${plan.length} sessions, ${minutes} min`, '', note, '',
    '| figure | target | measured | pass |', '| --- | --- | --- | --- |',
    `| RSS growth after warm-up (median of the first → last quarter) | ≤ ${MAX_RSS_GROWTH * 100}% | ${fmt(f.rss_after_warm_up_mb, 1)} → ${fmt(f.rss_end_mb, 1)} MiB (${f.rss_growth === null ? 'n/a' : (f.rss_growth * 100).toFixed(1)}%) | ${pass(f.rss_growth === null ? null : f.rss_growth <= MAX_RSS_GROWTH)} |`,
    `| open fds (median of the first → last quarter) | no growth | ${f.fds_after_warm_up ?? 'n/a'} → ${f.fds_end ?? 'n/a'} | ${pass(f.fds_end === null || f.fds_after_warm_up === null ? null : f.fds_end <= f.fds_after_warm_up)} |`,
    `| pacing error (median of fixed sessions), first → last quarter | within ${MAX_PACING_ERROR_DRIFT * 100} points | ${fmt(f.pacing_error_first_quarter, 4)} → ${fmt(f.pacing_error_last_quarter, 4)} | ${pass(drift === null ? null : Math.abs(drift) <= MAX_PACING_ERROR_DRIFT)} |`,
    `| mean goodput per session | (asked: mean ${(plan.reduce((s, p) => s + p.bitrateMbps, 0) / plan.length).toFixed(2)} Mbit/s) | ${fmt(f.mean_goodput_mbps_per_session, 3)} Mbit/s | |`,
    `| sessions reopened after an error | | ${f.client_errors} | |`, '',
    `Samples: ${f.samples} (every ${SAMPLE_INTERVAL_S} s; warm-up ${WARM_UP_S} s). Plots: plots/rss.svg, plots/fds.svg, plots/pacing-error.svg, plots/goodput.svg.`, '',
  ].join('\n'));
  return f;
}

export interface SoakArgs { minutes: number; outDir: string; sessions: number; mediaDir: string; reportOnly: boolean }

export function parseSoakArgs(argv: string[]): SoakArgs {
  const { values } = parseArgs({
    args: argv, strict: true,
    options: {
      suite: { type: 'string' }, minutes: { type: 'string' }, out: { type: 'string' }, sessions: { type: 'string' }, media: { type: 'string' },
      'report-only': { type: 'boolean' }, help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(SOAK_USAGE);
    process.exit(0);
  }
  const minutes = Number(values.minutes);
  if (values.minutes === undefined || !(minutes > 0 && minutes <= MAX_MINUTES)) throw new SoakUsageError(`--minutes must be a number in (0, ${MAX_MINUTES}]`);
  if (!values.out) throw new SoakUsageError('--out DIR is required');
  const sessions = values.sessions === undefined ? SOAK_SESSIONS : Number(values.sessions);
  if (!(Number.isInteger(sessions) && sessions >= 1 && sessions <= 200)) throw new SoakUsageError('--sessions must be an integer 1..200');
  return {
    minutes, outDir: userPath(values.out), sessions, mediaDir: values.media ? userPath(values.media) : join(repoRoot, '.cache', 'media'),
    reportOnly: values['report-only'] === true,
  };
}

/** Rewrites summary.md and the plots from DIR/soak.jsonl (--report-only). */
export function reportSoak(options: SoakArgs): SoakFigures {
  const jsonl = join(options.outDir, 'soak.jsonl');
  if (!existsSync(jsonl)) throw new SoakUsageError(`${jsonl} does not exist: nothing to report`);
  const samples = readFileSync(jsonl, 'utf8').trim().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as SoakSample);
  // The plan the run used (plan.json), which is what its per-session samples are indexed by.
  const planPath = join(options.outDir, 'plan.json');
  const plan = existsSync(planPath) ? (JSON.parse(readFileSync(planPath, 'utf8')) as SoakSession[]) : soakPlan(options.sessions);
  return writeOutputs(options.outDir, samples, plan, options.minutes, soakNote(plan.length));
}

function soakNote(sessions: number): string {
  return `${sessions} sessions on a 100 Mbit/s, 20 ms RTT link on a 2-core machine shared with other jobs (load avg in plots/rss.svg)`;
}

export async function runSoak(options: Omit<SoakArgs, 'reportOnly'>): Promise<SoakFigures> {
  const { minutes, outDir } = options;
  const durationS = minutes * 60;
  mkdirSync(outDir, { recursive: true });
  const jsonl = join(outDir, 'soak.jsonl');
  if (existsSync(jsonl)) rmSync(jsonl);
  ensureBulkObject(options.mediaDir);
  const plan = soakPlan(options.sessions);
  writeFileSync(join(outDir, 'plan.json'), JSON.stringify(plan, null, 1));
  const scenario = parseScenario({
    name: 'soak', mode: 'bulk', duration_s: Math.ceil(durationS) + 60, repetitions: 1,
    link: { down: { rate_mbps: 100 }, up: { rate_mbps: 100 }, queue: { type: 'droptail', bytes: 1_000_000 } },
    delay: { one_way_ms: 10 }, loss: { down: 0, up: 0 }, schemes: ['vivace'],
  }, repoRoot, 'soak link');
  const log = (event: string, detail: Record<string, unknown> = {}) => console.error(JSON.stringify({ t: new Date().toISOString(), component: 'soak', event, ...detail }));
  const runDir = join(outDir, 'run');
  mkdirSync(runDir, { recursive: true });
  const shell = await startLink(scenario, 1, runDir);
  const cleanups: Array<() => Promise<unknown>> = [async () => shell.stop()];
  const samples: SoakSample[] = [];
  const note = soakNote(plan.length);
  try {
    const ports = { host: shell.baseAddress, ...PORTS };
    const origin = await startOriginProcess({
      ...ports, mediaDir: options.mediaDir, extraArgs: ['--max-sessions-per-address', String(plan.length + 8), '--max-handshakes-per-address-per-s', '0', '--max-sessions', String(plan.length + 16), '--log-level', 'warn'],
    });
    cleanups.unshift(async () => origin.stop());
    log('started', { sessions: plan.length, minutes, origin: `${ports.host}:${origin.webTransportPort}` });
    const child = shell.spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench/harness/soak/soak-clients-main.ts'), JSON.stringify({
      origin: `https://${ports.host}:${origin.webTransportPort}`, certSha256Hex: origin.certHashHex, sessions: plan, durationS,
    })], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    cleanups.unshift(async () => { if (child.exitCode === null) child.kill('SIGKILL'); });
    const latest: { client: SoakClientSample | null } = { client: null };
    let prevClient: SoakClientSample | null = null;
    let prevOrigin = new Map<number, OriginSessionStats & { t: number }>();
    let stderrTail = '';
    child.stderr?.on('data', (c: Buffer) => { stderrTail = (stderrTail + c.toString()).slice(-3000); });
    let buffer = '';
    child.stdout?.on('data', (c: Buffer) => {
      buffer += c.toString();
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        try {
          const parsed = JSON.parse(line) as { sample?: SoakClientSample; final?: SoakClientSample };
          if (parsed.sample) latest.client = parsed.sample;
        } catch {
          /* not ours */
        }
      }
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const startMs = Date.now();
    let done = false;
    void exited.then(() => { done = true; });
    while (!done && Date.now() - startMs < (durationS + 60) * 1000) {
      await Promise.race([new Promise((r) => setTimeout(r, SAMPLE_INTERVAL_S * 1000)), exited]);
      if (done) break;
      let status: Record<string, unknown>;
      try {
        status = (await (await fetch(`${origin.httpBase}/status`, { signal: AbortSignal.timeout(5000) })).json()) as Record<string, unknown>;
      } catch (err) {
        log('status-failed', { error: err instanceof Error ? err.message : String(err), origin_exit: origin.exitCode() });
        if (origin.exitCode() !== null) throw new Error(`the origin exited (${origin.exitCode()}) during the soak: ${origin.output().slice(-1500)}`);
        continue;
      }
      const now = Date.now();
      const list = (status.session_list ?? []) as OriginSessionStats[];
      const errors: number[] = [];
      const current = new Map<number, OriginSessionStats & { t: number }>();
      for (const s of list) {
        current.set(s.id, { ...s, t: now });
        const prev = prevOrigin.get(s.id);
        if (s.algorithm !== 'fixed' || !prev || typeof s.sent_datagram_bytes !== 'number' || typeof prev.sent_datagram_bytes !== 'number' || !s.pacing_rate_bps) continue;
        const sentBps = ((s.sent_datagram_bytes - prev.sent_datagram_bytes) * 8) / ((now - prev.t) / 1000);
        errors.push(Math.abs(sentBps / s.pacing_rate_bps - 1));
      }
      prevOrigin = current;
      const client = latest.client;
      const goodput = plan.map((p) => {
        if (!client) return 0;
        const before = prevClient?.bytes[p.index] ?? 0;
        const dt = client.t_s - (prevClient?.t_s ?? 0);
        return dt > 0 ? ((client.bytes[p.index]! - before) * 8) / dt / 1e6 : 0;
      });
      prevClient = client;
      const num = (k: string): number => (typeof status[k] === 'number' ? status[k] : Number.NaN);
      const sample: SoakSample = {
        t_s: (now - startMs) / 1000, rss_bytes: num('rss_bytes'), heap_used_bytes: num('heap_used_bytes'),
        open_fds: typeof status.open_fds === 'number' ? status.open_fds : null, active_timers: num('active_timers'),
        sessions: num('sessions'), send_loop_members: num('send_loop_members'),
        pacing_error_median: median(errors), pacing_error_max: errors.length === 0 ? null : Math.max(...errors),
        goodput_mbps: goodput, client_errors: client?.errors ?? 0, load_avg_1m: loadavg()[0]!,
      };
      samples.push(sample);
      appendFileSync(jsonl, JSON.stringify(sample) + '\n');
      const elapsedS = sample.t_s;
      log('sample', {
        t_s: Math.round(elapsedS), eta_s: Math.max(0, Math.round(durationS - elapsedS)), rss_mb: +(sample.rss_bytes / 1048576).toFixed(1),
        fds: sample.open_fds, sessions: sample.sessions, pacing_error_median: sample.pacing_error_median, client_errors: sample.client_errors,
      });
      if (samples.length % 6 === 0) writeOutputs(outDir, samples, plan, minutes, note);
    }
    const code = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
    if (code !== 0) log('clients-ended', { code, stderr: stderrTail.slice(-500) });
  } finally {
    for (const c of cleanups) {
      try {
        await c();
      } catch {
        /* best effort */
      }
    }
  }
  const figures = writeOutputs(outDir, samples, plan, minutes, note);
  log('done', { ...figures });
  return figures;
}
