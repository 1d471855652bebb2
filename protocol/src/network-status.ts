// `GET /network` on the page's own HTTP origin (npm start's page server): the emulated network the demo's media
// crosses (npm start -- --network NAME), for the page's charts and summary card. One place for the answer's shape,
// its validator, the query the page sends and which link a pane's media crosses (both sides). Browser-safe.
//
//   GET /network?mode=side-by-side&panes=vivace@datagram,cubic@tcp&since=12.5
//
// `mode` and `panes` are the page's compare layout (absent: one pane, competing); the answer lists only the links
// those panes use, each with the panes on it. `since` (seconds on the demo clock) returns only the bins that start
// at or after it, for incremental polling. Every time is on one clock: seconds since the page server started
// (`nowS` is its reading when the answer was made), so panes on different links share an axis.
import { fail, ok, type Result } from './errors.ts';

export const NETWORK_STATUS_PATH = '/network';
/** 2: a queue bin carries its packets' delays (QueueBin's fifth field), so the card ranks packets, not bins. */
export const NETWORK_STATUS_VERSION = 2;

/** How a compare view's panes share the emulated network: all on one bottleneck, or each on its own identical copy
 *  (same trace, RTT schedule and seed, started at the same instant). 'loopback': no emulated link at all. */
export const NETWORK_MODES = ['competing', 'side-by-side'] as const;
export type NetworkMode = (typeof NETWORK_MODES)[number];
export const DEFAULT_NETWORK_MODE: NetworkMode = 'competing';
/** The page parameter that chooses the mode (`?compare=vivace,cubic@tcp&mode=side-by-side`). */
export const NETWORK_MODE_PARAM = 'mode';

/** Where a link's origin listens: the media of panes on that link come from here, through the emulated link. */
export interface NetworkOrigin {
  host: string;
  webTransportPort: number;
  /** Plain HTTP: /cert-hash, /status (CORS *). */
  httpPort: number;
  /** HTTPS over kernel TCP (the TCP baseline with TLS); null when the origin serves none. */
  httpsPort: number | null;
  /** Plain HTTP/1.1 over kernel TCP (the TCP baseline a browser uses without a certificate step); absent or null when
   *  the origin serves none. */
  tcpPort?: number | null;
}

/** [tS, downMbps, upMbps]: the link's delivery capacity over the bin [tS, tS + binS), each direction as the viewer
 *  sees it (down = origin → browser). From the trace (or constant rate) the emulator follows. */
export type CapacityBin = [tS: number, downMbps: number, upMbps: number];
/** [tS, delayP95Ms, queueBytes, deliveredMbps, delays] of the viewer's downlink over [tS, tS + binS): the 95th
 *  percentile of the time packets that left the link in the bin spent in its queue (null when none left), the most
 *  link bytes queued during the bin, the rate packets left the link at (the bench's link utilization = delivered /
 *  capacity), and every departed packet's queueing delay as [delayMs, packets] pairs in rising delay (the log's
 *  whole-ms values), from which a run's p95 ranks packets as the bench's does (qoe.ts queueDelayPercentileMs).
 *  From linkem's mm-link log of that direction. */
export type QueueBin = [tS: number, delayP95Ms: number | null, queueBytes: number, deliveredMbps: number, delays: QueueDelayCount[]];
/** [delayMs, packets]: how many packets left the queue after `delayMs`. */
export type QueueDelayCount = [delayMs: number, packets: number];

export interface NetworkLink {
  /** Stable for the life of the page server: "link-0", "link-1", ... */
  id: string;
  /** For a legend: "lte", "lte · copy 2". */
  label: string;
  origin: NetworkOrigin;
  /** Pane keys (paneKey()) of the panes whose media cross this link, in page order; [] when the query named none. */
  panes: string[];
  capacity: CapacityBin[];
  queue: QueueBin[];
}

export interface NetworkStatus {
  version: typeof NETWORK_STATUS_VERSION;
  /** Preset name ("loopback", "lte", ...) or the scenario file's name. */
  preset: string;
  /** One line on what the link is, for the page. */
  description: string;
  /** The mode the answer was made for; 'loopback' whenever links is empty. */
  mode: NetworkMode | 'loopback';
  /** Demo clock (s since the page server started) when this answer was made. */
  nowS: number;
  /** Width of every bin, s. */
  binS: number;
  links: NetworkLink[];
}

/** The answer when the media cross no emulated link (the origin's own /network, npm start without --network). */
export function loopbackNetworkStatus(nowS: number): NetworkStatus {
  return { version: NETWORK_STATUS_VERSION, preset: 'loopback', description: 'no emulated link', mode: 'loopback', nowS, binS: 1, links: [] };
}

/** A pane's key: its controller and transport as a compare entry spells them ("vivace@datagram", "cubic@tcp"). */
export function paneKey(cc: string, transport: string): string {
  return `${cc}@${transport}`;
}

/** Index into the server's links of the link pane `paneIndex` (0-based, page order) crosses. */
export function linkIndexForPane(mode: NetworkMode, paneIndex: number): number {
  return mode === 'side-by-side' ? paneIndex : 0;
}

/** The server's side of the rule: the keys of the panes whose media cross link `linkIndex`, in page order (a link's
 *  `panes`). */
export function panesOnLink(mode: NetworkMode, panes: readonly string[], linkIndex: number): string[] {
  return panes.filter((_, pane) => linkIndexForPane(mode, pane) === linkIndex);
}

/** The page's side: which link of an answer pane `index` (of the panes keyed `keys`, page order) crosses — the one
 *  whose `panes` lists its key (the k-th such link for the k-th pane with that key, side by side), else by position
 *  as the server lays links out. The page's charts and its choice of origin both read it, so a pane's media cross
 *  the link its charts draw. */
export function linkForPane(status: Pick<NetworkStatus, 'mode' | 'links'>, keys: readonly string[], index: number): NetworkLink | null {
  if (status.links.length === 0 || status.mode === 'loopback') return null;
  const key = keys[index];
  const sameKeyBefore = keys.slice(0, index).filter((k) => k === key).length;
  const listing = status.links.filter((l) => key !== undefined && l.panes.includes(key));
  if (listing.length > 0) return listing[status.mode === 'side-by-side' ? Math.min(sameKeyBefore, listing.length - 1) : 0] ?? null;
  return status.links[linkIndexForPane(status.mode, index)] ?? null;
}

export function isNetworkMode(value: string): value is NetworkMode {
  return (NETWORK_MODES as readonly string[]).includes(value);
}

/** The query string of a /network request (without "?"). */
export function networkStatusQuery(mode: NetworkMode, panes: readonly string[], sinceS?: number): string {
  const q = new URLSearchParams({ mode, panes: panes.join(',') });
  if (sinceS !== undefined) q.set('since', String(sinceS));
  return q.toString();
}

export interface NetworkStatusQuery {
  mode: NetworkMode;
  panes: string[];
  sinceS: number;
}

const PANE_KEY = /^[a-z0-9][a-z0-9.+-]{0,63}@[a-z-]{1,32}$/;

export function parseNetworkStatusQuery(search: string): Result<NetworkStatusQuery> {
  const q = new URLSearchParams(search);
  const modeRaw = q.get('mode') ?? DEFAULT_NETWORK_MODE;
  if (!isNetworkMode(modeRaw)) return fail('invalid-field', `mode=${JSON.stringify(modeRaw)}: expected one of ${NETWORK_MODES.join(', ')}`);
  const panesRaw = q.get('panes') ?? '';
  const panes = panesRaw === '' ? [] : panesRaw.split(',');
  const bad = panes.find((p) => !PANE_KEY.test(p));
  if (bad !== undefined) return fail('invalid-field', `panes: ${JSON.stringify(bad)} is not controller@transport`);
  if (panes.length > 16) return fail('too-large', 'panes: at most 16');
  const sinceRaw = q.get('since');
  const sinceS = sinceRaw === null ? 0 : Number(sinceRaw);
  if (sinceRaw !== null && (sinceRaw.trim() === '' || !Number.isFinite(sinceS) || sinceS < 0)) {
    return fail('invalid-field', `since=${JSON.stringify(sinceRaw)}: expected seconds ≥ 0`);
  }
  return ok({ mode: modeRaw, panes, sinceS });
}

// ---- validation of an answer (the page checks what it is given before charting it) ----

type Check = (value: unknown, where: string) => string | null;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const nonNegative = (v: unknown): v is number => finite(v) && v >= 0;
const isPort = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65535;

function tuples(value: unknown, where: string, width: number, cell: (v: unknown, i: number) => boolean, what = `${width} numbers ≥ 0`): string | null {
  if (!Array.isArray(value)) return `${where}: expected an array`;
  for (const [i, row] of value.entries()) {
    if (!Array.isArray(row) || row.length !== width || !row.every((v, j) => cell(v, j))) return `${where}[${i}]: expected ${what}`;
  }
  return null;
}

const isDelayCounts = (v: unknown): boolean =>
  tuples(v, '', 2, (c, j) => nonNegative(c) && (j === 0 || (Number.isInteger(c) && c > 0))) === null;

const checkOrigin: Check = (v, where) => {
  if (!isRecord(v)) return `${where}: expected an object`;
  if (typeof v.host !== 'string' || v.host === '') return `${where}.host: expected a host`;
  if (!isPort(v.webTransportPort)) return `${where}.webTransportPort: expected a port`;
  if (!isPort(v.httpPort)) return `${where}.httpPort: expected a port`;
  if (v.httpsPort !== null && !isPort(v.httpsPort)) return `${where}.httpsPort: expected a port or null`;
  if (v.tcpPort !== undefined && v.tcpPort !== null && !isPort(v.tcpPort)) return `${where}.tcpPort: expected a port or null`;
  return null;
};

const checkLink: Check = (v, where) => {
  if (!isRecord(v)) return `${where}: expected an object`;
  if (typeof v.id !== 'string' || v.id === '') return `${where}.id: expected a string`;
  if (typeof v.label !== 'string') return `${where}.label: expected a string`;
  if (!Array.isArray(v.panes) || !v.panes.every((p) => typeof p === 'string')) return `${where}.panes: expected strings`;
  return checkOrigin(v.origin, `${where}.origin`)
    ?? tuples(v.capacity, `${where}.capacity`, 3, nonNegative)
    ?? tuples(v.queue, `${where}.queue`, 5, (c, j) => (j === 1 && c === null) || (j === 4 ? isDelayCounts(c) : nonNegative(c)),
      '[tS, delayP95Ms, queueBytes, deliveredMbps, [[delayMs, packets], ...]]');
};

/** Checks a parsed /network answer; the error names the first field that is wrong. */
export function parseNetworkStatus(value: unknown): Result<NetworkStatus> {
  if (!isRecord(value)) return fail('invalid-field', 'network status: expected an object');
  if (value.version !== NETWORK_STATUS_VERSION) return fail('unsupported-version', `network status: version ${JSON.stringify(value.version)}, expected ${NETWORK_STATUS_VERSION}`);
  if (typeof value.preset !== 'string' || value.preset === '') return fail('invalid-field', 'network status: preset: expected a name');
  if (typeof value.description !== 'string') return fail('invalid-field', 'network status: description: expected a string');
  if (value.mode !== 'loopback' && !(typeof value.mode === 'string' && isNetworkMode(value.mode))) {
    return fail('invalid-field', `network status: mode: expected loopback or one of ${NETWORK_MODES.join(', ')}`);
  }
  if (!nonNegative(value.nowS)) return fail('invalid-field', 'network status: nowS: expected seconds ≥ 0');
  if (!finite(value.binS) || value.binS <= 0) return fail('invalid-field', 'network status: binS: expected seconds > 0');
  if (!Array.isArray(value.links)) return fail('invalid-field', 'network status: links: expected an array');
  for (const [i, link] of value.links.entries()) {
    const problem = checkLink(link, `network status: links[${i}]`);
    if (problem !== null) return fail('invalid-field', problem);
  }
  if ((value.mode === 'loopback') !== (value.links.length === 0)) return fail('invalid-field', 'network status: mode is loopback exactly when links is empty');
  return ok(value as unknown as NetworkStatus);
}
