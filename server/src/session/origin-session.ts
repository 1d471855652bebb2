// One WebTransport session at the origin: accepts request streams, enforces per-session limits and the idle
// timeout, resolves paths in the media store and hands bodies to the session's transport.
import {
  CLOSE_IDLE_TIMEOUT, CLOSE_LIMIT_EXCEEDED, CLOSE_PROTOCOL_VIOLATION, DELIVERY_STREAM, PLAYER_STATE_STATUS, TELEMETRY_PATH, encodeCmsdDynamic,
  encodeCmsdStatic, isPrefetchRequest, requestPlayerState, type RequestFrame,
} from '@pcc-stream/protocol';
import { nowUs } from '../clock.ts';
import type { Session } from '@pcc-stream/quic';
import { errorMessage, log, type LogLevel } from '../log.ts';
import type { MediaStore } from '../media/media-store.ts';
import type { PrefetchCounters } from '../telemetry/prefetch-counters.ts';
import { decodeRequestPath } from '../media/safe-path.ts';
import { RequestStream } from './request-stream.ts';
import type { TransportHandler } from './transport-handler.ts';

export interface SessionLimits {
  /** Concurrent requests per session; more get status 429. */
  maxRequestsPerSession: number;
  /** Closed after this long with no request open and no stream or datagram activity. */
  idleTimeoutMs: number;
  /** A stream must deliver its REQUEST frame within this time. */
  requestTimeoutMs: number;
  /** CMSD `mb` (kbit/s) sent with every response when set: the bitrate the origin wants players to stay under. */
  cmsdMaxBitrateKbps?: number | null;
  /** Requests refused (4xx: malformed CMCD, bad or traversing paths, missing files, over the request limit) before
   * the session is closed: a player asks for what the manifest lists, a prober for anything. */
  maxRefusedRequests: number;
}

/** Refused requests a session logs a line for; the rest are only counted (`requests_refused` in its session.closed
 *  line): a prober's hundreds of refusals a second would otherwise be as many lines, and as much of the origin's time. */
const REFUSALS_LOGGED_PER_SESSION = 1;

export class OriginSession {
  private readonly activeRequestIds = new Set<number>();
  private lastActivityMs = Date.now();
  private readonly idleTimer: NodeJS.Timeout;
  private closed = false;
  /** Media requests whose serving ended, however (complete, cancelled or interrupted). */
  requestsServed = 0;
  /** Of those, requests the session's end interrupted before they completed (`outcome: 'interrupted'`). */
  requestsInterrupted = 0;
  /** Requests whose body (or telemetry feed) was begun, however they ended. */
  requestsStarted = 0;
  /** Requests answered with a 4xx status. */
  requestsRefused = 0;
  private refusalsLogged = 0;
  /** The code and reason the origin closed this session with (null: open, or ended by the peer). */
  closedWith: { code: number; reason: string } | null = null;
  /** Requests refused for a malformed CMCD (PROTOCOL.md §2.6). */
  cmcdRejected = 0;
  /** Player-state requests accepted (PROTOCOL.md §2.9: the CMCD of requests served from a continuous stream). */
  playerStateRequests = 0;
  /** Media requests being served now (telemetry subscriptions, which never end by themselves, are not counted). */
  private mediaRequests = 0;
  /** Set by drain(): no new request is started; those that arrive wait unanswered for the session's close, so the
   *  player asks them again on its next session (a refusal would reach dash.js as a failed request). */
  private draining = false;
  private readonly ended: Promise<void>;
  private markEnded: () => void = () => {};
  /** The transport's close: settles once the session's files are written (a stopping origin waits for it). */
  private transportClosed: Promise<void> = Promise.resolve();

  constructor(
    readonly quic: Session,
    readonly transport: TransportHandler,
    private readonly media: MediaStore,
    private readonly limits: SessionLimits,
    /** The origin's totals over all sessions, closed ones included (/status `prefetch_totals`). */
    private readonly originPrefetch?: PrefetchCounters,
  ) {
    this.idleTimer = setInterval(() => this.checkIdle(), Math.max(50, Math.min(5000, limits.idleTimeoutMs / 4)));
    this.idleTimer.unref();
    this.ended = new Promise((resolve) => { this.markEnded = resolve; });
  }

  /** Media requests in flight (what a graceful stop waits for). */
  get inFlightMediaRequests(): number {
    return this.mediaRequests;
  }

  /** Graceful stop: finish the requests in flight, start no new one (the origin closes the session afterwards). */
  drain(): void {
    this.draining = true;
  }

  get openRequests(): number {
    return this.activeRequestIds.size;
  }

  private checkIdle(): void {
    if (this.activeRequestIds.size > 0) {
      this.lastActivityMs = Date.now();
      return;
    }
    if (Date.now() - this.lastActivityMs > this.limits.idleTimeoutMs) {
      this.close(CLOSE_IDLE_TIMEOUT, `idle for more than ${this.limits.idleTimeoutMs} ms`);
    }
  }

  /** Accepts request streams until the session ends. */
  async run(): Promise<void> {
    for (;;) {
      let bi;
      try {
        bi = await this.quic.acceptBi();
      } catch {
        break;
      }
      if (bi === null || this.closed) break;
      this.lastActivityMs = Date.now();
      void this.handleStream(new RequestStream(bi)).catch((err) => {
        log('error', 'request.failed', { session: this.quic.id, error: errorMessage(err) });
      });
    }
  }

  /**
   * The stream's REQUEST, or why there is none. A broken frame (malformed, not a REQUEST, cut off by the stream's end
   * or stalled half-sent past the request timeout) is a protocol violation (PROTOCOL.md §7); a stream that carried no
   * byte at all (finished empty, or silent until the timeout) is a refused request, counted towards the session's
   * limit; a reset before any REQUEST is the client's own abort.
   */
  private async readRequest(stream: RequestStream): Promise<RequestFrame | { reason: string; verdict: 'violation' | 'refused' | 'aborted' }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.limits.requestTimeoutMs);
    });
    const result = await Promise.race([stream.readFrame(), timeout]);
    clearTimeout(timer);
    const partial = stream.bufferedBytes;
    if (result === null) {
      return partial > 0
        ? { reason: `incomplete REQUEST frame (${partial} B) stalled for ${this.limits.requestTimeoutMs} ms`, verdict: 'violation' }
        : { reason: `no REQUEST within ${this.limits.requestTimeoutMs} ms`, verdict: 'refused' };
    }
    switch (result.kind) {
      case 'frame': return result.frame.type === 'request' ? result.frame : { reason: `first frame is ${result.frame.type}, not request`, verdict: 'violation' };
      case 'malformed': return { reason: `malformed REQUEST: ${result.reason}`, verdict: 'violation' };
      case 'end':
        return partial > 0
          ? { reason: `stream ended inside a REQUEST frame (${partial} B of it)`, verdict: 'violation' }
          : { reason: 'stream ended before a REQUEST', verdict: 'refused' };
      case 'reset': return { reason: 'stream reset before a REQUEST', verdict: 'aborted' };
    }
  }

  /** The first REFUSALS_LOGGED_PER_SESSION refusals of this session get a log line. */
  private logRefusal(level: LogLevel, event: string, fields: Record<string, unknown>): void {
    if (this.refusalsLogged >= REFUSALS_LOGGED_PER_SESSION) return;
    this.refusalsLogged++;
    log(level, event, { session: this.quic.id, ...fields });
  }

  /** Counts a refused request; true when that was one too many and the session is now closed. */
  private refuse(status: number, reason: string): boolean {
    if (++this.requestsRefused < this.limits.maxRefusedRequests) return false;
    // Its client is probing, not playing.
    this.close(CLOSE_LIMIT_EXCEEDED, `${this.requestsRefused} requests refused, the limit per session (last: ${status} ${reason.slice(0, 200)})`);
    return true;
  }

  private async respondError(stream: RequestStream, requestId: number, status: number, reason: string, totalSize?: number): Promise<void> {
    if (status >= 400 && status < 500 && this.refuse(status, reason)) return;
    await this.respondWithoutBody(stream, requestId, status, reason, totalSize);
  }

  private async respondWithoutBody(stream: RequestStream, requestId: number, status: number, reason: string, totalSize?: number): Promise<void> {
    await stream.write({
      type: 'response', requestId, status, delivery: DELIVERY_STREAM, totalSize: totalSize ?? 0, bodyOffset: 0, bodyLength: 0,
      contentType: 'text/plain', reason: reason.slice(0, 500),
    });
    await stream.finish();
    stream.stopReading();
  }

  private async handleStream(stream: RequestStream): Promise<void> {
    const request = await this.readRequest(stream);
    if (!('type' in request)) {
      // A broken request stream is this client's fault only: it loses its session, or a refusal of its limit.
      this.logRefusal('warn', 'request.malformed', { reason: request.reason, verdict: request.verdict });
      stream.reset(1);
      if (request.verdict === 'violation') this.close(CLOSE_PROTOCOL_VIOLATION, request.reason);
      else if (request.verdict === 'refused') this.refuse(400, request.reason);
      return;
    }
    const id = request.requestId;
    // A path no player asks for (traversal, encoded separators or NULs, backslashes, broken encoding: PROTOCOL.md §7)
    // shows a hostile client: its session ends at the first such request, with the reason (in its session.closed
    // line), instead of being answered refusals up to the limit.
    const decoded = decodeRequestPath(request.path);
    if (!decoded.ok && decoded.forbidden) {
      this.requestsRefused++;
      this.close(CLOSE_PROTOCOL_VIOLATION, `forbidden request path (${decoded.reason}): ${request.path.slice(0, 200)}`);
      return;
    }
    if (this.activeRequestIds.has(id)) return this.respondError(stream, id, 400, `request id ${id} is already in use`);
    if (this.activeRequestIds.size >= this.limits.maxRequestsPerSession) {
      return this.respondError(stream, id, 429, `more than ${this.limits.maxRequestsPerSession} concurrent requests in this session`);
    }
    // CMCD is checked before anything is opened: a malformed one refuses this request only (PROTOCOL.md §2.6).
    const cmcd = requestPlayerState(request.path);
    if (!cmcd.ok) {
      this.cmcdRejected++;
      this.logRefusal('warn', 'cmcd.rejected', { request: id, path: request.path.slice(0, 256), reason: cmcd.error.message });
      return this.respondError(stream, id, 400, cmcd.error.message);
    }
    if (cmcd.value.state) this.transport.onPlayerState(cmcd.value.state, nowUs());
    // A player-state request (PROTOCOL.md §2.9) asked for nothing more, so even a draining session answers it.
    if (cmcd.value.stateOnly) {
      this.playerStateRequests++;
      return this.respondWithoutBody(stream, id, PLAYER_STATE_STATUS, '');
    }
    const isTelemetry = request.path.split('?', 1)[0] === TELEMETRY_PATH;
    if (this.draining && !isTelemetry) {
      log('debug', 'request.held_for_drain', { session: this.quic.id, request: id, path: request.path.slice(0, 256) });
      await this.ended;
      return;
    }
    this.activeRequestIds.add(id);
    if (!isTelemetry) this.mediaRequests++;
    const startedMs = Date.now();
    try {
      if (isTelemetry) {
        this.requestsStarted++;
        await this.transport.serveTelemetry(request, stream);
        return;
      }
      const opened = await this.media.open(request.path, request.range);
      if (!('body' in opened)) {
        this.logRefusal('info', 'request.refused', { request: id, path: request.path.slice(0, 256), status: opened.status, reason: opened.reason });
        return this.respondError(stream, id, opened.status, opened.reason, opened.totalSize);
      }
      if (this.closed) {
        opened.body.close();
        return;
      }
      this.requestsStarted++;
      const outcome = await this.transport.serveBody(request, stream, opened, {
        cmsdStatic: encodeCmsdStatic(),
        cmsdDynamic: encodeCmsdDynamic({ ...this.transport.deliveryEstimate(), mbKbps: this.limits.cmsdMaxBitrateKbps ?? undefined }),
      });
      this.requestsServed++;
      if (outcome.outcome === 'interrupted') this.requestsInterrupted++;
      // The player's early requests (PROTOCOL.md §2.6), for /status and the telemetry lines.
      if (isPrefetchRequest(request.path)) {
        this.transport.telemetry.prefetch.record(outcome.outcome, outcome.bodyBytesSent);
        this.originPrefetch?.record(outcome.outcome, outcome.bodyBytesSent);
      }
      log('debug', 'request.done', {
        session: this.quic.id, request: id, path: request.path, status: opened.status, bytes: opened.bodyLength, outcome: outcome.outcome,
        body_bytes_sent: outcome.bodyBytesSent,
        ms: Date.now() - startedMs,
        // Our own close's reason when we closed it; else what the transport saw (the peer's close, a DONE not written).
        ...(outcome.outcome === 'interrupted' ? { why: this.closedWith ? `session closed (code ${this.closedWith.code}: ${this.closedWith.reason})` : (outcome.why ?? 'session closed') } : {}),
      });
    } finally {
      this.activeRequestIds.delete(id);
      if (!isTelemetry) this.mediaRequests--;
      this.lastActivityMs = Date.now();
    }
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.closedWith = { code, reason };
    clearInterval(this.idleTimer);
    this.markEnded();
    this.transportClosed = this.transport.close();
    try {
      this.quic.close(code, reason);
    } catch {
      /* already closed */
    }
  }

  /** The session ended from the other side (or the transport): release without sending a close. */
  released(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.idleTimer);
    this.markEnded();
    this.transportClosed = this.transport.close();
  }

  /** Resolves once the closed session's files are written and closed. */
  filesClosed(): Promise<void> {
    return this.transportClosed;
  }
}
