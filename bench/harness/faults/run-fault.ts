// Runs one planned run of a fault case (scenario.fault) and turns its outcome into a results.jsonl line. A case
// that throws gives a failed run with its message; whatever it registered with onCleanup (link, origin, browser,
// hostile clients) is released either way, so the next run starts clean and the plan goes on.
import { NO_PLAYER_MEANS, playerMeans, type RunResult } from '../results.ts';
import type { Scenario, Scheme } from '../scenario.ts';
import { faultCase } from './cases.ts';
import type { FaultContext } from './fault-case.ts';

export type RunBase = Pick<RunResult, 'run_id' | 'scenario' | 'scheme' | 'repetition' | 'seed' | 'started_at' | 'duration_s' | 'controller_params' | 'media'>;

export interface FaultRunInput {
  scenario: Scenario;
  scheme: Scheme;
  repetition: number;
  runDir: string;
  outDir: string;
  mediaDir: string;
  playerDir: string;
  record: boolean;
}

export async function runFault(input: FaultRunInput, base: RunBase): Promise<RunResult> {
  const startedMs = Date.parse(base.started_at);
  const name = input.scenario.fault as string;
  const cleanups: Array<() => Promise<unknown> | unknown> = [];
  const ctx: FaultContext = {
    ...input,
    seed: base.seed,
    onCleanup: (cleanup) => { cleanups.push(cleanup); },
    log: (event, detail = {}) => console.error(JSON.stringify({ t: new Date().toISOString(), component: 'bench', case: name, run: base.run_id, event, ...detail })),
  };
  try {
    const outcome = await faultCase(name).run(ctx);
    const players = outcome.players;
    // The same run means as every browser run (results.ts playerMeans).
    return {
      ...base, status: 'ok', wall_s: (Date.now() - startedMs) / 1000, players,
      ...playerMeans(players),
      goodput_mbps: outcome.goodputMbps,
      link_utilization: null,
      queue_delay_p95_ms: outcome.queueDelayP95Ms,
      capacity_mbps: outcome.capacityMbps,
      fault: { case: name, figures: outcome.figures, checks: outcome.checks, pass: outcome.checks.every((c) => c.pass) },
      artifacts: outcome.artifacts,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...base, status: 'failed', error: message.slice(0, 2000), wall_s: (Date.now() - startedMs) / 1000, players: [],
      ...NO_PLAYER_MEANS, goodput_mbps: null, link_utilization: null, queue_delay_p95_ms: null, capacity_mbps: null, artifacts: {},
    };
  } finally {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        ctx.log('cleanup-failed', { error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
}
