// `origin-restart` (issue 20): the origin is killed with SIGKILL at t = 20 s and started again 2 s later on the same
// ports with the same certificate (--cert-dir). The player must reconnect on its own (a new WebTransport session)
// and resume where it was; figures: stall time (target <= 5 s), and whether any content played twice or was skipped.
// `origin-drain` is the same with SIGTERM (item 4's graceful stop): the origin finishes the segments in flight, closes
// the session with a reason and exits; the player treats that close like a restart. It starts again 2 s after the
// signal, or once the old process has exited if its drain took longer (the port is its until then).
import { join } from 'node:path';
import { check, faultAtS, faultLengthS, faultScenario, type FaultCase, type FaultContext, type FaultOutcome } from './fault-case.ts';
import { continuity, firstPlayer, frozenS, probeAt, resumeDelayS, stallBetweenS } from './playback-timeline.ts';
import { linkSeconds } from './player-pages.ts';
import { finishStage, startOrigin, startStage } from './stage.ts';

const DOWN_S = 2;
const STALL_TARGET_S = 5;
/** Playhead advance and playing time may disagree by the sampling's own error (readings 250 ms apart, each taken
 *  a few ms after the clock read) without any content played twice or skipped; a segment is 2 s. */
const CONTINUITY_TOLERANCE_S = 0.5;

async function run(ctx: FaultContext, signal: 'SIGKILL' | 'SIGTERM'): Promise<FaultOutcome> {
  const { scenario } = ctx;
  const killS = faultAtS(scenario.durationS);
  const restartS = killS + faultLengthS(DOWN_S, scenario.durationS);
  const certArgs = ['--cert-dir', join(ctx.runDir, 'cert')];
  const stage = await startStage(ctx, scenario, certArgs);
  const firstHash = stage.origin.certHashHex;
  let secondHash: string | null = null;
  let killedAtLinkS: number | null = null;
  let exitCode: number | null | undefined;
  let exited: Promise<number | null> | null = null;
  await stage.pages.sampleUntil(scenario.durationS, [
    {
      atLinkS: killS,
      run: () => {
        // Not awaited: the players are read on while the origin drains or dies.
        exited = stage.origin.kill(signal);
        killedAtLinkS = killS;
        ctx.log('origin-signalled', { link_s: killS, signal });
      },
    },
    {
      atLinkS: restartS,
      run: async () => {
        exitCode = await exited;
        ctx.log('origin-exited', { link_s: linkSeconds(stage.shell), exit_code: exitCode });
        const origin = await startOrigin(ctx, stage, certArgs);
        stage.origin = origin;
        stage.origins.push(origin);
        secondHash = origin.certHashHex;
        ctx.log('origin-restarted', { link_s: restartS, same_certificate: secondHash === firstHash });
      },
    },
  ]);
  const end = await finishStage(ctx, stage);
  if (killedAtLinkS === null || secondHash === null) throw new Error('the run ended before the origin was killed and restarted');
  const timeline = firstPlayer(stage.pages.timeline);
  const last = timeline.at(-1);
  if (!last) throw new Error('no player readings');
  const atKill = probeAt(timeline, killS);
  const stallS = stallBetweenS(timeline, killS, last.linkS);
  const frozenAfterS = frozenS(timeline, killS, last.linkS);
  const resumeS = resumeDelayS(timeline, restartS);
  const flow = continuity(timeline, killS);
  const sessions = last.transportSessions;
  // When the player had its next session up (the restart's cost in the transport, whatever the buffer hid).
  const reconnected = timeline.find((p) => p.linkS >= killS && (p.transportSessions ?? 0) > (atKill.transportSessions ?? 0));
  const figures = {
    signal, killed_at_link_s: killS, restarted_at_link_s: restartS, exit_code: exitCode ?? null,
    same_certificate: secondHash === firstHash,
    playing_at_kill: atKill.state === 'playing',
    buffer_at_kill_s: atKill.bufferS,
    stall_after_kill_s: stallS,
    frozen_after_kill_s: frozenAfterS,
    resume_after_restart_s: resumeS,
    new_session_after_signal_s: reconnected ? reconnected.linkS - killS : null,
    transport_sessions: sessions,
    player_errors: last.errors.length,
    position_advance_s: flow.positionAdvanceS, playing_s: flow.playingS,
    skipped_s: flow.skippedS, repeated_s: flow.repeatedS,
  };
  const checks = [
    check('playing when the origin was killed', 'playing', atKill.state, atKill.state === 'playing'),
    ...(signal === 'SIGTERM' ? [check('drained and exited by itself', 'exit code 0', String(exitCode), exitCode === 0)] : []),
    check('same certificate after the restart', 'same SHA-256', secondHash === firstHash ? 'same' : 'different', secondHash === firstHash),
    check('player reconnected on its own', '≥ 2 WebTransport sessions, no player error', `${sessions ?? 'n/a'} session(s), ${last.errors.length} error(s)`,
      last.errors.length === 0 && sessions !== null && sessions >= 2),
    check('stall time (playhead frozen, whatever the page reported)', `≤ ${STALL_TARGET_S} s`, `${frozenAfterS.toFixed(2)} s (page counted ${stallS.toFixed(2)} s)`,
      resumeS !== null && Math.max(frozenAfterS, stallS) <= STALL_TARGET_S),
    check('nothing played twice or skipped', `|playhead advance − playing time| ≤ ${CONTINUITY_TOLERANCE_S} s, playhead never back`,
      `advance ${flow.positionAdvanceS.toFixed(2)} s, playing ${flow.playingS.toFixed(2)} s, back ${flow.maxBackStepS.toFixed(2)} s`,
      flow.skippedS <= CONTINUITY_TOLERANCE_S && flow.repeatedS <= CONTINUITY_TOLERANCE_S),
  ];
  return {
    figures, checks, players: end.players, capacityMbps: end.capacityMbps, goodputMbps: end.goodputMbps,
    queueDelayP95Ms: end.link.down.queueDelayMs.p95, artifacts: end.artifacts,
  };
}

const scenario = faultScenario({ repetitions: 3 });

export const originRestart: FaultCase = {
  name: 'origin-restart',
  summary: `origin SIGKILLed at t = 20 s, restarted ${DOWN_S} s later with the same certificate; the player reconnects and resumes`,
  scenario,
  run: (ctx) => run(ctx, 'SIGKILL'),
};

export const originDrain: FaultCase = {
  name: 'origin-drain',
  summary: `origin sent SIGTERM at t = 20 s (graceful stop), restarted ${DOWN_S} s later; the player treats the close like a restart`,
  scenario,
  run: (ctx) => run(ctx, 'SIGTERM'),
};
