// A request path's query arguments (`/seg-1.m4s?CMCD=…&pcc-prefetch=1#x`): the one reading of a REQUEST frame's path
// query that CMCD, the early-request mark and the telemetry feed's interval share (PROTOCOL.md §2.5, §2.6).

/** Every value of the query argument `key` in the path's query, in order (the fragment is not part of it). */
export function requestQueryValues(path: string, key: string): string[] {
  const q = path.indexOf('?');
  if (q < 0) return [];
  return new URLSearchParams(path.slice(q + 1).split('#', 1)[0]!).getAll(key);
}
