// Plain-HTTP control port: the certificate hash for WebTransport's serverCertificateHashes, a status
// document, and optionally static files (e.g. the built player). CORS for the player's origin.
import { createReadStream, readFile } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { NETWORK_STATUS_PATH, loopbackNetworkStatus, parseNetworkStatusQuery, type NetworkStatus, type NetworkStatusQuery } from '@pcc-stream/protocol';
import { errorMessage, log } from '../log.ts';
import { contentTypeFor } from '../media/content-types.ts';
import { MediaRoot } from '../media/safe-path.ts';
import { listen, ListeningServer } from './listening-server.ts';

/** The built pages' files (player/dist): the player at /, the controller playground at /playground. */
const PAGE_FILES: Readonly<Record<string, string>> = { '/': '/index.html', '/playground': '/playground.html' };
/** The page's `<meta>` carrying the certificate hash (player/src/session/origin-endpoints.ts CERT_HASH_META_NAME). */
const CERT_HASH_META_NAME = 'pcc-cert-sha256';

/** An HTML page with this server's certificate hash inlined at the top of its head: the player opens its WebTransport
 *  session without fetching /cert-hash first, a round trip less before the first request (issue 18, start-up). The
 *  hash is public (the certificate is sent in every handshake); /cert-hash stays for other clients. */
export function withCertHashMeta(html: string, certSha256Hex: string): string {
  const meta = `<meta name="${CERT_HASH_META_NAME}" content="${certSha256Hex}" />`;
  const head = /<head[^>]*>/i.exec(html);
  return head ? `${html.slice(0, head.index + head[0].length)}${meta}${html.slice(head.index + head[0].length)}` : html;
}

export interface ControlServerOptions {
  host: string;
  port: number;
  certSha256Hex: string;
  corsOrigin: string;
  staticDir: string | null;
  status: () => Record<string, unknown>;
  /** GET /network (protocol/src/network-status.ts): the emulated link the page's media cross. Absent: none, the
   *  loopback answer (an origin knows of no emulator; npm start --network's page server passes its links). */
  network?: (query: NetworkStatusQuery) => NetworkStatus;
}

const startedMs = performance.now();

export class ControlServer extends ListeningServer {
  private constructor(server: Server) {
    super(server);
  }

  static async start(options: ControlServerOptions): Promise<ControlServer> {
    const staticRoot = options.staticDir ? new MediaRoot(options.staticDir) : null;
    const server = createServer((req, res) => {
      try {
        handle(req, res, options, staticRoot);
      } catch (err) {
        log('error', 'http.failed', { error: errorMessage(err) });
        if (!res.headersSent) res.writeHead(500).end();
      }
    });
    await listen(server, options.host, options.port);
    return new ControlServer(server);
  }
}

function handle(req: IncomingMessage, res: ServerResponse, options: ControlServerOptions, staticRoot: MediaRoot | null): void {
  res.setHeader('access-control-allow-origin', options.corsOrigin);
  res.setHeader('cache-control', 'no-store');
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-allow-headers': '*' }).end();
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { 'content-type': 'text/plain' }).end('method not allowed\n');
    return;
  }
  const path = (req.url ?? '/').split('?', 1)[0]!;
  if (path === '/cert-hash') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end(options.certSha256Hex);
    return;
  }
  if (path === NETWORK_STATUS_PATH) {
    const query = parseNetworkStatusQuery((req.url ?? '').slice(path.length + 1));
    if (!query.ok) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`${query.error.message}\n`);
      return;
    }
    const answer = options.network ? options.network(query.value) : loopbackNetworkStatus((performance.now() - startedMs) / 1000);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    return;
  }
  if (path === '/status') {
    // Benchmarks start the origin with --expose-gc and ask for a collection before reading memory.
    const gc = (globalThis as { gc?: () => void }).gc;
    if (gc && (req.url ?? '').includes('gc=1')) gc();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(options.status()));
    return;
  }
  if (staticRoot) {
    const resolved = staticRoot.resolve(PAGE_FILES[path] ?? path);
    if (resolved.ok && resolved.realPath.endsWith('.html') && /^[0-9a-fA-F]{64}$/.test(options.certSha256Hex)) {
      // Read whole (a few kB) to inline the hash; read per request so a rebuilt player is served at once.
      const type = contentTypeFor(resolved.realPath);
      readFile(resolved.realPath, 'utf8', (err, html) => {
        if (err) {
          log('error', 'http.page-read-failed', { path, error: errorMessage(err) });
          res.writeHead(500).end();
          return;
        }
        const page = Buffer.from(withCertHashMeta(html, options.certSha256Hex));
        res.writeHead(200, { 'content-type': type, 'content-length': page.length });
        res.end(req.method === 'HEAD' ? undefined : page);
      });
      return;
    }
    if (resolved.ok) {
      res.writeHead(200, { 'content-type': contentTypeFor(resolved.realPath), 'content-length': resolved.sizeBytes });
      if (req.method === 'HEAD') res.end();
      else createReadStream(resolved.realPath).on('error', () => res.destroy()).pipe(res);
      return;
    }
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
}
