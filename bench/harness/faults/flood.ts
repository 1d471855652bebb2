// `flood` (issue 20): 200 new WebTransport handshakes per second for 30 s over loopback, each from its own 127.x
// address (flood-client.ts), while players play behind linkem. Targets: the players' buffering ratio at most 0.5
// points above a paired clean run; the figures give the handshake rate the origin sustained and refusals with reasons.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, faultScenario, type FaultCase, type FaultContext, type FaultOutcome } from './fault-case.ts';
import type { FloodOptions, FloodSummary } from './flood-client.ts';
import { MAX_BUFFERING_RISE } from './garbage.ts';
import { startGenerator, type GeneratorRun } from './generator-process.ts';
import { loadWindow, pairedRun } from './paired-run.ts';

export const FLOOD_RATE_PER_S = 200;
/** The origin must complete this share of the attempted handshakes for the rate to count as sustained. */
const SUSTAINED_SHARE = 0.95;

async function run(ctx: FaultContext): Promise<FaultOutcome> {
  const window = loadWindow(ctx.scenario.durationS);
  const paired = await pairedRun<GeneratorRun<FloodSummary> | FloodSummary>(ctx, window, (stage) => {
    const options: FloodOptions = {
      host: stage.ports.host, port: stage.origin.webTransportPort, certSha256Hex: stage.origin.certHashHex,
      ratePerS: FLOOD_RATE_PER_S, durationS: window.durationS,
    };
    return startGenerator<FloodSummary>(ctx, 'flood-main.ts', options);
  }, async (started) => (started as GeneratorRun<FloodSummary>).done);
  const flood = paired.load as FloodSummary;
  writeFileSync(join(ctx.runDir, 'flood-summary.json'), JSON.stringify(flood, null, 1));
  const rise = paired.loadedBufferingRatio - paired.cleanBufferingRatio;
  const status = paired.status ?? {};
  const figures = {
    handshakes_attempted: flood.attempted, handshakes_completed: flood.completed, handshakes_failed: flood.failed,
    handshakes_refused: flood.refused, attempts_delayed: flood.delayed,
    attempted_per_s: flood.attempted_per_s, sustained_handshakes_per_s: flood.completed_per_s,
    handshake_ms_p50: flood.handshake_ms_p50, handshake_ms_p95: flood.handshake_ms_p95, handshake_ms_max: flood.handshake_ms_max,
    source_addresses: flood.source_addresses, refusal_reasons: JSON.stringify(flood.refusal_reasons), first_error: flood.first_error,
    clean_buffering_ratio: paired.cleanBufferingRatio, loaded_buffering_ratio: paired.loadedBufferingRatio, buffering_rise_points: rise * 100,
    clean_goodput_mbps: paired.clean.goodputMbps, loaded_goodput_mbps: paired.loaded.goodputMbps,
    origin_alive: paired.originAlive, origin_sessions_refused: typeof status.sessions_refused === 'number' ? status.sessions_refused : null,
  };
  const checks = [
    check('handshake rate sustained', `≥ ${SUSTAINED_SHARE * FLOOD_RATE_PER_S}/s completed for ${window.durationS} s`,
      `${flood.completed_per_s.toFixed(1)}/s (${flood.completed}/${flood.attempted}; p95 ${flood.handshake_ms_p95?.toFixed(1) ?? 'n/a'} ms)`,
      flood.completed >= SUSTAINED_SHARE * FLOOD_RATE_PER_S * window.durationS),
    check('players keep playing', `buffering ratio ≤ +${MAX_BUFFERING_RISE * 100} points over the paired clean run`,
      `${(paired.cleanBufferingRatio * 100).toFixed(2)}% → ${(paired.loadedBufferingRatio * 100).toFixed(2)}%`, rise <= MAX_BUFFERING_RISE),
    check('refusals say why', 'every refused session has a reason', JSON.stringify(flood.refusal_reasons),
      Object.keys(flood.refusal_reasons).every((r) => r.length > 5)),
    check('origin never crashed', 'running and answering /status', paired.originAlive && paired.status ? 'yes' : 'no', paired.originAlive && paired.status !== null),
  ];
  return {
    figures, checks, players: paired.loaded.players, capacityMbps: paired.loaded.capacityMbps, goodputMbps: paired.loaded.goodputMbps,
    queueDelayP95Ms: paired.loaded.link.down.queueDelayMs.p95, artifacts: paired.loaded.artifacts,
  };
}

export const flood: FaultCase = {
  name: 'flood',
  summary: `${FLOOD_RATE_PER_S} new handshakes/s for 30 s from many 127.x addresses while 2 players play, beside a paired clean run`,
  scenario: faultScenario({
    link: { down: { rate_mbps: 20 }, up: { rate_mbps: 20 }, queue: { type: 'droptail', bytes: 150_000 } },
    players: 2,
  }),
  run,
};
