// Turns a scenario's link into a running emulated path (linkem), and reads capacity back for the reports.
import { join } from 'node:path';
import { loadTrace, opportunitiesBetween, OPPORTUNITY_BYTES, startLinkem, type LinkemOptions, type LinkemShell } from '../linkem/src/driver/index.ts';
import type { LinkDirection, QueueSpec, Scenario } from './scenario.ts';

function queueArgs(queue: QueueSpec): { kind: LinkemOptions['queueDown']; args?: string } {
  if (queue.type === 'infinite') return { kind: 'infinite' };
  const args = [queue.bytes !== undefined ? `bytes=${queue.bytes}` : null, queue.packets !== undefined ? `packets=${queue.packets}` : null]
    .filter((a): a is string => a !== null)
    .join(',');
  return { kind: queue.type, args };
}

export function linkemOptions(scenario: Scenario, seed: number, runDir: string): LinkemOptions {
  const options: LinkemOptions = { seed, lossDown: scenario.loss.down, lossUp: scenario.loss.up, summaryJson: join(runDir, 'link-summary.json'), logDown: join(runDir, 'link-down.log') };
  const direction = (d: LinkDirection, which: 'down' | 'up') => {
    if ('rateMbps' in d) options[which === 'down' ? 'downMbps' : 'upMbps'] = d.rateMbps;
    else options[which === 'down' ? 'downTrace' : 'upTrace'] = d.tracePath;
  };
  direction(scenario.link.down, 'down');
  direction(scenario.link.up, 'up');
  if ('oneWayMs' in scenario.delay) options.delayMs = scenario.delay.oneWayMs;
  else {
    const p = scenario.delay.rttPattern;
    // The pattern's seed is shifted per repetition so repetitions see different (but reproducible) RTT draws.
    options.rttPattern = `${p.minMs}:${p.maxMs}:${p.periodS}:${p.seed + seed}`;
  }
  // The same queue discipline in both directions: the uplink carries the acknowledgements.
  const queue = queueArgs(scenario.link.queue);
  options.queueDown = queue.kind;
  options.queueUp = queue.kind;
  if (queue.args) {
    options.queueDownArgs = queue.args;
    options.queueUpArgs = queue.args;
  }
  return options;
}

export function startLink(scenario: Scenario, seed: number, runDir: string): Promise<LinkemShell> {
  return startLinkem(linkemOptions(scenario, seed, runDir));
}

/** Downlink capacity in Mbit/s for each whole second [0, durationS) after the link started. */
export function downlinkCapacityMbpsPerSecond(scenario: Scenario, durationS: number): number[] {
  const down = scenario.link.down;
  const seconds = Math.ceil(durationS);
  if ('rateMbps' in down) return Array.from({ length: seconds }, () => down.rateMbps);
  const trace = loadTrace(down.tracePath);
  return Array.from({ length: seconds }, (_, s) => (opportunitiesBetween(trace, s * 1000, (s + 1) * 1000) * OPPORTUNITY_BYTES * 8) / 1e6);
}
