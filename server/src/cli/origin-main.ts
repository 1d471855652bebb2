// `npm run -s origin -- --media DIR --port 4433 --http-port 8080 --https-port 8443 --tcp-port 8081 --cc vivace --log-dir DIR`
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TCP_CONTROLLERS, WASM_CONTROLLERS } from '@pcc-stream/protocol';
import { userPath } from '@pcc-stream/protocol/node/user-path';
import { errorMessage, log, setLogLevel, type LogLevel } from '../log.ts';
import { MAX_BUFFER_BYTES, MIN_DATAGRAM_BUFFER_BYTES } from '@pcc-stream/quic';
import { DEFAULT_DRAIN_MS, DEFAULT_ORIGIN_OPTIONS, Origin } from '../origin.ts';
import { MAX_BURST_DURATION_US, MIN_BURST_DURATION_US, validBurstDurationUs } from '../datagram/token-bucket.ts';
import { PACERS, PACER_LOOKAHEAD_US } from '../datagram/departure-schedule.ts';
import { ETP_SOURCES } from '../session/datagram-transport.ts';
import { MIN_SESSION_MEMORY_BYTES } from '../session/session-memory.ts';
import { parseFlags, usage, UsageError, type FlagSpec } from './args.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const d = DEFAULT_ORIGIN_OPTIONS;
const specs: Record<string, FlagSpec> = {
  media: { type: 'string', help: 'directory of DASH content to serve', default: join(repoRoot, '.cache/media') },
  host: { type: 'string', help: 'address to listen on', default: d.host },
  port: { type: 'number', help: 'WebTransport (UDP) port, 0 = any', default: d.port },
  'http-port': { type: 'number', help: 'control HTTP port (/cert-hash, /status), -1 = off', default: d.httpPort ?? -1 },
  'https-port': { type: 'number', help: `HTTPS-over-TCP baseline port (?cc=${TCP_CONTROLLERS.join('|')}), -1 = off`, default: d.httpsPort ?? -1 },
  'tcp-port': { type: 'number', help: `plain HTTP/1.1-over-TCP baseline port (?cc=${TCP_CONTROLLERS.join('|')}; the player's transport=tcp), -1 = off`, default: d.tcpPort ?? -1 },
  cc: { type: 'string', help: `default controller of datagram sessions: ${WASM_CONTROLLERS.join('|')}`, default: d.cc },
  'log-dir': { type: 'string', help: 'write per-session per-MI telemetry JSONL here' },
  'record-dir': { type: 'string', help: 'record each datagram session\'s controller inputs and decisions here (pcc-replay scripts)' },
  cert: { type: 'string', help: 'PEM certificate (default: self-signed ECDSA P-256, 13 days)' },
  key: { type: 'string', help: 'PEM private key for --cert' },
  'cert-dir': { type: 'string', help: 'keep the self-signed certificate in this directory and reuse it after a restart (same SHA-256 for pinned players)' },
  'max-sessions': { type: 'number', help: 'concurrent WebTransport sessions', default: d.maxSessions },
  'max-sessions-per-address': { type: 'number', help: 'concurrent WebTransport sessions from one IP address', default: d.maxSessionsPerAddress },
  'max-handshakes-per-address-per-s': {
    type: 'number', help: 'new QUIC handshakes per second from one IP address (IPv6: one /64), more refused before TLS; 0 = no limit',
    default: d.maxHandshakesPerAddressPerS,
  },
  'handshake-burst-per-address': { type: 'number', help: 'new handshakes one IP address may start at once before that rate applies', default: d.handshakeBurstPerAddress },
  'session-memory-mb': {
    type: 'number', help: 'what one session may make the origin hold (unread stream data, ACK buffer, packets in flight), MiB',
    default: d.sessionMemoryBytes / 1048576,
  },
  'client-datagram-burst': {
    type: 'number', help: 'datagrams (ACKs) a client may send before it has earned any; more close its session', default: d.clientDatagrams.burst,
  },
  'client-datagrams-per-s': {
    type: 'number', help: 'datagrams per second a client earns on top of one per datagram sent to it; more close its session',
    default: d.clientDatagrams.perS,
  },
  'max-requests': { type: 'number', help: 'concurrent requests per session', default: d.limits.maxRequestsPerSession },
  'max-refused-requests': { type: 'number', help: 'refused (4xx) requests after which a session is closed', default: d.limits.maxRefusedRequests },
  'idle-timeout-ms': { type: 'number', help: 'close sessions idle this long', default: d.limits.idleTimeoutMs },
  'drain-ms': { type: 'number', help: 'on SIGTERM/SIGINT: refuse new sessions, let open ones finish their segments this long, then close them', default: DEFAULT_DRAIN_MS },
  'cache-mb': { type: 'number', help: 'in-memory cache of hot segments, MiB', default: d.cacheBytes / 1048576 },
  'cmsd-max-bitrate-kbps': { type: 'number', help: 'send CMSD mb (max suggested bitrate, kbit/s) with every response; -1 = off', default: -1 },
  'quic-ack-frequency': {
    type: 'string', help: 'on = ask each client (QUIC ACK-frequency extension) for a QUIC ACK every 16 packets, not every 2nd; on|off',
    default: d.requestAckFrequency ? 'on' : 'off',
  },
  'pacing-burst-us': {
    type: 'number', default: d.pacingBurstUs,
    help: `datagram sessions' pacing burst: at most this long at the controller's rate (or 2 packets) leaves at once, µs, ${MIN_BURST_DURATION_US}..${MAX_BURST_DURATION_US}`,
  },
  pacer: {
    type: 'string', default: d.pacer,
    help: `who paces datagram sessions: loop = the send loop's own turns; addon = the QUIC addon's pacer thread sends each datagram at its time, handed over ${PACER_LOOKAHEAD_US / 1000} ms ahead, so a late event-loop turn does not delay it; ${PACERS.join('|')}`,
  },
  'etp-source': {
    type: 'string', default: d.etpSource,
    help: `datagram sessions' CMSD etp: pacing = the controller's rate from the first RTT sample, initial rate included; measured = its rate once it has heard a delivery and left its start-up phase (none before); ${ETP_SOURCES.join('|')}`,
  },
  'datagram-send-buffer-bytes': {
    type: 'number', default: d.datagramSendBufferBytes,
    help: `QUIC's datagram send buffer per session, bytes (${MIN_DATAGRAM_BUFFER_BYTES}..${MAX_BUFFER_BYTES}); when full the send loop waits, nothing queued is dropped`,
  },
  'cors-origin': { type: 'string', help: 'Access-Control-Allow-Origin value', default: d.corsOrigin },
  static: { type: 'string', help: 'also serve this directory (e.g. the built player) on the HTTP port' },
  'log-level': { type: 'string', help: 'debug|info|warn|error', default: 'info' },
  help: { type: 'boolean', help: 'show this help' },
};

/** Beyond the drain, what closing the sessions and the listeners may take before the process exits anyway. */
const SHUTDOWN_MARGIN_MS = 5000;

function positiveInt(name: string, v: number, min = 1): number {
  if (!Number.isInteger(v) || v < min) throw new UsageError(`--${name} must be an integer ≥ ${min}`);
  return v;
}

/** A rate in (0, 1e6] per second, or 0 = off. */
function rateOrOff(name: string, v: number): number {
  if (!(v >= 0 && v <= 1e6)) throw new UsageError(`--${name} must be a number from 0 (no limit) to 1000000, got ${v}`);
  return v;
}

function onOff(name: string, v: string): boolean {
  if (v !== 'on' && v !== 'off') throw new UsageError(`--${name} must be on or off, got ${JSON.stringify(v)}`);
  return v === 'on';
}

function burstUs(name: string, v: number): number {
  if (!validBurstDurationUs(v)) throw new UsageError(`--${name} must be an integer from ${MIN_BURST_DURATION_US} to ${MAX_BURST_DURATION_US} (µs), got ${v}`);
  return v;
}

/** `v` if it is one of `choices` (a flag taking a named mode: --pacer, --etp-source), else a usage error listing them. */
function oneOf<T extends string>(name: string, v: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(v)) throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got ${JSON.stringify(v)}`);
  return v as T;
}

function sendBufferBytes(name: string, v: number): number {
  if (!Number.isInteger(v) || v < MIN_DATAGRAM_BUFFER_BYTES || v > MAX_BUFFER_BYTES) {
    throw new UsageError(`--${name} must be an integer from ${MIN_DATAGRAM_BUFFER_BYTES} to ${MAX_BUFFER_BYTES} (bytes), got ${v}`);
  }
  return v;
}

function port(name: string, v: number): number | null {
  if (v === -1) return null;
  if (!Number.isInteger(v) || v < 0 || v > 65535) throw new UsageError(`--${name} must be 0..65535 (or -1 = off)`);
  return v;
}

async function main(): Promise<void> {
  let origin: Origin;
  let drainMs = DEFAULT_DRAIN_MS;
  try {
    const { values: v, positional } = parseFlags(process.argv.slice(2), specs);
    if (v.help) {
      console.log(usage('pcc-stream origin: WebTransport datagrams paced by PCC controllers, plus TCP and QUIC-stream baselines', specs));
      return;
    }
    if (positional.length > 0) throw new UsageError(`unexpected argument ${positional[0]}`);
    if (!(WASM_CONTROLLERS as readonly string[]).includes(v.cc as string)) {
      throw new UsageError(`--cc ${String(v.cc)} is not a datagram controller; use one of ${WASM_CONTROLLERS.join(', ')}`);
    }
    const level = v['log-level'] as string;
    if (!['debug', 'info', 'warn', 'error'].includes(level)) throw new UsageError('--log-level must be debug|info|warn|error');
    setLogLevel(level as LogLevel);
    drainMs = positiveInt('drain-ms', v['drain-ms'] as number, 0);
    // Paths are the user's: relative to the directory the command was run in (npm runs this in server/).
    const logDir = v['log-dir'] === undefined ? null : userPath(v['log-dir'] as string);
    if (logDir) mkdirSync(logDir, { recursive: true });
    const recordDir = v['record-dir'] === undefined ? null : userPath(v['record-dir'] as string);
    if (recordDir) mkdirSync(recordDir, { recursive: true });
    origin = await Origin.start({
      mediaDir: userPath(v.media as string),
      host: v.host as string,
      port: port('port', v.port as number) ?? 0,
      httpPort: port('http-port', v['http-port'] as number),
      httpsPort: port('https-port', v['https-port'] as number),
      tcpPort: port('tcp-port', v['tcp-port'] as number),
      cc: v.cc as string,
      logDir,
      recordDir,
      ...(v.cert ? { certPath: userPath(v.cert as string) } : {}),
      ...(v.key ? { keyPath: userPath(v.key as string) } : {}),
      ...(v['cert-dir'] ? { certDir: userPath(v['cert-dir'] as string) } : {}),
      maxSessions: positiveInt('max-sessions', v['max-sessions'] as number),
      maxSessionsPerAddress: positiveInt('max-sessions-per-address', v['max-sessions-per-address'] as number),
      maxHandshakesPerAddressPerS: rateOrOff('max-handshakes-per-address-per-s', v['max-handshakes-per-address-per-s'] as number),
      handshakeBurstPerAddress: positiveInt('handshake-burst-per-address', v['handshake-burst-per-address'] as number),
      sessionMemoryBytes: positiveInt('session-memory-mb', v['session-memory-mb'] as number, MIN_SESSION_MEMORY_BYTES / 1048576) * 1048576,
      clientDatagrams: {
        burst: positiveInt('client-datagram-burst', v['client-datagram-burst'] as number),
        perS: positiveInt('client-datagrams-per-s', v['client-datagrams-per-s'] as number),
      },
      limits: {
        maxRequestsPerSession: positiveInt('max-requests', v['max-requests'] as number),
        idleTimeoutMs: positiveInt('idle-timeout-ms', v['idle-timeout-ms'] as number, 100),
        requestTimeoutMs: 10_000,
        maxRefusedRequests: positiveInt('max-refused-requests', v['max-refused-requests'] as number),
        cmsdMaxBitrateKbps: v['cmsd-max-bitrate-kbps'] === -1 ? null : positiveInt('cmsd-max-bitrate-kbps', v['cmsd-max-bitrate-kbps'] as number),
      },
      cacheBytes: positiveInt('cache-mb', v['cache-mb'] as number, 0) * 1048576,
      corsOrigin: v['cors-origin'] as string,
      requestAckFrequency: onOff('quic-ack-frequency', v['quic-ack-frequency'] as string),
      pacingBurstUs: burstUs('pacing-burst-us', v['pacing-burst-us'] as number),
      pacer: oneOf('pacer', v.pacer as string, PACERS),
      etpSource: oneOf('etp-source', v['etp-source'] as string, ETP_SOURCES),
      datagramSendBufferBytes: sendBufferBytes('datagram-send-buffer-bytes', v['datagram-send-buffer-bytes'] as number),
      staticDir: v.static === undefined ? null : userPath(v.static as string),
    });
  } catch (err) {
    if (err instanceof UsageError) {
      // The error goes last: the options list is long, and a terminal or a log tail shows the end.
      console.error(`${usage('usage: npm run -s origin -- [options]', specs)}\n\norigin: ${err.message}`);
      process.exit(2);
    }
    log('error', 'origin.start_failed', { error: errorMessage(err) });
    process.exit(1);
  }
  const p = origin.ports;
  // One machine-readable line on stdout so scripts can find the ports and the hash.
  console.log(JSON.stringify({ event: 'ready', quic_port: p.quic, http_port: p.http, https_port: p.https, tcp_port: p.tcp, cert_sha256: origin.certSha256Hex }));
  let stopping = false;
  const shutdown = (signal: string): void => {
    // A second signal during the drain stops at once.
    if (stopping) {
      log('info', 'origin.signal', { signal, action: 'stop now' });
      void origin.stop().then(() => process.exit(0));
      return;
    }
    stopping = true;
    log('info', 'origin.signal', { signal, action: 'drain', drain_ms: drainMs });
    const force = setTimeout(() => process.exit(1), drainMs + SHUTDOWN_MARGIN_MS);
    force.unref();
    void origin.drain(drainMs).then(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

await main();
