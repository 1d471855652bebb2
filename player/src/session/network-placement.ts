// Which origin each pane's media come from when npm start runs with --network: the page asks its own server's
// GET /network (protocol/src/network-status.ts) and points each pane at the origin behind its link — the shared
// link's when competing (copy 1, or a link of its own sized for the competing players where the preset's rate is per
// player: scripts/demo/network-presets.ts), pane i at copy i's when side by side. A plain origin (no /network, or no links) leaves
// the panes on the page's own server, as before.
import { linkForPane, networkStatusQuery, NETWORK_STATUS_PATH, paneKey, parseNetworkStatus, type NetworkMode } from '@pcc-stream/protocol';
import type { ServerAddress, SessionParams } from '../config/session-params.ts';

/** How long the page waits for /network before it starts the panes on the page's own server. */
const NETWORK_ANSWER_TIMEOUT_MS = 3000;

export class NetworkPlacementError extends Error {
  override readonly name = 'NetworkPlacementError';
}

/** The origin each pane is to fetch from, in page order. */
export async function placeOnNetwork(sessions: readonly SessionParams[], mode: NetworkMode, pageOrigin: string): Promise<ServerAddress[]> {
  const unchanged = sessions.map((s) => s.server);
  const panes = sessions.map((s) => paneKey(s.cc, s.transport));
  let response: Response;
  try {
    response = await fetch(`${pageOrigin}${NETWORK_STATUS_PATH}?${networkStatusQuery(mode, panes)}`, {
      cache: 'no-store', signal: AbortSignal.timeout(NETWORK_ANSWER_TIMEOUT_MS),
    });
  } catch {
    return unchanged; // no page server that knows of a network: the origin serving the page serves the media
  }
  if (response.status === 404) return unchanged;
  if (!response.ok) throw new NetworkPlacementError(`${NETWORK_STATUS_PATH} answered ${response.status}: ${(await response.text()).trim()}`);
  const status = parseNetworkStatus(await response.json());
  if (!status.ok) throw new NetworkPlacementError(`${NETWORK_STATUS_PATH}: ${status.error.message}`);
  if (status.value.links.length === 0) return unchanged;
  return sessions.map((s, i) => {
    // The same pane-to-link rule as the charts' (protocol linkForPane): a pane's media cross the link its charts draw.
    const link = linkForPane(status.value, panes, i);
    if (!link) {
      throw new NetworkPlacementError(`mode=${mode} puts each of the ${sessions.length} panes on its own copy of the link, but npm start runs ${status.value.links.length}; restart it with --links ${sessions.length}, or use mode=competing`);
    }
    const o = link.origin;
    return { host: o.host, webTransportPort: o.webTransportPort, httpPort: o.httpPort, httpsPort: o.httpsPort ?? s.server.httpsPort, tcpScheme: s.server.tcpScheme, tcpPort: o.tcpPort ?? s.server.tcpPort };
  });
}
