// The kernel-TCP baseline: the same media over HTTP/1.1 on kernel TCP, plain (the default baseline: a browser needs no
// certificate step) or over TLS (HTTPS, when the comparison should carry TLS's cost), with the congestion control
// chosen per request by `?cc=cubic|bbr` (Linux TCP_CONGESTION on the connection's socket). The algorithm in effect is
// read back from the socket and reported in the `x-tcp-congestion` header.
import { createReadStream } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as TlsServer } from 'node:https';
import type { Socket } from 'node:net';
import {
  CMSD_DYNAMIC_HEADER, CMSD_STATIC_HEADER, PLAYER_STATE_STATUS, encodeCmsdDynamic, encodeCmsdStatic, isPrefetchRequest, requestPlayerState,
} from '@pcc-stream/protocol';
import { getTcpCongestion, setTcpCongestion } from '@pcc-stream/quic';
import { nowUs } from '../clock.ts';
import { errorMessage, log } from '../log.ts';
import { MemoryBodySource } from '../media/body-source.ts';
import { ContinuousStreamBody } from '../media/continuous-stream.ts';
import { tcpCmsdEstimate, trackBytesSent, type BytesSentTracker } from './tcp-info.ts';
import { parseHttpRange, type MediaStore } from '../media/media-store.ts';
import { listen, ListeningServer } from '../http/listening-server.ts';
import { PlayerStateRecord, type PlayerStateFields } from '../telemetry/player-state.ts';
import { PrefetchCounters, type PrefetchFields } from '../telemetry/prefetch-counters.ts';

export interface HttpsOriginOptions {
  host: string;
  port: number;
  /** The certificate and key for HTTPS, or null for plain HTTP/1.1. */
  tls: { certPem: string; keyPem: string } | null;
  media: MediaStore;
  corsOrigin: string;
  /** CMSD `mb` (kbit/s) on every response when set (PROTOCOL.md §2.7). */
  cmsdMaxBitrateKbps?: number | null;
}

/** Per TCP connection: the player's latest CMCD (PROTOCOL.md §2.6) and how many requests were refused for it. */
interface ConnectionState {
  player: PlayerStateRecord;
  cmcdRejected: number;
  /** The player's early requests (`pcc-prefetch=1`) on this connection once they ended: served, or abandoned before
   *  the body ended, and the bytes the kernel sent for those abandoned (trackBytesSent). */
  prefetch: PrefetchCounters;
}

const TCP_ALGORITHM = /^[a-z0-9_]{1,15}$/;

/** The file descriptor of a TCP socket (libuv handle), or null. */
function socketFd(socket: Socket): number | null {
  const handle = (socket as unknown as { _handle?: { fd?: number } })._handle;
  return typeof handle?.fd === 'number' && handle.fd >= 0 ? handle.fd : null;
}

export class HttpsOrigin extends ListeningServer {
  private constructor(
    server: Server | TlsServer,
    private readonly connections: Map<string, ConnectionState>,
    /** Early requests over every connection, closed ones included (the origin's /status `prefetch_totals`). */
    readonly prefetch: PrefetchCounters,
  ) {
    super(server);
  }

  /** /status: each open connection's latest CMCD (`cmcd_*` fields), CMCD refusals and early requests. */
  connectionStates(): Array<{ peer: string; cmcd_rejected: number } & PrefetchFields & PlayerStateFields> {
    const now = nowUs();
    return [...this.connections].map(([peer, c]) => ({ peer, cmcd_rejected: c.cmcdRejected, ...c.prefetch.fields(), ...c.player.fields(now) }));
  }

  static async start(options: HttpsOriginOptions): Promise<HttpsOrigin> {
    // TLS sockets hide the TCP socket (and plain ones are reached the same way): each connection's fd by its peer address.
    const fds = new Map<string, number>();
    const connections = new Map<string, ConnectionState>();
    const prefetch = new PrefetchCounters();
    const server = options.tls ? createHttpsServer({ cert: options.tls.certPem, key: options.tls.keyPem, keepAlive: true }) : createHttpServer({ keepAlive: true });
    server.on('connection', (socket: Socket) => {
      const key = `${socket.remoteAddress}:${socket.remotePort}`;
      const fd = socketFd(socket);
      if (fd !== null) fds.set(key, fd);
      connections.set(key, { player: new PlayerStateRecord(), cmcdRejected: 0, prefetch: new PrefetchCounters() });
      socket.once('close', () => {
        fds.delete(key);
        connections.delete(key);
      });
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const key = `${req.socket.remoteAddress}:${req.socket.remotePort}`;
      serve(req, res, options, fds.get(key) ?? null, connections.get(key) ?? null, prefetch).catch((err) => {
        log('error', options.tls ? 'https.failed' : 'tcp_http.failed', { error: errorMessage(err) });
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(`internal error: ${errorMessage(err)}\n`);
        else res.destroy();
      });
    });
    server.on('tlsClientError', () => {
      /* scanners and aborted handshakes are not worth a log line each */
    });
    await listen(server, options.host, options.port);
    return new HttpsOrigin(server, connections, prefetch);
  }
}

function fail(res: ServerResponse, status: number, message: string, headers: Record<string, string | number> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(message + '\n');
}

/** A response handed whole to the kernel is not yet delivered: its send buffer can hold a whole segment, and a client
 *  that abandons the request closes the connection and the kernel drops what it had not sent. So it is complete once
 *  the kernel has sent its body, cancelled if the connection closes first. */
function awaitSent(socket: Socket, sent: BytesSentTracker, bodyBytes: number, end: (outcome: 'complete' | 'cancelled') => void): void {
  if (socket.destroyed) { // closed already: the last sample is all the kernel sent (no close event to wait for)
    end((sent.sent() ?? bodyBytes) >= bodyBytes ? 'complete' : 'cancelled');
    return;
  }
  const onClose = (): void => end('cancelled');
  socket.once('close', onClose);
  sent.whenSent(bodyBytes, () => {
    socket.off('close', onClose);
    end('complete');
  });
}

async function serve(
  req: IncomingMessage, res: ServerResponse, options: HttpsOriginOptions, fd: number | null, connection: ConnectionState | null,
  totals: PrefetchCounters,
): Promise<void> {
  res.setHeader('access-control-allow-origin', options.corsOrigin);
  // dash.js reads CMSD through XHR's getAllResponseHeaders, which shows a cross-origin page only exposed headers.
  res.setHeader('access-control-expose-headers', `content-length, content-range, x-tcp-congestion, ${CMSD_STATIC_HEADER}, ${CMSD_DYNAMIC_HEADER}`);
  // The page is on another origin: without this its Resource Timing entries hide the response timings, which
  // dash.js's throughput estimate for its own (TCP) loader relies on (player: useResourceTimingApi).
  res.setHeader('timing-allow-origin', options.corsOrigin);
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { 'access-control-allow-methods': 'GET, HEAD, OPTIONS', 'access-control-allow-headers': 'range' }).end();
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return fail(res, 405, 'method not allowed');
  const url = new URL(req.url ?? '/', 'https://origin');
  // CMCD in the query (PROTOCOL.md §2.6): a malformed one refuses this request only, never the connection.
  const cmcd = requestPlayerState(req.url ?? '/');
  if (!cmcd.ok) {
    if (connection) connection.cmcdRejected++;
    log('warn', 'cmcd.rejected', { peer: `${req.socket.remoteAddress}:${req.socket.remotePort}`, path: (req.url ?? '').slice(0, 256), reason: cmcd.error.message });
    return fail(res, 400, cmcd.error.message);
  }
  if (cmcd.value.state) connection?.player.set(cmcd.value.state, nowUs());
  // A player-state request (PROTOCOL.md §2.9) asks for nothing more.
  if (cmcd.value.stateOnly) {
    res.writeHead(PLAYER_STATE_STATUS).end();
    return;
  }
  if (connection && isPrefetchRequest(req.url ?? '/')) {
    // The bytes the kernel sent while the early request was open, as the datagram origin counts its own.
    const sent = trackBytesSent(fd);
    const end = (outcome: 'complete' | 'cancelled'): void => {
      const bytes = sent.stop();
      connection.prefetch.record(outcome, bytes);
      totals.record(outcome, bytes);
    };
    res.once('close', () => {
      const bodyBytes = Number(res.getHeader('content-length') ?? 0);
      if (!res.writableFinished) end('cancelled');
      else awaitSent(req.socket, sent, bodyBytes, end);
    });
  }
  // etp and rtt from the kernel's TCP_INFO for this connection (tcp-info.ts), as the datagram origin sends its controller's.
  res.setHeader(CMSD_STATIC_HEADER, encodeCmsdStatic());
  res.setHeader(CMSD_DYNAMIC_HEADER, encodeCmsdDynamic({ ...(fd !== null ? tcpCmsdEstimate(fd) : {}), mbKbps: options.cmsdMaxBitrateKbps ?? undefined }));
  const cc = url.searchParams.get('cc');
  if (cc !== null) {
    if (!TCP_ALGORITHM.test(cc)) return fail(res, 400, `cc=${cc} is not a TCP congestion control name`);
    if (fd === null) return fail(res, 500, 'cannot reach this connection\'s socket to set its congestion control');
    try {
      setTcpCongestion(fd, cc);
    } catch (err) {
      return fail(res, 400, `the kernel refused TCP congestion control "${cc}": ${errorMessage(err)}`);
    }
  }
  if (fd !== null) {
    try {
      res.setHeader('x-tcp-congestion', getTcpCongestion(fd));
    } catch {
      /* informational only */
    }
  }
  const rangeHeader = req.headers.range;
  let range;
  if (rangeHeader !== undefined) {
    const resolved = options.media.root.resolve(url.pathname);
    if (!resolved.ok) return fail(res, 404, 'not found');
    const parsed = parseHttpRange(rangeHeader, resolved.sizeBytes);
    if (parsed === 'invalid') return fail(res, 400, `malformed Range header ${JSON.stringify(rangeHeader)}`);
    if (parsed === 'unsatisfiable') return fail(res, 416, 'range not satisfiable', { 'content-range': `bytes */${resolved.sizeBytes}` });
    range = parsed;
  }
  const opened = await options.media.open(url.pathname, range);
  if (!('body' in opened)) {
    const headers: Record<string, string> = opened.status === 416 ? { 'content-range': `bytes */${opened.totalSize}` } : {};
    return fail(res, opened.status, opened.status === 404 ? 'not found' : opened.reason, headers);
  }
  const headers: Record<string, string | number> = {
    'content-type': opened.contentType, 'content-length': opened.bodyLength, 'accept-ranges': 'bytes',
  };
  if (opened.status === 206) headers['content-range'] = `bytes ${opened.bodyOffset}-${opened.bodyOffset + opened.bodyLength - 1}/${opened.totalSize}`;
  res.writeHead(opened.status, headers);
  if (req.method === 'HEAD' || opened.bodyLength === 0) {
    opened.body.close();
    res.end();
    return;
  }
  if (opened.body instanceof MemoryBodySource) {
    res.end(opened.body.read(opened.bodyOffset, opened.bodyLength));
    return;
  }
  if (opened.body instanceof ContinuousStreamBody) {
    // One response, the segments back to back (continuous-stream.ts): the socket's own backpressure paces it.
    opened.body.readable().on('error', () => res.destroy()).pipe(res).on('close', () => opened.body.close());
    return;
  }
  opened.body.close();
  createReadStream(opened.realPath, { start: opened.bodyOffset, end: opened.bodyOffset + opened.bodyLength - 1 })
    .on('error', () => res.destroy())
    .pipe(res);
}
