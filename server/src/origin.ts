// The origin process: WebTransport endpoint (datagram sessions paced by our controllers, or QUIC-stream
// sessions under quinn's CC), the kernel-TCP baseline (plain HTTP/1.1 and HTTPS), and the plain-HTTP control port (cert hash).
import { readdirSync, readFileSync } from 'node:fs';
import {
  CLOSE_BAD_SESSION_PARAMS, CLOSE_LIMIT_EXCEEDED, CLOSE_OPTIMISTIC_ACK, CLOSE_PROTOCOL_VIOLATION, CLOSE_SERVER_SHUTDOWN, parseSessionUrl,
} from '@pcc-stream/protocol';
import { QuicServer, generateSelfSignedCert, type QuicCongestion, type Session } from '@pcc-stream/quic';
import { HttpsOrigin } from './baseline/https-origin.ts';
import { nowUs } from './clock.ts';
import { ControllerFactory } from './controllers/controller-factory.ts';
import { randomBytes, X509Certificate } from 'node:crypto';
import { SendLoop } from './datagram/send-loop.ts';
import { BURST_DURATION_US } from './datagram/token-bucket.ts';
import { DEFAULT_PACER, type Pacer } from './datagram/departure-schedule.ts';
import { processCpuUs } from './datagram/stall-reasons.ts';
import { ControlServer } from './http/control-server.ts';
import { errorMessage, log } from './log.ts';
import { MediaStore } from './media/media-store.ts';
import { ackOnlyLimits, DEFAULT_CLIENT_DATAGRAM_BUDGET, NO_DATAGRAMS, type ClientDatagramBudget } from './session/client-datagram-limits.ts';
import { DEFAULT_ETP_SOURCE, DatagramTransport, type EtpSource } from './session/datagram-transport.ts';
import { OriginSession, type SessionLimits } from './session/origin-session.ts';
import { DEFAULT_SESSION_MEMORY_BYTES, sessionMemoryBudget, type SessionMemoryBudget } from './session/session-memory.ts';
import { StreamTransport } from './session/stream-transport.ts';
import { certFingerprintHex, loadOrCreateCert } from './tls/persisted-cert.ts';
import { RecordingController } from './telemetry/controller-recording.ts';
import { PrefetchCounters, sumPrefetchFields } from './telemetry/prefetch-counters.ts';
import type { TransportHandler } from './session/transport-handler.ts';

export interface OriginOptions {
  mediaDir: string;
  host: string;
  /** WebTransport (UDP) port; 0 = any. */
  port: number;
  /** Plain HTTP control port (cert hash, health, optional static files); 0 = any, null = off. */
  httpPort: number | null;
  /** HTTPS-over-TCP baseline port; 0 = any, null = off. */
  httpsPort: number | null;
  /** Plain HTTP/1.1-over-TCP baseline port (the default TCP baseline: no certificate for a browser to accept); 0 = any, null = off. */
  tcpPort: number | null;
  /** Default controller for sessions that do not choose one. */
  cc: string;
  logDir: string | null;
  /** Record every datagram session's controller inputs and decisions here as pcc-replay scripts, or null. */
  recordDir?: string | null;
  certPath?: string;
  keyPath?: string;
  /** Keep the self-signed certificate here and reuse it across restarts (tls/persisted-cert.ts). */
  certDir?: string;
  maxSessions: number;
  /** Concurrent sessions from one IP address (a misbehaving or flooding client cannot take every slot). */
  maxSessionsPerAddress: number;
  /** New QUIC handshakes per second from one IP address (IPv6: one /64), refused before their TLS work beyond it
   *  (the addon's handshake_limit.rs); 0 = no limit. */
  maxHandshakesPerAddressPerS: number;
  /** Handshakes one address may start at once before that rate applies. */
  handshakeBurstPerAddress: number;
  /** Bound on what one session can make the origin hold (session-memory.ts). */
  sessionMemoryBytes: number;
  /** What a client may send as datagrams before the addon closes its session (client-datagram-limits.ts). */
  clientDatagrams: ClientDatagramBudget;
  limits: SessionLimits;
  cacheBytes: number;
  corsOrigin: string;
  /** Directory served at / on the HTTP port (e.g. the built player), or null. */
  staticDir: string | null;
  /** quinn's datagram send buffer, bytes (--datagram-send-buffer-bytes): what the addon accepts from the send loop
   *  before it refuses more (never dropping older queued datagrams). Datagrams in it are already stamped sent, so a
   *  stall of the addon's runtime lets up to this much leave at once after it. */
  datagramSendBufferBytes: number;
  /** Ask each session's client, with QUIC's ACK-frequency extension, for a QUIC ACK every 16 packets instead of
   *  every second one (the addon's requestAckFrequency; --quic-ack-frequency, on by default): fewer packets for the
   *  receiver to send. Our controllers run on our own ACK datagrams, not QUIC's; quinn's own congestion control
   *  (the quic-cubic / quic-bbr baselines) and loss recovery run on QUIC's. Endpoint-wide: the scheme is chosen
   *  after the handshake, when quinn has fixed the connection's transport settings. */
  requestAckFrequency: boolean;
  /** Datagram sessions' pacing burst, µs at the rate (token-bucket.ts, --pacing-burst-us). */
  pacingBurstUs: number;
  /** Who paces datagram sessions: the send loop's turns or the addon's pacer (departure-schedule.ts, --pacer). */
  pacer: Pacer;
  /** Where datagram sessions' CMSD etp comes from (datagram-transport.ts controllerEtpKbps, --etp-source). */
  etpSource: EtpSource;
}

/** A player opens one session and, after an origin restart or a graceful stop, one more per reconnect attempt: ten a
 *  second from one address is far above that, and bounds what one client can spend of the origin's CPU on TLS
 *  handshakes (a few ms each). */
export const DEFAULT_HANDSHAKES_PER_ADDRESS_PER_S = 10;
/** Concurrent sessions one address may hold by default (maxSessionsPerAddress). */
const DEFAULT_MAX_SESSIONS_PER_ADDRESS = 32;
/** As many at once as the sessions one address may hold: clients behind one NAT starting together are not turned
 *  away. */
export const DEFAULT_HANDSHAKE_BURST_PER_ADDRESS = DEFAULT_MAX_SESSIONS_PER_ADDRESS;

/** The datagram send buffer's default: 64 KiB, ~5 ms at 100 Mbit/s. What sits in it is already stamped sent: a stalled
 *  addon runtime must not pile stamped datagrams that then leave as one burst (issue 17; 4 MiB let 0.5-1.2 Gbit/s
 *  10-ms bursts into a 1 MB link; bench/published/2026-11-25/datagram-send-buffer). */
export const DEFAULT_DATAGRAM_SEND_BUFFER_BYTES = 64 * 1024;

/** How often a drain looks whether the sessions' requests have finished. */
const DRAIN_POLL_MS = 20;
/** How long a graceful stop lets sessions finish the segments they are sending (--drain-ms). */
export const DEFAULT_DRAIN_MS = 3000;

export const DEFAULT_ORIGIN_OPTIONS: Omit<OriginOptions, 'mediaDir'> = {
  host: '127.0.0.1',
  port: 4433,
  httpPort: 8080,
  httpsPort: 8443,
  tcpPort: 8081,
  cc: 'vivace',
  logDir: null,
  maxSessions: 64,
  maxSessionsPerAddress: DEFAULT_MAX_SESSIONS_PER_ADDRESS,
  maxHandshakesPerAddressPerS: DEFAULT_HANDSHAKES_PER_ADDRESS_PER_S,
  handshakeBurstPerAddress: DEFAULT_HANDSHAKE_BURST_PER_ADDRESS,
  sessionMemoryBytes: DEFAULT_SESSION_MEMORY_BYTES,
  clientDatagrams: DEFAULT_CLIENT_DATAGRAM_BUDGET,
  limits: { maxRequestsPerSession: 64, idleTimeoutMs: 60_000, requestTimeoutMs: 10_000, maxRefusedRequests: 32 },
  cacheBytes: 256 * 1024 * 1024,
  corsOrigin: '*',
  staticDir: null,
  datagramSendBufferBytes: DEFAULT_DATAGRAM_SEND_BUFFER_BYTES,
  requestAckFrequency: true,
  pacingBurstUs: BURST_DURATION_US,
  pacer: DEFAULT_PACER,
  etpSource: DEFAULT_ETP_SOURCE,
};

export class Origin {
  readonly sessions = new Map<number, OriginSession>();
  /** The player's early requests over every QUIC session, closed ones included (/status `prefetch_totals`). */
  private readonly sessionPrefetch = new PrefetchCounters();
  /** Recordings of sessions (--record-dir); finished to disk before stop() resolves. */
  private readonly recordings = new Set<RecordingController>();
  readonly sendLoop = new SendLoop();
  private acceptLoop: Promise<void> | null = null;
  private stopped = false;
  /** Set by drain(): new sessions are refused, the open ones finish what they serve. */
  private draining = false;
  sessionsRefused = 0;
  /** Refusals by reason ('session-limit', 'address-limit', 'bad-params', 'shutting-down'), for /status. */
  readonly refusedByReason = new Map<string, number>();
  /** Open sessions per remote IP address. */
  private readonly sessionsPerAddress = new Map<string, number>();
  /** Sessions closed by the origin for a protocol violation (hostile or broken clients), by close code. */
  readonly violationsByCode = new Map<number, number>();
  /** Ended sessions whose telemetry files are still being written: stop() waits for them. */
  private readonly filesClosing = new Set<Promise<void>>();

  private constructor(
    readonly options: OriginOptions,
    readonly quicServer: QuicServer,
    readonly media: MediaStore,
    readonly controllers: ControllerFactory,
    readonly certSha256Hex: string,
    readonly control: ControlServer | null,
    readonly https: HttpsOrigin | null,
    readonly tcp: HttpsOrigin | null,
    readonly memory: SessionMemoryBudget,
  ) {}

  static async start(partial: Partial<OriginOptions> & { mediaDir: string }): Promise<Origin> {
    const options: OriginOptions = { ...DEFAULT_ORIGIN_OPTIONS, ...partial, limits: { ...DEFAULT_ORIGIN_OPTIONS.limits, ...partial.limits } };
    const memory = sessionMemoryBudget(options.sessionMemoryBytes);
    const media = new MediaStore(options.mediaDir, { cacheBytes: options.cacheBytes });
    const controllers = await ControllerFactory.load(options.cc);
    let certPem: string;
    let keyPem: string;
    let certSha256Hex: string;
    if (options.certPath || options.keyPath) {
      if (!options.certPath || !options.keyPath) throw new Error('--cert and --key go together');
      certPem = readFileSync(options.certPath, 'utf8');
      keyPem = readFileSync(options.keyPath, 'utf8');
      certSha256Hex = certFingerprintHex(new X509Certificate(certPem));
    } else {
      const names = [...new Set(['localhost', '127.0.0.1', options.host].filter((n) => n !== '0.0.0.0' && n !== '::'))];
      const cert = options.certDir ? loadOrCreateCert(options.certDir, names, 13) : generateSelfSignedCert(names, 13);
      ({ certPem, keyPem, certSha256Hex } = cert);
    }
    const quicServer = await QuicServer.bind({
      host: options.host, port: options.port, certPem, keyPem, congestion: 'none',
      datagramSendBufferBytes: options.datagramSendBufferBytes, idleTimeoutMs: 30_000, requestAckFrequency: options.requestAckFrequency,
      receiveWindowBytes: memory.receiveWindowBytes, datagramRecvBufferBytes: memory.datagramReceiveBufferBytes,
      handshakesPerAddressPerS: options.maxHandshakesPerAddressPerS, handshakeBurstPerAddress: options.handshakeBurstPerAddress,
    });
    let control: ControlServer | null = null;
    let https: HttpsOrigin | null = null;
    let tcp: HttpsOrigin | null = null;
    try {
      if (options.httpPort !== null) {
        control = await ControlServer.start({
          host: options.host, port: options.httpPort, certSha256Hex, corsOrigin: options.corsOrigin, staticDir: options.staticDir,
          status: () => origin.status(),
        });
      }
      if (options.httpsPort !== null) {
        https = await HttpsOrigin.start({ host: options.host, port: options.httpsPort, tls: { certPem, keyPem }, media, corsOrigin: options.corsOrigin,
          cmsdMaxBitrateKbps: options.limits.cmsdMaxBitrateKbps ?? null });
      }
      if (options.tcpPort !== null) {
        tcp = await HttpsOrigin.start({ host: options.host, port: options.tcpPort, tls: null, media, corsOrigin: options.corsOrigin,
          cmsdMaxBitrateKbps: options.limits.cmsdMaxBitrateKbps ?? null });
      }
    } catch (err) {
      quicServer.close();
      control?.close();
      https?.close();
      tcp?.close();
      throw err;
    }
    const origin: Origin = new Origin(options, quicServer, media, controllers, certSha256Hex, control, https, tcp, memory);
    origin.acceptLoop = origin.accept();
    void origin.logHandshakeRefusals();
    log('info', 'origin.started', {
      quic_port: quicServer.port, http_port: control?.port ?? null, https_port: https?.port ?? null, tcp_port: tcp?.port ?? null,
      media: media.root.realRoot, cc: options.cc, cert_sha256: certSha256Hex, algorithms: controllers.algorithms(),
    });
    return origin;
  }

  get ports(): { quic: number; http: number | null; https: number | null; tcp: number | null } {
    return { quic: this.quicServer.port, http: this.control?.port ?? null, https: this.https?.port ?? null, tcp: this.tcp?.port ?? null };
  }

  status(): Record<string, unknown> {
    return {
      sessions: this.sessions.size, sessions_refused: this.sessionsRefused,
      sessions_refused_by_reason: Object.fromEntries(this.refusedByReason),
      sessions_closed_for_violation_by_code: Object.fromEntries(this.violationsByCode),
      addresses: this.sessionsPerAddress.size,
      handshakes_refused: this.quicServer.handshakesRefused, handshakes_refused_silently: this.quicServer.handshakesRefusedSilently,
      limits: {
        max_sessions: this.options.maxSessions, max_sessions_per_address: this.options.maxSessionsPerAddress,
        max_handshakes_per_address_per_s: this.options.maxHandshakesPerAddressPerS,
        handshake_burst_per_address: this.options.handshakeBurstPerAddress,
        session_memory_bytes: this.memory.sessionMemoryBytes, receive_window_bytes: this.memory.receiveWindowBytes,
        datagram_receive_buffer_bytes: this.memory.datagramReceiveBufferBytes, max_packets_in_flight: this.memory.maxTrackedPackets,
        max_requests_per_session: this.options.limits.maxRequestsPerSession, max_refused_requests: this.options.limits.maxRefusedRequests,
        client_datagram_burst: this.options.clientDatagrams.burst, client_datagrams_per_s: this.options.clientDatagrams.perS,
      },
      request_ack_frequency: this.options.requestAckFrequency,
      cache_bytes: this.media.cache.sizeBytes,
      cache_files: this.media.cache.count, send_loop_members: this.sendLoop.size, algorithms: this.controllers.algorithms(),
      default_cc: this.options.cc, files_opened: this.media.filesOpened,
      cpu_us: processCpuUs(),
      ...memoryFields(),
      ...this.controllers.memoryFields(),
      ...processResources(),
      send_loop_turns: this.sendLoop.turns, send_loop_sleeps: this.sendLoop.sleeps,
      session_list: [...this.sessions.values()].map((s) => ({
        id: s.quic.id, transport: s.transport.transport, open_requests: s.openRequests, cmcd_rejected: s.cmcdRejected,
        player_state_requests: s.playerStateRequests,
        ...s.transport.telemetry.prefetch.fields(),
        ...s.transport.stats(),
        ...ackFrequencyFields(s.quic),
      })),
      https_connections: this.https?.connectionStates() ?? [],
      tcp_connections: this.tcp?.connectionStates() ?? [],
      // Over the origin's life, sessions and connections closed included: what a benchmark run reads at its end.
      prefetch_totals: sumPrefetchFields([this.sessionPrefetch.fields(), ...[this.https, this.tcp].flatMap((o) => (o ? [o.prefetch.fields()] : []))]),
    };
  }

  private async accept(): Promise<void> {
    for (;;) {
      let session: Session | null;
      try {
        session = await this.quicServer.accept();
      } catch (err) {
        log('error', 'origin.accept_failed', { error: errorMessage(err) });
        continue;
      }
      if (session === null) return;
      try {
        this.onSession(session);
      } catch (err) {
        log('error', 'session.setup_failed', { error: errorMessage(err) });
        safeClose(session, CLOSE_PROTOCOL_VIOLATION, `setup failed: ${errorMessage(err)}`);
      }
    }
  }

  /** One line per address and second whose handshakes the addon refused (it counts the rest into the next line). */
  private async logHandshakeRefusals(): Promise<void> {
    try {
      for (let r = await this.quicServer.nextHandshakeRefusal(); r !== null; r = await this.quicServer.nextHandshakeRefusal()) {
        log('warn', 'handshake.refused', {
          remote: r.address, refused: r.refused, kind: 'handshake-rate',
          reason: `more than ${r.limitPerS} new handshakes/s (burst ${r.burst}) from one address`,
        });
      }
    } catch (err) {
      log('error', 'origin.handshake_refusals_failed', { error: errorMessage(err) });
    }
  }

  /** Refuses a session: one structured log line and a close whose reason the client sees. */
  private refuse(quic: Session, kind: string, code: number, reason: string, fields: Record<string, unknown> = {}): void {
    this.sessionsRefused++;
    this.refusedByReason.set(kind, (this.refusedByReason.get(kind) ?? 0) + 1);
    log(kind === 'bad-params' ? 'info' : 'warn', 'session.refused', { session: quic.id, remote: quic.remoteAddress, kind, reason, ...fields });
    safeClose(quic, code, reason);
  }

  private onSession(quic: Session): void {
    if (this.stopped || this.draining) return this.refuse(quic, 'shutting-down', CLOSE_SERVER_SHUTDOWN, 'server shutting down');
    if (this.sessions.size >= this.options.maxSessions) {
      return this.refuse(quic, 'session-limit', CLOSE_LIMIT_EXCEEDED, `server is at its limit of ${this.options.maxSessions} sessions`,
        { limit: this.options.maxSessions });
    }
    const address = addressOf(quic.remoteAddress);
    const fromAddress = this.sessionsPerAddress.get(address) ?? 0;
    if (fromAddress >= this.options.maxSessionsPerAddress) {
      return this.refuse(quic, 'address-limit', CLOSE_LIMIT_EXCEEDED,
        `${address} already has ${fromAddress} sessions, the limit per address`, { limit: this.options.maxSessionsPerAddress });
    }
    const params = parseSessionUrl(quic.url);
    if (!params.ok) return this.refuse(quic, 'bad-params', CLOSE_BAD_SESSION_PARAMS, params.error.message, { url: quic.url.slice(0, 256) });
    let transport: TransportHandler;
    if (params.value.transport === 'quic-stream') {
      // parseSessionUrl admits only quinn's controllers (the scheme registry's) here; the native call is still
      // guarded so that a name it rejects closes this session with a reason instead of throwing out of the accept loop.
      const cc = (params.value.cc ?? 'cubic') as QuicCongestion;
      try {
        quic.setCongestion(cc);
      } catch (err) {
        const reason = `cc=${cc} cannot be used with transport=quic-stream: ${err instanceof Error ? err.message : String(err)}`;
        return this.refuse(quic, 'bad-params', CLOSE_BAD_SESSION_PARAMS, reason, { url: quic.url.slice(0, 256) });
      }
      quic.limitInboundDatagrams(NO_DATAGRAMS);
      transport = new StreamTransport(quic, cc, this.options.logDir);
    } else {
      quic.limitInboundDatagrams(ackOnlyLimits(this.options.clientDatagrams));
      const seed = randomBytes(4).readUInt32BE(0);
      const createdAtUs = nowUs();
      const created = this.controllers.create(params.value.cc, params.value.params, createdAtUs, seed);
      if (!created.ok) return this.refuse(quic, 'bad-params', CLOSE_BAD_SESSION_PARAMS, created.error, { url: quic.url.slice(0, 256) });
      const controller = this.options.recordDir
        ? new RecordingController(created.controller, {
          dir: this.options.recordDir, sessionId: quic.id, algorithm: created.controller.algorithm, seed, nowUs: createdAtUs,
          params: params.value.params, note: `url ${quic.url}`,
        })
        : created.controller;
      if (controller instanceof RecordingController) {
        this.recordings.add(controller);
        void controller.finished().then(() => this.recordings.delete(controller));
        log('info', 'record.start', { session: quic.id, path: controller.path });
      }
      let session: OriginSession | null = null;
      try {
        transport = new DatagramTransport(quic, controller, this.sendLoop, this.options.logDir, (code, reason) => {
          log('warn', 'session.violation', { session: quic.id, remote: quic.remoteAddress, code, reason });
          session?.close(code, reason);
        }, this.memory.maxTrackedPackets, { burstUs: this.options.pacingBurstUs, pacer: this.options.pacer }, this.options.etpSource);
      } catch (err) {
        controller.destroy();
        throw err;
      }
      session = this.register(quic, transport);
      return;
    }
    this.register(quic, transport);
  }

  private register(quic: Session, transport: TransportHandler): OriginSession {
    const session = new OriginSession(quic, transport, this.media, this.options.limits, this.sessionPrefetch);
    this.sessions.set(quic.id, session);
    const address = addressOf(quic.remoteAddress);
    this.sessionsPerAddress.set(address, (this.sessionsPerAddress.get(address) ?? 0) + 1);
    log('info', 'session.open', { session: quic.id, remote: quic.remoteAddress, url: quic.url, transport: transport.transport, cc: transport.algorithm });
    void quic.closed().then((info) => {
      session.released();
      this.sessions.delete(quic.id);
      const filesClosed = session.filesClosed();
      this.filesClosing.add(filesClosed);
      void filesClosed.then(() => this.filesClosing.delete(filesClosed));
      // The origin's own close, or the addon's for a client over its datagram limits.
      const byUs = session.closedWith ?? quic.localClose;
      if (byUs && VIOLATION_CODES.has(byUs.code)) this.violationsByCode.set(byUs.code, (this.violationsByCode.get(byUs.code) ?? 0) + 1);
      const left = (this.sessionsPerAddress.get(address) ?? 1) - 1;
      if (left > 0) this.sessionsPerAddress.set(address, left);
      else this.sessionsPerAddress.delete(address);
      // A session that was never served (most hostile ones) has no transport figures to tell but its algorithm.
      const served = session.requestsStarted > 0 || session.playerStateRequests > 0;
      log('info', 'session.closed', {
        session: quic.id, remote: quic.remoteAddress, code: info.code, reason: info.reason, closed_by: byUs ? 'origin' : 'peer',
        requests: session.requestsServed, requests_interrupted: session.requestsInterrupted, requests_refused: session.requestsRefused,
        ...(served ? transport.stats() : { algorithm: transport.algorithm }),
        ...ackFrequencyFields(quic),
      });
    });
    void session.run();
    return session;
  }

  /**
   * Graceful stop (SIGTERM): refuse new sessions, let every session finish the media requests it is serving (new
   * ones wait unanswered) for up to `deadlineMs`, then close every session with CLOSE_SERVER_SHUTDOWN and a reason,
   * and stop. Players treat that close as a restart: they reconnect and ask the waiting requests again.
   */
  async drain(deadlineMs: number): Promise<void> {
    if (this.stopped || this.draining) return this.stop();
    this.draining = true;
    const startedMs = Date.now();
    const inFlight = (): number => [...this.sessions.values()].reduce((n, s) => n + s.inFlightMediaRequests, 0);
    log('info', 'origin.draining', { sessions: this.sessions.size, requests_in_flight: inFlight(), deadline_ms: deadlineMs });
    for (const s of this.sessions.values()) s.drain();
    while (inFlight() > 0 && Date.now() - startedMs < deadlineMs) await new Promise((r) => setTimeout(r, DRAIN_POLL_MS));
    log('info', 'origin.drained', { waited_ms: Date.now() - startedMs, requests_unfinished: inFlight(), sessions_closed: this.sessions.size });
    await this.stop();
  }

  /** Closes every session, stops accepting, closes the listeners; resolves once every session's telemetry file is
   *  written and closed (the process may exit then without losing lines). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const s of this.sessions.values()) s.close(CLOSE_SERVER_SHUTDOWN, 'server shutting down');
    const filesClosed = [...this.filesClosing, ...[...this.sessions.values()].map((s) => s.filesClosed())];
    this.sendLoop.stop();
    // Give the CONNECTION_CLOSE frames a moment to leave before the endpoint goes away.
    if (this.sessions.size > 0) await new Promise((r) => setTimeout(r, 150));
    this.quicServer.close();
    await Promise.all([this.control?.close(), this.https?.close(), this.tcp?.close(), this.acceptLoop]);
    for (const recording of this.recordings) recording.close();
    await Promise.all([...this.recordings].map((r) => r.finished()));
    await Promise.all(filesClosed);
    log('info', 'origin.stopped', {});
  }
}

/** The process's memory as V8 and the allocator see it: RSS, the JS heap, and what lives outside it (Buffers, WASM). */
/** Whether this session's client was asked to acknowledge less often (--quic-ack-frequency on, and the client
 *  advertised QUIC's ACK-frequency extension; Chromium's support shows here). */
function ackFrequencyFields(quic: Session): { quic_ack_frequency_frames_sent: number } {
  return { quic_ack_frequency_frames_sent: quic.stats().ackFrequencyFramesSent };
}

function memoryFields(): Record<string, number> {
  const m = process.memoryUsage();
  return {
    rss_bytes: m.rss, heap_used_bytes: m.heapUsed, heap_total_bytes: m.heapTotal, external_bytes: m.external,
    array_buffers_bytes: m.arrayBuffers,
  };
}

/** Open file descriptors and the event loop's live timers and handles: what a session that was not cleaned up leaves. */
function processResources(): { open_fds: number | null; active_timers: number; active_handles: number } {
  let openFds: number | null = null;
  try {
    openFds = readdirSync('/proc/self/fd').length;
  } catch {
    /* not Linux */
  }
  const resources = process.getActiveResourcesInfo();
  return { open_fds: openFds, active_timers: resources.filter((r) => r === 'Timeout').length, active_handles: resources.length };
}

/** Close codes that mean the client broke the protocol or a limit (PROTOCOL.md §1.3). */
const VIOLATION_CODES = new Set([CLOSE_PROTOCOL_VIOLATION, CLOSE_OPTIMISTIC_ACK, CLOSE_LIMIT_EXCEEDED]);

/** The IP address of an "ip:port" (IPv6 as "[ip]:port"). */
export function addressOf(remote: string): string {
  const colon = remote.lastIndexOf(':');
  const host = colon < 0 ? remote : remote.slice(0, colon);
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function safeClose(quic: Session, code: number, reason: string): void {
  try {
    quic.close(code, reason);
  } catch {
    /* already closed */
  }
}
