// The common set-up of browser fault cases: the emulated link, the origin on its host side (telemetry to the run's
// directory), and the players in Chromium inside; then the common ending (final metrics, logs, link summary).
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { meanCapacityMbps } from '@pcc-stream/protocol';
import { startOriginProcess, type OriginProcess } from '@pcc-stream/server/process';
import type { LinkemShell, LinkemSummary } from '../../linkem/src/driver/index.ts';
import { downlinkCapacityMbpsPerSecond, startLink } from '../link.ts';
import type { PlayerResult } from '../results.ts';
import type { OriginPorts } from '../run-browser.ts';
import { PORTS } from '../runner.ts';
import type { Scenario } from '../scenario.ts';
import type { FaultContext } from './fault-case.ts';
import { linkSeconds, PlayerPages } from './player-pages.ts';

export interface Stage {
  shell: LinkemShell;
  ports: OriginPorts;
  /** The origin now serving (a case that restarts it replaces this). */
  origin: OriginProcess;
  /** Every origin process the run started, in order (their logs go to origin-N.log). */
  origins: OriginProcess[];
  pages: PlayerPages;
  /** The scenario the link was built from (the case's, or its variant with a fault trace). */
  linkScenario: Scenario;
  logDir: string;
  /** Wall-clock ms at which the link's clock read 0 (controller-timeline.ts maps telemetry with it). */
  linkStartWallMs: number;
}

export async function startOrigin(ctx: FaultContext, stage: Pick<Stage, 'ports' | 'logDir'>, extraArgs: string[] = []): Promise<OriginProcess> {
  const origin = await startOriginProcess({
    ...stage.ports, mediaDir: ctx.mediaDir, staticDir: ctx.playerDir, logDir: stage.logDir, extraArgs,
    ...(ctx.record ? { recordDir: join(ctx.runDir, 'record') } : {}),
  });
  ctx.onCleanup(() => origin.stop());
  return origin;
}

/** Link (as `linkScenario` describes it), origin, players; everything is released by the run's cleanup. */
export async function startStage(ctx: FaultContext, linkScenario: Scenario, originArgs: string[] = []): Promise<Stage> {
  const shell = await startLink(linkScenario, ctx.seed, ctx.runDir);
  ctx.onCleanup(() => shell.stop());
  const linkStartWallMs = Date.now() - linkSeconds(shell) * 1000;
  const ports: OriginPorts = { host: shell.baseAddress, ...PORTS };
  const logDir = join(ctx.runDir, 'telemetry');
  const origin = await startOrigin(ctx, { ports, logDir }, originArgs);
  const pages = await PlayerPages.open(shell, ports, ctx.scheme, ctx.scenario, ctx.runDir);
  ctx.onCleanup(() => pages.close());
  return { shell, ports, origin, origins: [origin], pages, linkScenario, logDir, linkStartWallMs };
}

export interface StageEnd {
  players: PlayerResult[];
  link: LinkemSummary;
  capacityMbps: number;
  goodputMbps: number;
  artifacts: Record<string, string>;
}

/** Final metrics, timeline and screenshot, origin logs, link summary. */
export async function finishStage(ctx: FaultContext, stage: Stage): Promise<StageEnd> {
  const players = await stage.pages.results();
  const timelineFile = await stage.pages.save(ctx.runDir);
  await stage.pages.close();
  for (const [i, origin] of stage.origins.entries()) {
    await origin.stop();
    writeFileSync(join(ctx.runDir, `origin-${i + 1}.log`), origin.output());
  }
  const link = await stage.shell.stop();
  const durationS = link.durationMs / 1000;
  const perSecond = downlinkCapacityMbpsPerSecond(stage.linkScenario, durationS);
  const capacityMbps = meanCapacityMbps(perSecond);
  const bytes = players.reduce((s, p) => s + p.bytes_received, 0);
  const rel = (path: string) => relative(ctx.outDir, path);
  return {
    players, link, capacityMbps, goodputMbps: (bytes * 8) / durationS / 1e6,
    artifacts: { timeline: rel(timelineFile), telemetry: rel(stage.logDir), link_log: rel(join(ctx.runDir, 'link-down.log')) },
  };
}
