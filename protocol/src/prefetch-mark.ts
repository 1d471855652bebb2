// The mark of an early request (issue 18 item 5): the player's loader asks for the next segment before dash.js does
// and says so in the request path's query, so the origin can count early requests and the bytes it sent for those
// cancelled (PROTOCOL.md §2.6). Over WebTransport and HTTPS alike; the origin serves the file as for any request.
import { requestQueryValues } from './request-query.ts';

/** The query argument naming a request as an early one (`?CMCD=…&pcc-prefetch=1`). */
export const PREFETCH_QUERY_KEY = 'pcc-prefetch';

/** The path with the mark added to its query. */
export function withPrefetchMark(path: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${PREFETCH_QUERY_KEY}=1`;
}

/** True when the request path's query carries the mark. */
export function isPrefetchRequest(path: string): boolean {
  return requestQueryValues(path, PREFETCH_QUERY_KEY)[0] === '1';
}
