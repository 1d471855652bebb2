// A run under load beside a paired clean run (issue 20's `garbage` and `flood`): the same scenario, link seed and
// player, once alone and once while a generator loads the origin, one after the other in the same case run. The
// players' buffering ratio and goodput are compared between the two; the origin's /status is read at the end of the
// loaded run, before it is stopped, so a crash or a leak shows.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FaultContext } from './fault-case.ts';
import { finishStage, startStage, type Stage, type StageEnd } from './stage.ts';

export interface LoadWindow {
  /** Link seconds at which the load starts, and how long it runs. */
  startS: number;
  durationS: number;
}

/** The window of a full run (load from t = 10 s for 30 s of a 45 s run); a shorter run (npm test's) scales it. */
export const FULL_LOAD_WINDOW: LoadWindow = { startS: 10, durationS: 30 };
const FULL_RUN_S = 45;

export function loadWindow(runDurationS: number): LoadWindow {
  if (runDurationS >= FULL_RUN_S) return FULL_LOAD_WINDOW;
  const scale = runDurationS / FULL_RUN_S;
  return { startS: FULL_LOAD_WINDOW.startS * scale, durationS: FULL_LOAD_WINDOW.durationS * scale };
}

export interface PairedOutcome<T> {
  clean: StageEnd;
  loaded: StageEnd;
  load: T;
  /** The origin's /status at the end of the loaded run (null when it did not answer). */
  status: Record<string, unknown> | null;
  /** The origin process was still running when the loaded run ended. */
  originAlive: boolean;
  /** Mean over players. */
  cleanBufferingRatio: number;
  loadedBufferingRatio: number;
}

function meanOf(values: number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((s, v) => s + v, 0) / values.length;
}

export async function pairedRun<T>(
  ctx: FaultContext, window: LoadWindow, startLoad: (stage: Stage) => Promise<T> | T, finishLoad: (started: T) => Promise<T>,
  originArgs: string[] = [],
): Promise<PairedOutcome<T>> {
  const { scenario } = ctx;
  const cleanCtx = { ...ctx, runDir: join(ctx.runDir, 'clean') };
  const loadedCtx = { ...ctx, runDir: join(ctx.runDir, 'loaded') };
  for (const c of [cleanCtx, loadedCtx]) mkdirSync(c.runDir, { recursive: true });
  ctx.log('paired-clean-run', {});
  const cleanStage = await startStage(cleanCtx, scenario, originArgs);
  await cleanStage.pages.sampleUntil(scenario.durationS);
  const clean = await finishStage(cleanCtx, cleanStage);

  ctx.log('paired-loaded-run', { load_from_s: window.startS, load_s: window.durationS });
  const stage = await startStage(loadedCtx, scenario, originArgs);
  let started: T | null = null;
  await stage.pages.sampleUntil(scenario.durationS, [{ atLinkS: window.startS, run: async () => { started = await startLoad(stage); } }]);
  if (started === null) throw new Error('the run ended before the load started');
  const load = await finishLoad(started);
  const originAlive = stage.origin.exitCode() === null;
  let status: Record<string, unknown> | null = null;
  try {
    status = (await (await fetch(`${stage.origin.httpBase}/status`, { signal: AbortSignal.timeout(5000) })).json()) as Record<string, unknown>;
  } catch {
    status = null;
  }
  const loaded = await finishStage(loadedCtx, stage);
  return {
    clean, loaded, load, status, originAlive,
    cleanBufferingRatio: meanOf(clean.players.map((p) => p.buffering_ratio)),
    loadedBufferingRatio: meanOf(loaded.players.map((p) => p.buffering_ratio)),
  };
}
