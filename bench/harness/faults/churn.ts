// `churn` (issue 20): 10,000 sessions opened and abandoned mid-segment by Node clients (no browser, no emulated link:
// the origin on loopback, each client from its own 127.x address), in 20 waves (churn-client.ts). Targets: the
// origin's RSS and open fds after the last wave within 5 % of after the first, and nothing left behind: no session,
// send loop (pacer) entry or timer more than after the first wave.
import { startOriginProcess } from '@pcc-stream/server/process';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ChurnOptions, ChurnSummary } from './churn-client.ts';
import { check, faultScenario, type FaultCase, type FaultContext, type FaultOutcome } from './fault-case.ts';
import { someSegmentPath } from './media-path.ts';
import { startGenerator } from './generator-process.ts';

export const CHURN_SESSIONS = 10_000;
export const CHURN_WAVES = 20;
const CHURN_CONCURRENCY = 50;
/** A run shorter than this (npm test's short form, --duration-s) churns proportionally fewer sessions. */
const FULL_RUN_S = 45;
const MIN_SHORT_SESSIONS = 200;
const MIN_SHORT_WAVES = 4;
/** The bound on growth from the first wave to the last. */
export const MAX_GROWTH = 0.05;
/** Room for the origin's own sessions while a wave runs: every client of a wave may be open at once. */
const ORIGIN_MAX_SESSIONS = 1000;

export function churnPlan(durationS: number): { sessions: number; waves: number } {
  if (durationS >= FULL_RUN_S) return { sessions: CHURN_SESSIONS, waves: CHURN_WAVES };
  const sessions = Math.max(MIN_SHORT_SESSIONS, Math.round((CHURN_SESSIONS * durationS) / FULL_RUN_S / 10));
  return { sessions, waves: Math.max(MIN_SHORT_WAVES, Math.round((CHURN_WAVES * durationS) / FULL_RUN_S)) };
}

async function run(ctx: FaultContext): Promise<FaultOutcome> {
  const plan = churnPlan(ctx.scenario.durationS);
  const origin = await startOriginProcess({
    mediaDir: ctx.mediaDir, host: '127.0.0.1', webTransportPort: 0, httpPort: 0, httpsPort: 0,
    extraArgs: ['--max-sessions', String(ORIGIN_MAX_SESSIONS), '--log-level', 'warn'],
  });
  ctx.onCleanup(() => origin.stop());
  const options: ChurnOptions = {
    host: origin.host, port: origin.webTransportPort, httpBase: origin.httpBase, certSha256Hex: origin.certHashHex,
    sessions: plan.sessions, waves: plan.waves, concurrency: CHURN_CONCURRENCY, fetchPath: someSegmentPath(ctx.mediaDir),
  };
  ctx.log('churn-start', { sessions: plan.sessions, waves: plan.waves });
  const churn = await startGenerator<ChurnSummary>(ctx, 'churn-main.ts', options).done;
  const alive = origin.exitCode() === null;
  await origin.stop();
  const logPath = join(ctx.runDir, 'origin.log');
  writeFileSync(logPath, origin.output());
  const wavesPath = join(ctx.runDir, 'churn-waves.json');
  writeFileSync(wavesPath, JSON.stringify(churn, null, 1));
  const first = churn.waves[0]!.after;
  const last = churn.waves.at(-1)!.after;
  const rssGrowth = last.rss_bytes / first.rss_bytes - 1;
  const fdGrowth = first.open_fds && last.open_fds !== null ? last.open_fds / first.open_fds - 1 : Number.NaN;
  const unsettled = churn.waves.filter((w) => w.settle_s === null).length;
  const failures = churn.waves.reduce((s, w) => s + w.failures, 0);
  const abandoned = churn.waves.reduce((s, w) => s + w.abandoned_mid_segment, 0);
  const figures = {
    sessions: churn.sessions, waves: churn.waves.length, sessions_per_s: churn.sessions_per_s, abandoned_mid_segment: abandoned,
    failures, first_error: churn.first_error,
    rss_first_wave_mb: first.rss_bytes / 1048576, rss_last_wave_mb: last.rss_bytes / 1048576, rss_growth: rssGrowth,
    rss_max_mb: Math.max(...churn.waves.map((w) => w.after.rss_bytes)) / 1048576,
    fds_before: churn.before.open_fds, fds_first_wave: first.open_fds, fds_last_wave: last.open_fds, fd_growth: fdGrowth,
    timers_first_wave: first.active_timers, timers_last_wave: last.active_timers,
    handles_first_wave: first.active_handles, handles_last_wave: last.active_handles,
    send_loop_members_last: last.send_loop_members, sessions_last: last.sessions, waves_unsettled: unsettled,
    settle_s_max: Math.max(...churn.waves.map((w) => w.settle_s ?? Number.NaN)),
    origin_alive: alive,
  };
  const checks = [
    check('sessions opened and abandoned mid-segment', `${plan.sessions} in ${plan.waves} waves`,
      `${churn.sessions} opened, ${abandoned} abandoned mid-segment, ${failures} failed`, churn.sessions >= plan.sessions * 0.99),
    check('RSS after the last wave vs after the first', `within ${MAX_GROWTH * 100}%`,
      `${(first.rss_bytes / 1048576).toFixed(1)} → ${(last.rss_bytes / 1048576).toFixed(1)} MiB (${(rssGrowth * 100).toFixed(1)}%)`, Math.abs(rssGrowth) <= MAX_GROWTH),
    check('open fds after the last wave vs after the first', `within ${MAX_GROWTH * 100}%`,
      `${first.open_fds} → ${last.open_fds}`, Math.abs(fdGrowth) <= MAX_GROWTH),
    check('nothing left behind', '0 sessions and send-loop entries after every wave; timers not above the first wave\'s',
      `${unsettled} wave(s) unsettled; timers ${first.active_timers} → ${last.active_timers}; send loop ${last.send_loop_members}`,
      unsettled === 0 && last.active_timers <= first.active_timers && last.send_loop_members === 0),
    check('origin never crashed', 'running', alive ? 'yes' : 'no', alive),
  ];
  return {
    figures, checks, players: [], capacityMbps: null, goodputMbps: null, queueDelayP95Ms: null,
    artifacts: { origin_log: relative(ctx.outDir, logPath), churn_waves: relative(ctx.outDir, wavesPath) },
  };
}

export const churn: FaultCase = {
  name: 'churn',
  summary: `${CHURN_SESSIONS} Node-client sessions in ${CHURN_WAVES} waves, each abandoned mid-segment; origin RSS, fds, timers and send loop after each wave`,
  scenario: faultScenario({ link: { down: { rate_mbps: 100 }, up: { rate_mbps: 100 } }, delay: { one_way_ms: 0 } }),
  run,
};
