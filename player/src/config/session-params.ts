// The page's URL parameters, validated up front so a bad value becomes a clear on-page message instead of a
// session that silently never starts.

import {
  CONTROLLER_PARAM_NAME, DEFAULT_NETWORK_MODE, DEFAULT_SCHEME, NETWORK_MODES, NETWORK_MODE_PARAM, SCHEME_TRANSPORTS, isNetworkMode, controllersOn, isSchemeName, isSchemeTransport, schemeFor, schemeInfo,
  type NetworkMode, type RegisteredScheme, type SchemeName, type SchemeTransport,
} from '@pcc-stream/protocol';
import { DEFAULT_PROGRESS_MODE, PROGRESS_MODES, type ProgressMode } from '../transport/body-buffer.ts';

export type Transport = SchemeTransport;

export interface ServerAddress {
  host: string;
  /** UDP port of the WebTransport (QUIC) endpoint. */
  webTransportPort: number;
  /** Origin's plain HTTP port for /cert-hash; null = ask the page's own server (the player server proxies it). */
  httpPort: number | null;
  /** The kernel-TCP baseline (transport=tcp): plain HTTP/1.1 on tcpPort by default, which a browser uses without a
   *  certificate step; `tcpScheme=https` uses HTTPS on httpsPort instead (TLS's cost in the comparison; the browser
   *  must trust the origin's certificate). */
  tcpScheme: TcpScheme;
  tcpPort: number;
  httpsPort: number;
}

export const TCP_SCHEMES = ['http', 'https'] as const;

/** How dash.js's ABR judges throughput (`abrThroughput=`): `harmonic`, the page's choice (every segment weighs the same,
 *  a short abandonment lock: playback-session.ts), or `dashjs`, dash.js 5's own defaults, to compare against. */
export const ABR_THROUGHPUT_MODES = ['harmonic', 'dashjs'] as const;
export type AbrThroughputMode = (typeof ABR_THROUGHPUT_MODES)[number];
/** dash.js's fast switch (`fastSwitch=`, its `streaming.buffer.fastSwitchEnabled`): after an up-switch, `on` replaces
 *  buffered segments from 1.5 segment durations past the playhead at the new rendition (dash.js 5's own choice for
 *  on-demand content); `off` appends the new rendition after what is buffered, so no buffered segment is fetched twice. */
export const FAST_SWITCH_MODES = ['on', 'off'] as const;
export type FastSwitchMode = (typeof FAST_SWITCH_MODES)[number];
/** When a download is abandoned (`abandon=`): `buffer`, the page's rule (player/src/dash/abandon-rule.ts: only when its
 *  rest at its own rate would arrive after the buffer less a margin runs dry), or `dashjs`, dash.js 5's
 *  AbandonRequestsRule (below its 18-s stable buffer, a download projected past 1.8 segment durations). `buffer` by
 *  default: bench/published/2026-11-25/abandon-if-doomed. */
export const ABANDON_RULES = ['buffer', 'dashjs'] as const;
export type AbandonRule = (typeof ABANDON_RULES)[number];
export const DEFAULT_ABANDON_RULE: AbandonRule = 'buffer';
/** How a WebTransport session starts (`sessionStart=`): `early`, its session opens while dash.js is built and asks for
 *  the manifest, with the certificate hash the page's server inlined; `serial`, the start before issue 18's
 *  session-setup change (fetch /cert-hash, open the session, only then build dash.js), kept to compare against
 *  (bench/published/2026-11-25/session-setup). TCP sessions start the same way under both. */
export const SESSION_STARTS = ['early', 'serial'] as const;
export type SessionStart = (typeof SESSION_STARTS)[number];
/** Where the WebTransport worker's script comes from (`workerScript=`, transport/worker-script.ts): `inline`, the main
 *  bundle carries it and the worker starts from a Blob URL, with no fetch on the session's path, and dash.js is built
 *  once the worker has constructed its WebTransport; `fetched`, its own file fetched from the page's server when the worker is created, with
 *  dash.js built at once (the start of sessionStart=early before issue 18's worker-start change), kept to compare
 *  against (bench/published/2026-11-25/worker-start). TCP sessions start no worker. */
export const WORKER_SCRIPTS = ['inline', 'fetched'] as const;
export type WorkerScript = (typeof WORKER_SCRIPTS)[number];
/** What a WebTransport download's progress counts (`progress=`, PROGRESS_MODES, transport/body-buffer.ts): `received`,
 *  every body byte that arrived, or `in-order`, only those before the first hole (as before issue 18's
 *  dashjs-sample-gap), to compare against. TCP sessions count what fetch() hands over under both. */
export { PROGRESS_MODES, type ProgressMode };
/** The page parameters that change how the player plays, not what it plays or from where, with their values: the
 *  ones a benchmark may set for every scheme alike (`--player-param`); the scheme, media and addresses are its own. */
export const PLAYER_OPTION_PARAMS: Readonly<Record<string, readonly string[]>> = {
  abrThroughput: ABR_THROUGHPUT_MODES, fastSwitch: FAST_SWITCH_MODES, abandon: ABANDON_RULES, sessionStart: SESSION_STARTS,
  workerScript: WORKER_SCRIPTS, progress: PROGRESS_MODES,
};
export type TcpScheme = (typeof TCP_SCHEMES)[number];

export interface SessionParams {
  /** Canonical scheme name from the registry (@pcc-stream/protocol's SCHEMES), e.g. "vivace", "tcp-cubic". */
  scheme: SchemeName;
  transport: Transport;
  /** The controller's name on its transport (the session URL's and the TCP origin's cc=). */
  cc: string;
  /** Media set folder: "abr" or "fixed-<kbps>k". */
  content: string;
  abr: boolean;
  /** Pinned video bitrate when abr=off; null lets the player start wherever dash.js chooses. */
  pinnedBitrateKbps: number | null;
  server: ServerAddress;
  /** Constant sending rate for cc=fixed (bit/s); null otherwise. */
  fixedRateBps: number | null;
  /** Controller parameter overrides from `cc.<name>=<number>` page parameters (datagram transport only), passed to
   *  the origin in the session URL; the origin rejects names the controller does not have. */
  controllerParams: Record<string, number>;
  /** Client-side early requests (`prefetch=1`): the next segment (CMCD `nor`) is asked for before the current one
   *  ends, on every transport (player/src/transport/prefetching-fetcher.ts). */
  prefetch: boolean;
  /** Continuous stream (`stream=1`): a rendition's segments from the first one dash.js asks for to the last, as one
   *  response on every transport, with no request between segments (player/src/transport/continuous-stream-fetcher.ts). */
  stream: boolean;
  /** dash.js's throughput estimate and abandonment lock (`abrThroughput=`, ABR_THROUGHPUT_MODES). */
  abrThroughput: AbrThroughputMode;
  /** dash.js's replacement of buffered segments after an up-switch (`fastSwitch=`, FAST_SWITCH_MODES). */
  fastSwitch: FastSwitchMode;
  /** The rule that abandons a slow download (`abandon=`, ABANDON_RULES). */
  abandon: AbandonRule;
  /** How a WebTransport session starts (`sessionStart=`, SESSION_STARTS). */
  sessionStart: SessionStart;
  /** Where the WebTransport worker's script comes from (`workerScript=`, WORKER_SCRIPTS). */
  workerScript: WorkerScript;
  /** What a WebTransport download's progress counts (`progress=`, PROGRESS_MODES). */
  progress: ProgressMode;
  /** Short label for charts and panels, e.g. "vivace · datagrams". */
  label: string;
}

export interface PageParams {
  sessions: SessionParams[];
  compare: boolean;
  /** With npm start --network: the panes compete on one copy of the link, or each has its own (`?mode=`). */
  networkMode: NetworkMode;
  /** The URL named the origin (host=): the panes stay on it whatever /network says. */
  serverGiven: boolean;
}

export class ParamError extends Error {
  override readonly name = 'ParamError';
}

/** A folder of the origin's media root: the sample sets (abr, fixed-<kbps>k), sets named by their parameters
 *  (cbr-5000k-70s-2s, abr-vbr-70s-2s) and linked bring-your-own content (byo-<name>-<hash>). One path segment. */
const contentPattern = /^[a-z0-9][a-z0-9.-]{0,119}$/;
const CONTROLLER_PARAM_PREFIX = 'cc.';

function parseControllerParams(query: URLSearchParams, transport: Transport): Record<string, number> {
  const params: Record<string, number> = {};
  for (const [key, raw] of query) {
    if (!key.startsWith(CONTROLLER_PARAM_PREFIX)) continue;
    const name = key.slice(CONTROLLER_PARAM_PREFIX.length);
    if (transport !== 'datagram') throw new ParamError(`${key}: controller parameters apply to transport=datagram (the WASM controllers) only`);
    if (!CONTROLLER_PARAM_NAME.test(name)) throw new ParamError(`${key}: "${name}" is not a parameter name (lower case letters, digits, "_")`);
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value)) throw new ParamError(`${key}="${raw}" must be a finite number`);
    params[name] = value;
  }
  return params;
}
const hostPattern = /^[A-Za-z0-9.\-]{1,253}$|^\[[0-9A-Fa-f:.]{2,45}\]$/;

function parsePort<T extends number | null>(raw: string | null, fallback: T, name: string): number | T {
  if (raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new ParamError(`${name}="${raw}" is not a port number (1–65535)`);
  return value;
}

function transportLabel(t: Transport): string {
  return t === 'datagram' ? 'datagrams' : t === 'quic-stream' ? 'QUIC stream' : 'TCP';
}

/** The scheme of `transport=…&cc=…`, with the page's wording of what is wrong. */
function schemeOf(transportRaw: string, ccRaw: string): RegisteredScheme {
  if (!isSchemeTransport(transportRaw)) {
    throw new ParamError(`transport="${transportRaw}" is not supported; use one of: ${SCHEME_TRANSPORTS.join(', ')}`);
  }
  const scheme = schemeFor(transportRaw, ccRaw);
  if (!scheme.ok) {
    throw new ParamError(`cc="${ccRaw}" is not a congestion controller for transport=${transportRaw}; use one of: ${controllersOn(transportRaw).join(', ')}`);
  }
  return scheme.value;
}

/** A compare entry: a canonical scheme name (`tcp-cubic`), an alias (`cubic@tcp`), or a controller on the page's
 *  transport (`cubic` with transport=tcp). */
function compareScheme(entry: string, pageTransport: string): RegisteredScheme {
  if (entry.includes('@')) {
    const [cc, transport] = entry.split('@') as [string, string];
    return schemeOf(transport, cc);
  }
  if (isSchemeTransport(pageTransport) && (controllersOn(pageTransport) as readonly string[]).includes(entry)) return schemeOf(pageTransport, entry);
  if (isSchemeName(entry)) return schemeInfo(entry);
  return schemeOf(pageTransport, entry);
}

/** A player option's value (PLAYER_OPTION_PARAMS): `fallback` when absent, else one of `values`, or refused by name. */
function oneOf<T extends string>(query: URLSearchParams, name: string, values: readonly T[], fallback: T, hint: string): T {
  const raw = query.get(name) ?? fallback;
  if (!(values as readonly string[]).includes(raw)) throw new ParamError(`${name}="${raw}" must be one of ${values.join(', ')} (${hint})`);
  return raw as T;
}

function parseOne(query: URLSearchParams, scheme: RegisteredScheme, server: ServerAddress): SessionParams {
  const transport = scheme.transport;
  const ccRaw = scheme.cc;
  const content = query.get('content') ?? 'abr';
  if (!contentPattern.test(content)) throw new ParamError(`content="${content}" is not a media set name (lower case letters, digits, "." and "-"), e.g. abr, fixed-8000k, cbr-5000k-70s-2s`);
  const abrRaw = query.get('abr') ?? 'on';
  if (abrRaw !== 'on' && abrRaw !== 'off') throw new ParamError(`abr="${abrRaw}" must be "on" or "off"`);
  const bitrateRaw = query.get('bitrate');
  let pinnedBitrateKbps: number | null = null;
  if (bitrateRaw !== null && bitrateRaw !== '') {
    const value = Number(bitrateRaw);
    if (!Number.isFinite(value) || value <= 0 || value > 1e6) throw new ParamError(`bitrate="${bitrateRaw}" must be a positive number of kbit/s`);
    pinnedBitrateKbps = value;
  }
  if (abrRaw === 'off' && pinnedBitrateKbps === null && !/^(fixed|cbr|vbr)-/.test(content)) {
    throw new ParamError('abr=off needs bitrate=K (kbit/s) to choose the rendition to pin');
  }
  const rateRaw = query.get('rateBps');
  let fixedRateBps: number | null = null;
  if (ccRaw === 'fixed') {
    fixedRateBps = Number(rateRaw ?? '');
    if (rateRaw === null || !Number.isFinite(fixedRateBps) || fixedRateBps < 1e5 || fixedRateBps > 1e10) {
      throw new ParamError(`cc=fixed needs rateBps between 100000 and 10000000000 (bit/s), got ${rateRaw === null ? 'none' : `"${rateRaw}"`}`);
    }
  }
  const controllerParams = parseControllerParams(query, transport);
  const prefetchRaw = query.get('prefetch') ?? '0';
  if (prefetchRaw !== '0' && prefetchRaw !== '1') throw new ParamError(`prefetch="${prefetchRaw}" must be 0 or 1`);
  const prefetch = prefetchRaw === '1';
  const streamRaw = query.get('stream') ?? '0';
  if (streamRaw !== '0' && streamRaw !== '1') throw new ParamError(`stream="${streamRaw}" must be 0 or 1`);
  const stream = streamRaw === '1';
  if (stream && prefetch) throw new ParamError('stream=1 and prefetch=1 exclude each other: a continuous stream has no requests to make early');
  const abrThroughput: AbrThroughputMode = oneOf(query, 'abrThroughput', ABR_THROUGHPUT_MODES, 'harmonic', 'dashjs: dash.js\'s own throughput average and abandonment lock');
  const fastSwitch: FastSwitchMode = oneOf(query, 'fastSwitch', FAST_SWITCH_MODES, 'on', 'off: no buffered segment is replaced after an up-switch');
  const abandon: AbandonRule = oneOf(query, 'abandon', ABANDON_RULES, DEFAULT_ABANDON_RULE, 'buffer: abandon only a download that would arrive after the buffer runs dry');
  const sessionStart: SessionStart = oneOf(query, 'sessionStart', SESSION_STARTS, 'early', 'serial: the session opens before dash.js is built, after a /cert-hash fetch');
  const workerScript: WorkerScript = oneOf(query, 'workerScript', WORKER_SCRIPTS, 'inline', 'fetched: the worker\'s script is fetched when the worker is created');
  const progress: ProgressMode = oneOf(query, 'progress', PROGRESS_MODES, DEFAULT_PROGRESS_MODE, 'in-order: progress counts only the bytes before the first hole');
  const paramNote = Object.entries(controllerParams).map(([k, v]) => `${k}=${v}`).join(', ');
  return {
    scheme: scheme.name,
    transport,
    cc: ccRaw,
    fixedRateBps,
    controllerParams,
    content,
    abr: abrRaw === 'on',
    pinnedBitrateKbps: abrRaw === 'off' ? pinnedBitrateKbps : null,
    server,
    prefetch,
    stream,
    abrThroughput,
    fastSwitch,
    abandon,
    sessionStart,
    workerScript,
    progress,
    label: `${ccRaw}${paramNote === '' ? '' : ` (${paramNote})`} · ${transportLabel(transport)}${transport === 'tcp' && server.tcpScheme === 'https' ? ' (HTTPS)' : ''}${prefetch ? ' + prefetch' : ''}${stream ? ' + stream' : ''}${abrThroughput === 'dashjs' ? ' + dash.js ABR' : ''}${fastSwitch === 'off' ? ' − fast switch' : ''}${abandon === DEFAULT_ABANDON_RULE ? '' : ` + abandon=${abandon}`}${sessionStart === 'serial' && transport !== 'tcp' ? ' + serial start' : ''}${workerScript === 'fetched' && transport !== 'tcp' ? ' + fetched worker' : ''}${progress === 'in-order' && transport !== 'tcp' ? ' + in-order progress' : ''}`,
  };
}

function parseTcpScheme(raw: string | null): TcpScheme {
  if (raw === null) return 'http';
  if (!(TCP_SCHEMES as readonly string[]).includes(raw)) throw new ParamError(`tcpScheme="${raw}" must be one of ${TCP_SCHEMES.join(', ')}`);
  return raw as TcpScheme;
}

/** Parses the page query. `defaultHost` is the page's own host, so the origin serving the page is the default server. */
export function parsePageParams(search: string, defaultHost: string): PageParams {
  const query = new URLSearchParams(search);
  const host = query.get('host') ?? query.get('server') ?? defaultHost;
  if (!hostPattern.test(host)) throw new ParamError(`host="${host}" is not a host name or address`);
  const server: ServerAddress = {
    host,
    webTransportPort: parsePort(query.get('port') ?? query.get('wtPort'), 4433, 'port'),
    httpPort: parsePort(query.get('httpPort'), null, 'httpPort'),
    tcpScheme: parseTcpScheme(query.get('tcpScheme')),
    tcpPort: parsePort(query.get('tcpPort'), 8081, 'tcpPort'),
    httpsPort: parsePort(query.get('httpsPort'), 8443, 'httpsPort'),
  };
  const modeRaw = query.get(NETWORK_MODE_PARAM) ?? DEFAULT_NETWORK_MODE;
  if (!isNetworkMode(modeRaw)) throw new ParamError(`${NETWORK_MODE_PARAM}="${modeRaw}" must be one of ${NETWORK_MODES.join(', ')}`);
  const placement = { networkMode: modeRaw, serverGiven: query.has('host') || query.has('server') };
  const compareRaw = query.get('compare');
  if (compareRaw !== null) {
    const ccs = compareRaw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (ccs.length < 2 || ccs.length > 4) throw new ParamError(`compare="${compareRaw}" needs 2 to 4 comma-separated controllers, e.g. compare=vivace,cubic`);
    // A compare entry may name a transport too: "cubic@tcp", "tcp-cubic"; plain controllers use the page's transport.
    const pageTransport = query.get('transport') ?? 'datagram';
    const sessions = ccs.map((entry) => parseOne(query, compareScheme(entry, pageTransport), server));
    return { sessions, compare: true, ...placement };
  }
  const defaultCc = schemeInfo(DEFAULT_SCHEME).cc;
  return { sessions: [parseOne(query, schemeOf(query.get('transport') ?? 'datagram', query.get('cc') ?? defaultCc), server)], compare: false, ...placement };
}
