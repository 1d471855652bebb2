// Turns a scenario's link into a running emulated path (linkem), and reads capacity back for the reports.
import { join } from 'node:path';
import { loadTrace, opportunitiesBetween, OPPORTUNITY_BYTES, startLinkem, type LinkemOptions, type LinkemShell, type StartOptions } from '../linkem/src/driver/index.ts';
import type { LinkDirection, QueueSpec, Scenario } from './scenario.ts';

function queueArgs(queue: QueueSpec): { kind: LinkemOptions['queueDown']; args?: string } {
  if (queue.type === 'infinite') return { kind: 'infinite' };
  const args = [queue.bytes !== undefined ? `bytes=${queue.bytes}` : null, queue.packets !== undefined ? `packets=${queue.packets}` : null]
    .filter((a): a is string => a !== null)
    .join(',');
  return { kind: queue.type, args };
}

/** Where the viewer (the player) sits. The scenario's down and up are the viewer's; linkem's down is toward the namespace.
 *  'inside': the bench (the browser runs in the namespace, the origin on the host), so they coincide. 'outside':
 *  npm start --network (the origin runs in the namespace, the browser on the host), so the directions swap. */
export type ViewerSide = 'inside' | 'outside';

export function linkemOptions(scenario: Scenario, seed: number, runDir: string, viewer: ViewerSide = 'inside'): LinkemOptions {
  // linkem's name of the direction that carries the viewer's downlink (media) and of the one carrying its uplink.
  const [toViewer, fromViewer] = viewer === 'inside' ? (['down', 'up'] as const) : (['up', 'down'] as const);
  const options: LinkemOptions = { seed, summaryJson: join(runDir, 'link-summary.json') };
  options[toViewer === 'down' ? 'lossDown' : 'lossUp'] = scenario.loss.down;
  options[fromViewer === 'down' ? 'lossDown' : 'lossUp'] = scenario.loss.up;
  options[toViewer === 'down' ? 'logDown' : 'logUp'] = join(runDir, 'link-down.log');
  // The viewer's uplink too (its ACKs): with the downlink log it dates both ends of every hop of the feedback loop,
  // so a receiver that sat on its ACKs shows apart from the path's queue.
  options[fromViewer === 'down' ? 'logDown' : 'logUp'] = join(runDir, 'link-up.log');
  const direction = (d: LinkDirection, which: 'down' | 'up') => {
    if ('rateMbps' in d) options[which === 'down' ? 'downMbps' : 'upMbps'] = d.rateMbps;
    else options[which === 'down' ? 'downTrace' : 'upTrace'] = d.tracePath;
  };
  direction(scenario.link.down, toViewer);
  direction(scenario.link.up, fromViewer);
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

export function startLink(scenario: Scenario, seed: number, runDir: string, viewer: ViewerSide = 'inside', start: StartOptions = {}): Promise<LinkemShell> {
  return startLinkem(linkemOptions(scenario, seed, runDir, viewer), start);
}

/** Capacity in Mbit/s of one direction of the scenario's link over [fromMs, toMs) of the link's time (trace looping). */
export type CapacityMbps = (fromMs: number, toMs: number) => number;

export function capacityMbps(direction: LinkDirection): CapacityMbps {
  if ('rateMbps' in direction) return () => direction.rateMbps;
  const trace = loadTrace(direction.tracePath);
  return (fromMs, toMs) => (toMs > fromMs ? (opportunitiesBetween(trace, fromMs, toMs) * OPPORTUNITY_BYTES * 8) / ((toMs - fromMs) * 1000) : 0);
}

/** Downlink capacity in Mbit/s for each whole second [0, durationS) after the link started. */
export function downlinkCapacityMbpsPerSecond(scenario: Scenario, durationS: number): number[] {
  const capacity = capacityMbps(scenario.link.down);
  return Array.from({ length: Math.ceil(durationS) }, (_, s) => capacity(s * 1000, (s + 1) * 1000));
}
