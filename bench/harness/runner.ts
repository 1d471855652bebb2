// Runs scenario × scheme × repetition: emulated link, origin on the host side, players (or the Node client)
// inside; collects metrics into results.jsonl; failures are recorded per run, never dropped or averaged in.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { LinkemShell, LinkemSummary } from '../linkem/src/driver/index.ts';
import { downlinkCapacityMbpsPerSecond, startLink } from './link.ts';
import { linkUtilization, meanCapacityMbps, meanOverPlayers } from '@pcc-stream/protocol';
import { startOriginProcess, type OriginProcess } from '@pcc-stream/server/process';
import { repoRoot } from './repo-root.ts';
import { Progress } from './progress.ts';
import { collectProvenance } from './provenance.ts';
import { NO_PLAYER_MEANS, appendResult, completedRunIds, paramsKey, playerMeans, readResults, runDirPath, runId, type RunResult } from './results.ts';
import { mediaRecord, prepareMedia } from './media.ts';
import { runBrowser, type OriginPorts } from './run-browser.ts';
import { controllerParamsFor, schemeTransport } from './schemes.ts';
import { ensureBulkObject, runBulk } from './run-bulk.ts';
import { isExternalScheme } from './external-schemes.ts';
import { runUspace, type UspaceBinaries } from './run-uspace.ts';
import { browserWireBytesPerMediaByte, readLinkLogStartEpochMs, wireBytesPerMediaByte, type CountedBytes } from './wire-overhead.ts';
import { CpuSampler } from './cpu-sampler.ts';
import { collectFidelity } from './fidelity.ts';
import { runFault } from './faults/run-fault.ts';
import { redownloadedShare } from './redownloads.ts';
import type { Scenario, Scheme } from './scenario.ts';

export interface RunPlanItem {
  scenario: Scenario;
  scheme: Scheme;
  repetition: number;
}

export interface RunnerOptions {
  outDir: string;
  mediaDir: string;
  playerDir: string;
  /** Set by a signal handler: finish the current run's cleanup and stop. */
  shouldStop: () => boolean;
  /** Record every datagram session's controller inputs and decisions under runs/…/record/ (pcc-replay scripts). */
  record?: boolean;
  /** Fidelity suite: record, sample each process's CPU, pair every run with the simulator (fidelity.ts). */
  fidelity?: boolean;
  /** PCC-Uspace's binaries (`--uspace DIR`), for the external scheme pcc-uspace. */
  uspace?: UspaceBinaries;
  /** Passed verbatim to every run's origin (`--origin-arg`), e.g. ['--quic-ack-frequency=on']. */
  originArgs?: string[];
  /** Arguments passed verbatim to the bulk runs' fetch client (`--client-arg`). */
  clientArgs?: string[];
}

export const PORTS = { webTransportPort: 4433, httpPort: 8080, httpsPort: 8443, tcpPort: 8081 };

export function plan(scenarios: readonly Scenario[]): RunPlanItem[] {
  const items: RunPlanItem[] = [];
  for (const scenario of scenarios) {
    for (let repetition = 1; repetition <= scenario.repetitions; repetition += 1) {
      // Schemes interleaved within a repetition, so slow drift of the machine affects all schemes alike.
      for (const scheme of scenario.schemes) items.push({ scenario, scheme, repetition });
    }
  }
  return items;
}

/** A run's figure from its players' (the same definition the page's summary card uses). */
const mean = meanOverPlayers;

/** Early-request waste and request gaps of a run's players (results.ts). */
function prefetchFigures(players: RunResult['players']): Pick<RunResult, 'prefetch_waste_bytes' | 'prefetch_waste_ratio' | 'segment_gap_mean_ms'> {
  const waste = players.reduce((s, p) => s + (p.prefetch_waste_bytes ?? 0), 0);
  const received = players.reduce((s, p) => s + p.bytes_received, 0);
  return {
    prefetch_waste_bytes: waste,
    prefetch_waste_ratio: received > 0 ? waste / received : null,
    segment_gap_mean_ms: mean(players.map((p) => p.segment_gap_mean_ms ?? Number.NaN)),
  };
}

/** The origin's count of cancelled early requests over the run, from its /status (read before it stops: the players'
 *  sessions and connections are closed by then, the origin's totals are not). */
export async function readOriginPrefetch(httpBase: string): Promise<{ cancelled: number; cancelledBytesSent: number }> {
  const status = (await (await fetch(`${httpBase}/status`, { signal: AbortSignal.timeout(5000) })).json()) as { prefetch_totals?: Record<string, unknown> };
  const totals = status.prefetch_totals;
  const cancelled = totals?.prefetch_cancelled;
  const bytes = totals?.prefetch_cancelled_bytes_sent;
  if (typeof cancelled !== 'number' || typeof bytes !== 'number') throw new Error(`the origin's /status has no prefetch_totals (an origin older than this bench?)`);
  return { cancelled, cancelledBytesSent: bytes };
}

/** The origin's figures of a run (results.ts); the bytes sent toward the players are linkem's downlink ingress. */
export function originPrefetchFigures(
  counted: { cancelled: number; cancelledBytesSent: number },
  downIngressBytes: number,
  playersWasteBytes: number,
): Pick<RunResult, 'origin_prefetch_cancelled' | 'origin_prefetch_cancelled_bytes_sent' | 'origin_prefetch_waste_ratio' | 'prefetch_waste_of_sent_upper_ratio'> {
  const ofSent = (bytes: number): number | null => (downIngressBytes > 0 ? bytes / downIngressBytes : null);
  return {
    origin_prefetch_cancelled: counted.cancelled,
    origin_prefetch_cancelled_bytes_sent: counted.cancelledBytesSent,
    origin_prefetch_waste_ratio: ofSent(counted.cancelledBytesSent),
    prefetch_waste_of_sent_upper_ratio: ofSent(counted.cancelledBytesSent + playersWasteBytes),
  };
}

function log(event: string, detail: Record<string, unknown>): void {
  console.error(JSON.stringify({ t: new Date().toISOString(), component: 'bench', event, ...detail }));
}

function uspaceFor(options: RunnerOptions, scheme: Scheme): UspaceBinaries {
  if (!options.uspace) throw new Error(`${scheme} needs PCC-Uspace's binaries (--uspace DIR)`);
  return options.uspace;
}

async function runOne(item: RunPlanItem, options: RunnerOptions): Promise<RunResult> {
  const { scenario, scheme, repetition } = item;
  const id = runId(scenario.name, scheme, repetition);
  const runDir = runDirPath(options.outDir, scenario.name, scheme, repetition);
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  const seed = repetition;
  const startedAt = new Date();
  const base: Omit<RunResult, 'status' | 'players' | 'buffering_ratio' | 'stall_count' | 'stall_time_s' | 'startup_delay_s' | 'avg_bitrate_mbps' | 'played_bitrate_mbps' | 'switch_count' | 'goodput_mbps' | 'link_utilization' | 'queue_delay_p95_ms' | 'capacity_mbps' | 'artifacts' | 'wall_s'> = {
    run_id: id, scenario: scenario.name, scheme, repetition, seed, started_at: startedAt.toISOString(), duration_s: scenario.durationS,
    controller_params: controllerParamsFor(scenario, scheme),
    ...(scenario.mode === 'bulk' ? {} : { media: mediaRecord(scenario) }),
    ...(scenario.playerParams && Object.keys(scenario.playerParams).length > 0 ? { player_params: scenario.playerParams } : {}),
    ...(options.originArgs && options.originArgs.length > 0 ? { origin_args: options.originArgs } : {}),
    ...(options.clientArgs && options.clientArgs.length > 0 ? { client_args: options.clientArgs } : {}),
    ...(!isExternalScheme(scheme) && schemeTransport(scheme).transport === 'tcp' ? { tcp_http: scenario.mode === 'bulk' ? 'https' as const : 'http/1.1' as const } : {}),
  };
  // A faults-suite case runs the scenario its own way (faults/run-fault.ts).
  if (scenario.fault) {
    return runFault({ scenario, scheme, repetition, runDir, outDir: options.outDir, mediaDir: options.mediaDir, playerDir: options.playerDir, record: options.record === true }, base);
  }
  let shell: LinkemShell | null = null;
  let origin: OriginProcess | null = null;
  let summary: LinkemSummary | null = null;
  let cpu: CpuSampler | null = null;
  try {
    shell = await startLink(scenario, seed, runDir);
    // Started with the link, so its seconds are the link log's (linkStartOffsetMs 0 below).
    cpu = options.fidelity ? new CpuSampler() : null;
    const ports: OriginPorts = { host: shell.baseAddress, ...PORTS };
    // An external peer brings its own sender (run-uspace.ts): no origin.
    origin = isExternalScheme(scheme) ? null : await startOriginProcess({ ...ports, mediaDir: options.mediaDir, staticDir: options.playerDir, logDir: join(runDir, 'telemetry'), ...(options.record || options.fidelity ? { recordDir: join(runDir, 'record') } : {}), ...(options.originArgs ? { extraArgs: options.originArgs } : {}) });
    let players: RunResult['players'] = [];
    let goodputMbps: number;
    let deliveredBytes: number;
    let series: Array<Record<string, number>> = [];
    let mediaCounts: CountedBytes[] | null = null;
    let seriesStartEpochMs: number | null = null;
    let pageBytes = 0;
    let originPrefetch: { cancelled: number; cancelledBytesSent: number } | null = null;
    if (scenario.mode === 'bulk') {
      const fetched = origin ? await runBulk(shell, ports, origin.certHashHex, scheme, scenario, options.clientArgs) : await runUspace(shell, uspaceFor(options, scheme), scenario, runDir);
      goodputMbps = fetched.goodput_mbps;
      deliveredBytes = fetched.bytes;
      writeFileSync(join(runDir, 'fetch.json'), JSON.stringify(fetched, null, 2));
    } else {
      const output = await runBrowser(shell, ports, scheme, scenario, runDir);
      players = output.players;
      goodputMbps = (output.bytesReceived * 8) / scenario.durationS / 1e6;
      deliveredBytes = output.bytesReceived;
      series = output.series;
      mediaCounts = output.mediaCounts;
      seriesStartEpochMs = output.seriesStartEpochMs;
      pageBytes = output.pageBytes;
      if (origin) originPrefetch = await readOriginPrefetch(origin.httpBase);
    }
    if (origin) {
      await origin.stop();
      writeFileSync(join(runDir, 'origin.log'), origin.output());
      origin = null;
    }
    summary = await shell.stop();
    shell = null;
    const durationS = summary.durationMs / 1000;
    const capacityPerSecond = downlinkCapacityMbpsPerSecond(scenario, durationS);
    const capacityMbps = meanCapacityMbps(capacityPerSecond);
    // The player's clock starts after the link, origin and browser are up: align capacity to the series' own seconds,
    // by the player's clock start on the link log's clock (without the log's header: the old whole-second estimate).
    const linkStartEpochMs = readLinkLogStartEpochMs(join(runDir, 'link-down.log'));
    const offsetS = seriesStartEpochMs !== null && Number.isFinite(linkStartEpochMs)
      ? Math.max(0, (seriesStartEpochMs - linkStartEpochMs) / 1000)
      : Math.max(0, Math.round(durationS - scenario.durationS - 1));
    const seriesWithCapacity = series.map((s) => ({ ...s, capacity_mbps: capacityPerSecond[Math.floor((s.t_s ?? 0) + offsetS)] ?? capacityMbps }));
    const artifacts: Record<string, string> = { telemetry: relative(options.outDir, join(runDir, 'telemetry')), link_log: relative(options.outDir, join(runDir, 'link-down.log')) };
    if (seriesWithCapacity.length > 0) {
      writeFileSync(join(runDir, 'series.json'), JSON.stringify(seriesWithCapacity));
      artifacts.series = relative(options.outDir, join(runDir, 'series.json'));
    }
    // Browser runs: the wire up to the instant the players' counts stand for, less the page's own bytes
    // (wire-overhead.ts); bulk runs: the whole transfer.
    const wirePerDelivered = mediaCounts === null ? wireBytesPerMediaByte(summary.down.departedBytes, deliveredBytes)
      : browserWireBytesPerMediaByte(join(runDir, 'link-down.log'), mediaCounts, pageBytes);
    const fidelity = cpu
      ? collectFidelity({ runDir, scenario, scheme, seed, params: controllerParamsFor(scenario, scheme), cpu: cpu.stop(), goodputMbps, wirePerDelivered, linkStartOffsetMs: 0 })
      : undefined;
    cpu = null;
    const playersPrefetch = prefetchFigures(players);
    return {
      ...base, status: 'ok', wall_s: (Date.now() - startedAt.getTime()) / 1000, players,
      ...playerMeans(players),
      redownloaded_share: redownloadedShare(players),
      goodput_mbps: goodputMbps,
      link_utilization: linkUtilization(summary.down.departedBytes, capacityMbps, durationS),
      queue_delay_p95_ms: summary.down.queueDelayMs.p95,
      capacity_mbps: capacityMbps,
      wire_bytes_per_media_byte: wirePerDelivered,
      ...playersPrefetch,
      ...(originPrefetch ? originPrefetchFigures(originPrefetch, summary.down.ingressBytes, playersPrefetch.prefetch_waste_bytes ?? 0) : {}),
      ...(fidelity ? { fidelity } : {}),
      artifacts,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (origin) writeFileSync(join(runDir, 'origin.log'), origin.output());
    return {
      ...base, status: 'failed', error: message.slice(0, 2000), wall_s: (Date.now() - startedAt.getTime()) / 1000, players: [],
      ...NO_PLAYER_MEANS, goodput_mbps: null, link_utilization: null, queue_delay_p95_ms: null, capacity_mbps: null, artifacts: {},
    };
  } finally {
    cpu?.stop();
    await origin?.stop().catch(() => undefined);
    await shell?.stop().catch(() => undefined);
  }
}

/** Runs every planned run not already completed in outDir; returns the runs performed now. */
export async function runPlan(items: readonly RunPlanItem[], options: RunnerOptions): Promise<RunResult[]> {
  mkdirSync(options.outDir, { recursive: true });
  const resultsPath = join(options.outDir, 'results.jsonl');
  const existing = readResults(resultsPath);
  // Resuming with other controller parameters would mix two configurations under one scheme's name.
  for (const item of items) {
    const id = runId(item.scenario.name, item.scheme, item.repetition);
    const before = existing.find((r) => r.run_id === id);
    const now = paramsKey(controllerParamsFor(item.scenario, item.scheme));
    if (before && paramsKey(before.controller_params) !== now) {
      throw new Error(`${resultsPath} holds ${id} run with controller parameters "${paramsKey(before.controller_params)}", this run asks for "${now}": use another --out`);
    }
    const playerNow = JSON.stringify(item.scenario.playerParams ?? {});
    if (before && JSON.stringify(before.player_params ?? {}) !== playerNow) {
      throw new Error(`${resultsPath} holds ${id} run with player parameters ${JSON.stringify(before.player_params ?? {})}, this run asks for ${playerNow}: use another --out`);
    }
  }
  const done = completedRunIds(existing);
  const pending = items.filter((i) => !done.has(runId(i.scenario.name, i.scheme, i.repetition)));
  for (const item of pending) if (item.scenario.mode === 'bulk') ensureBulkObject(options.mediaDir);
  await prepareMedia(pending.map((i) => i.scenario), options.mediaDir);
  log('plan', { runs_total: items.length, runs_done_before: items.length - pending.length, runs_pending: pending.length, out: options.outDir, repo: repoRoot });
  const progress = new Progress(items.length, items.length - pending.length);
  const provenance = pending.length > 0 ? collectProvenance() : undefined;
  const performed: RunResult[] = [];
  for (const item of pending) {
    if (options.shouldStop()) break;
    const id = runId(item.scenario.name, item.scheme, item.repetition);
    progress.start(id);
    const result: RunResult = { ...(await runOne(item, options)), provenance, resolved_scenario: item.scenario };
    appendResult(resultsPath, result);
    performed.push(result);
    progress.finish(id, result.status === 'ok');
    if (result.status === 'failed') log('run-failed', { run: id, error: result.error });
  }
  return performed;
}
