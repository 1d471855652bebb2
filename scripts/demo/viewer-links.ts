// The emulated links of npm start --network: each is a linkem namespace with an origin inside, reached from the host
// (where the browser is) through the link. The reverse of the bench, so the scenario's directions are swapped into
// linkem's (bench/harness/link.ts, viewer 'outside'): the trace's down still carries the media toward the viewer.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startLink } from '@pcc-stream/bench/harness/link';
import type { Scenario } from '@pcc-stream/bench/harness/scenario';
import type { LinkemShell } from '@pcc-stream/bench/linkem';
import { startOriginProcess, type OriginProcess } from '@pcc-stream/server/process';
import { LinkMonitor } from './link-monitor.ts';

/** The seed every copy shares (loss draws, the RTT pattern's shift): side-by-side copies are identical. */
export const DEMO_LINK_SEED = 1;
/** Ports the origin listens on inside each namespace (its own address, so every copy uses the same ones). */
export const NAMESPACE_PORTS = { webTransport: 4433, http: 8080, tcp: 8081, https: 8443 } as const;

/** Ends an origin when the process that started it dies, even by SIGKILL (prctl PR_SET_DEATHSIG, kept across exec):
 *  with the forwarder's own cleanup when its stdin closes, nothing the demo started outlives it. */
export const ORIGIN_LIFELINE = ['setpriv', '--pdeathsig', 'TERM', '--'];

export interface ViewerLink {
  id: string;
  label: string;
  shell: LinkemShell;
  origin: OriginProcess;
  monitor: LinkMonitor;
}

/** The link a compare view's competing panes share when the copies are made for fewer players than it has
 *  (network-presets.ts competingScenario); otherwise they share copy 1 (link-0). */
export const COMPETING_LINK_ID = 'link-competing';

export interface LinkSpec {
  id: string;
  label: string;
  scenario: Scenario;
}

/** `copies` identical copies of the scenario's link (link-0 serves a single pane, link i pane i side by side), and the
 *  competing panes' own link when they need one. */
export function viewerLinkSpecs(scenario: Scenario, label: string, copies: number, competing: Scenario | null): LinkSpec[] {
  const specs = Array.from({ length: copies }, (_, i) => ({ id: `link-${i}`, label: copies === 1 ? label : `${label} · copy ${i + 1}`, scenario }));
  if (competing) specs.push({ id: COMPETING_LINK_ID, label: `${label} · competing, ${competing.players} players`, scenario: competing });
  return specs;
}

export interface ViewerLinkOptions {
  links: readonly LinkSpec[];
  runDir: string;
  mediaDir: string;
  cc: string;
  /** process.hrtime.bigint() at the demo clock's zero. */
  clockZeroNs: bigint;
  onLog: (line: string) => void;
}

/** Starts every copy at once (their schedules start within milliseconds of each other); on any failure stops what
 *  started and rethrows. */
export async function startViewerLinks(o: ViewerLinkOptions): Promise<ViewerLink[]> {
  for (const spec of o.links) mkdirSync(join(o.runDir, spec.id), { recursive: true });
  const shells = await Promise.allSettled(
    o.links.map((spec) => startLink(spec.scenario, DEMO_LINK_SEED, join(o.runDir, spec.id), 'outside', { onLog: o.onLog })),
  );
  const started = shells.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = shells.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.allSettled(started.map((s) => s.stop()));
    throw failed.reason;
  }
  const origins = await Promise.allSettled(started.map((shell) => startOriginProcess({
    mediaDir: o.mediaDir, host: shell.innerAddress, cc: o.cc, launcher: [...ORIGIN_LIFELINE, 'ip', 'netns', 'exec', shell.namespace],
    webTransportPort: NAMESPACE_PORTS.webTransport, httpPort: NAMESPACE_PORTS.http, tcpPort: NAMESPACE_PORTS.tcp, httpsPort: NAMESPACE_PORTS.https,
  })));
  const originFailed = origins.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (originFailed) {
    await Promise.allSettled(origins.flatMap((s) => (s.status === 'fulfilled' ? [s.value.stop()] : [])));
    await Promise.allSettled(started.map((s) => s.stop()));
    throw originFailed.reason;
  }
  return started.map((shell, i) => {
    const origin = (origins[i] as PromiseFulfilledResult<OriginProcess>).value;
    const spec = o.links[i]!;
    const linkStartS = Number(shell.startMonotonicNs - o.clockZeroNs) / 1e9;
    return {
      id: spec.id, label: spec.label, shell, origin,
      monitor: new LinkMonitor(spec.scenario, linkStartS, join(o.runDir, spec.id, 'link-down.log')),
    };
  });
}

/** Origins first (their sessions end cleanly), then the links (namespace, TUNs, anything left inside). */
export async function stopViewerLinks(links: readonly ViewerLink[]): Promise<void> {
  await Promise.allSettled(links.map((l) => l.origin.stop()));
  for (const l of links) l.monitor.close();
  await Promise.allSettled(links.map((l) => l.shell.stop()));
}
