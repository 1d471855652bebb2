// Where one session's bytes come from, derived from the validated page parameters.
import type { SessionParams } from '../config/session-params.ts';

export interface OriginEndpoints {
  /** Plain-HTTP URL returning the origin certificate's SHA-256 (hex). */
  certHashUrl: string;
  /** WebTransport session URL (datagram and quic-stream transports). */
  sessionUrl: string;
  /** Manifest URL given to dash.js. For WebTransport transports only its path matters (the loader sends it). */
  manifestUrl: string;
}

export function originEndpoints(p: SessionParams, pageOrigin: string): OriginEndpoints {
  const host = p.server.host;
  const certHashUrl = p.server.httpPort === null ? `${pageOrigin}/cert-hash` : `http://${host}:${p.server.httpPort}/cert-hash`;
  const controllerParams = Object.entries(p.controllerParams).map(([name, value]) => `&${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`).join('');
  const query = p.transport === 'quic-stream'
    ? `transport=quic-stream&cc=${encodeURIComponent(p.cc)}`
    : `cc=${encodeURIComponent(p.cc)}${p.fixedRateBps !== null ? `&rate_bps=${Math.round(p.fixedRateBps)}` : ''}${controllerParams}`;
  const sessionUrl = `https://${host}:${p.server.webTransportPort}/pcc?${query}`;
  const tcpPort = p.server.tcpScheme === 'https' ? p.server.httpsPort : p.server.tcpPort;
  const manifestUrl = p.transport === 'tcp'
    ? `${p.server.tcpScheme}://${host}:${tcpPort}/${p.content}/manifest.mpd?cc=${encodeURIComponent(p.cc)}`
    : `https://${host}:${p.server.webTransportPort}/${p.content}/manifest.mpd`;
  return { certHashUrl, sessionUrl, manifestUrl };
}

/** Adds ?cc= to every TCP request so the origin picks the kernel controller per connection (segments resolve
 *  relative to the manifest and would otherwise lose the query). */
export function withControllerQuery(url: string, cc: string): string {
  const u = new URL(url);
  u.searchParams.set('cc', cc);
  return u.toString();
}

/** The `<meta>` in which the server that serves the page (server/src/http/control-server.ts) inlines its certificate's
 *  SHA-256, so a session can open without first fetching /cert-hash, a round trip on the path (issue 18, start-up). */
export const CERT_HASH_META_NAME = 'pcc-cert-sha256';

/** The certificate hash inlined in the page, or null (a page from another server, e.g. vite's dev server). */
export function pageCertHash(doc: Pick<Document, 'querySelector'>): string | null {
  const value = doc.querySelector<HTMLMetaElement>(`meta[name="${CERT_HASH_META_NAME}"]`)?.content.trim() ?? '';
  return /^[0-9a-fA-F]{64}$/.test(value) ? value : null;
}

export async function fetchCertHash(url: string, timeoutMs: number): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), cache: 'no-store' });
  } catch (err) {
    const why = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : 'connection failed';
    throw new Error(`Cannot reach the origin at ${url} (${why}). Is it running? Start it with \`npm start\` or \`npm run origin\`.`);
  }
  if (!response.ok) throw new Error(`The origin answered ${response.status} for ${url}; expected its certificate hash.`);
  const text = (await response.text()).trim();
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new Error(`The origin's certificate hash from ${url} is not 64 hex digits.`);
  return text;
}
