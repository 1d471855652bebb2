// `blackout` (issue 20): the link's capacity drops to zero for 5 s at t = 20 s, both directions (a linkem trace with
// no delivery opportunity in that window), while a real player plays in Chromium behind it. The session has to
// survive and playback resume without a page reload; figures: stall time beyond the blackout, and how long the
// controller takes to be back at >= 80 % of the link's capacity (target <= 3 s for vivace).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PCC_VS_KERNEL_TCP } from '@pcc-stream/protocol';
import { rateTraceWithOutages } from '../../linkem/src/driver/index.ts';
import type { Scenario } from '../scenario.ts';
import { controllerRates, secondsUntilRate } from './controller-timeline.ts';
import { check, faultAtS, faultLengthS, faultScenario, type FaultCase, type FaultContext, type FaultOutcome } from './fault-case.ts';
import { continuity, firstPlayer, frozenS, probeAt, resumeDelayS, stallBetweenS } from './playback-timeline.ts';
import { finishStage, startStage } from './stage.ts';

const BLACKOUT_S = 5;
/** The rate the controller must regain after the blackout, as a share of the link's capacity, and how soon. */
const RECOVERED_CAPACITY_RATIO = 0.8;
const RECOVERY_TARGET_S = 3;
/** The trace runs past the run's end by this much, so its loop never brings the blackout back during a run. */
const TRACE_MARGIN_S = 120;

function blackoutLink(scenario: Scenario, fromS: number, toS: number, runDir: string): Scenario {
  const down = scenario.link.down;
  const up = scenario.link.up;
  if (!('rateMbps' in down) || !('rateMbps' in up)) throw new Error('blackout: the scenario\'s link must have constant rates');
  const outage = [{ fromMs: Math.round(fromS * 1000), toMs: Math.round(toS * 1000) }];
  const lengthMs = Math.round((scenario.durationS + TRACE_MARGIN_S) * 1000);
  const downPath = join(runDir, 'blackout.down');
  const upPath = join(runDir, 'blackout.up');
  writeFileSync(downPath, rateTraceWithOutages(down.rateMbps, lengthMs, outage));
  writeFileSync(upPath, rateTraceWithOutages(up.rateMbps, lengthMs, outage));
  return { ...scenario, link: { ...scenario.link, down: { tracePath: downPath }, up: { tracePath: upPath } } };
}

async function run(ctx: FaultContext): Promise<FaultOutcome> {
  const { scenario } = ctx;
  const fromS = faultAtS(scenario.durationS);
  const toS = fromS + faultLengthS(BLACKOUT_S, scenario.durationS);
  const stage = await startStage(ctx, blackoutLink(scenario, fromS, toS, ctx.runDir));
  ctx.log('blackout-scheduled', { from_link_s: fromS, to_link_s: toS });
  await stage.pages.sampleUntil(scenario.durationS);
  const end = await finishStage(ctx, stage);
  const timeline = firstPlayer(stage.pages.timeline);
  const atStart = probeAt(timeline, fromS);
  const last = timeline.at(-1);
  if (!last) throw new Error('no player readings');
  const capacityMbps = 'rateMbps' in scenario.link.down ? scenario.link.down.rateMbps : end.capacityMbps;
  const rates = controllerRates(stage.logDir, stage.linkStartWallMs);
  const recoveryS = rates.length > 0 ? secondsUntilRate(rates, toS, RECOVERED_CAPACITY_RATIO * capacityMbps * 1e6) : null;
  const stallBeyondS = stallBetweenS(timeline, toS, last.linkS);
  const resumeS = resumeDelayS(timeline, toS);
  const flow = continuity(timeline, fromS);
  const sessions = last.transportSessions;
  const figures = {
    blackout_from_link_s: fromS, blackout_to_link_s: toS,
    playing_at_blackout: atStart.state === 'playing',
    buffer_at_blackout_s: atStart.bufferS,
    stall_during_blackout_s: stallBetweenS(timeline, fromS, toS),
    stall_beyond_blackout_s: stallBeyondS,
    frozen_beyond_blackout_s: frozenS(timeline, toS, last.linkS),
    resume_after_blackout_s: resumeS,
    rate_recovery_s: recoveryS,
    rate_min_during_blackout_mbps: rates.filter((r) => r.linkS >= fromS && r.linkS < toS).reduce((m, r) => Math.min(m, r.rateBps / 1e6), Infinity),
    transport_sessions: sessions,
    player_errors: last.errors.length,
    skipped_s: flow.skippedS, repeated_s: flow.repeatedS,
  };
  if (!Number.isFinite(figures.rate_min_during_blackout_mbps)) figures.rate_min_during_blackout_mbps = rates.length > 0 ? 0 : Number.NaN;
  // A datagram scheme with no telemetry line is a failed check ("never"), not a skipped one.
  const isDatagram = !ctx.scheme.startsWith('tcp-');
  const checks = [
    check('playing when the blackout began', 'playing', atStart.state, atStart.state === 'playing'),
    check('session survived', sessions === null ? 'no player error' : '1 WebTransport session, no player error',
      `${sessions ?? 'n/a'} session(s), ${last.errors.length} error(s)`, last.errors.length === 0 && (sessions === null || sessions === 1)),
    check('playback resumed without a reload', 'playhead moving after the blackout', resumeS === null ? 'never' : `after ${resumeS.toFixed(2)} s`, resumeS !== null),
    ...(isDatagram ? [check(`rate back to ≥ ${RECOVERED_CAPACITY_RATIO * 100}% of capacity`, `≤ ${RECOVERY_TARGET_S} s`,
      recoveryS === null ? 'never' : `${recoveryS.toFixed(2)} s`, recoveryS !== null && recoveryS <= RECOVERY_TARGET_S)] : []),
  ];
  return {
    figures, checks, players: end.players, capacityMbps: end.capacityMbps, goodputMbps: end.goodputMbps,
    queueDelayP95Ms: end.link.down.queueDelayMs.p95, artifacts: end.artifacts,
  };
}

export const blackout: FaultCase = {
  name: 'blackout',
  summary: `link capacity zero both ways for ${BLACKOUT_S} s at t = 20 s; the session survives, playback resumes, the rate recovers`,
  // Kernel TCP beside vivace: its stall beyond the blackout for comparison (no rate check: no controller telemetry).
  scenario: faultScenario({ repetitions: 3, schemes: [...PCC_VS_KERNEL_TCP] }),
  run,
};
