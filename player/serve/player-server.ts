// Serves the built player (player/dist) over plain HTTP on loopback — http://127.0.0.1 is a secure context, so the
// page may use WebTransport — and answers /cert-hash by asking the origin, so the page finds the origin's
// certificate hash on its own origin without CORS.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';

export interface PlayerServerOptions {
  distDir: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The origin's plain-HTTP base, e.g. http://127.0.0.1:8080, for /cert-hash. */
  originHttpBase: string;
}

export interface PlayerServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

function send(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

async function proxyCertHash(originHttpBase: string, res: ServerResponse): Promise<void> {
  try {
    const r = await fetch(`${originHttpBase}/cert-hash`, { signal: AbortSignal.timeout(3000) });
    send(res, r.status, await r.text());
  } catch {
    send(res, 502, `origin not reachable at ${originHttpBase}`);
  }
}

function serveFile(root: string, req: IncomingMessage, res: ServerResponse): void {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    send(res, 400, 'bad path');
    return;
  }
  if (pathname.endsWith('/')) pathname += 'index.html';
  const file = normalize(join(root, pathname));
  if (file !== root && !file.startsWith(root + sep)) {
    send(res, 404, 'not found');
    return;
  }
  if (!existsSync(file) || !statSync(file).isFile()) {
    send(res, 404, 'not found');
    return;
  }
  res.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
  createReadStream(file).pipe(res);
}

export async function startPlayerServer(options: PlayerServerOptions): Promise<PlayerServer> {
  const root = resolve(options.distDir);
  if (!existsSync(join(root, 'index.html'))) throw new Error(`no built player at ${root}; run \`npm run build -w player\``);
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'method not allowed');
      return;
    }
    if ((req.url ?? '').split('?')[0] === '/cert-hash') {
      void proxyCertHash(options.originHttpBase, res);
      return;
    }
    serveFile(root, req, res);
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolvePromise());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${options.host}:${port}/`,
    port,
    close: () => new Promise<void>((resolvePromise) => {
      server.closeAllConnections();
      server.close(() => resolvePromise());
    }),
  };
}
