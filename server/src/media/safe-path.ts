// Maps a request path onto a file under the media root without ever leaving it: rejects NUL bytes, encoded
// separators, dot segments and backslashes before touching the filesystem, then resolves symlinks and checks
// the real path is still inside the root's real path.
import { realpathSync, statSync } from 'node:fs';
import { sep } from 'node:path';

export type PathResolution = { ok: true; realPath: string; sizeBytes: number; mtimeMs: number } | { ok: false; reason: string };

/** Why a request path names no file. `forbidden`: a path no player asks for (traversal, encoded separators, NULs,
 *  backslashes, broken encoding), which the WebTransport origin answers by closing the session. */
export type PathRefusal = { ok: false; reason: string; forbidden: boolean };

function forbidden(reason: string): PathRefusal {
  return { ok: false, reason, forbidden: true };
}

export function decodeRequestPath(requestPath: string): { ok: true; segments: string[] } | PathRefusal {
  const pathOnly = requestPath.split('?', 1)[0]!.split('#', 1)[0]!;
  if (!pathOnly.startsWith('/')) return forbidden('path must start with /');
  const segments: string[] = [];
  for (const raw of pathOnly.split('/')) {
    if (raw === '') continue;
    // Encoded separators and NULs are refused outright rather than interpreted.
    if (/%(2f|5c|00)/i.test(raw)) return forbidden('encoded separator or NUL in path');
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return forbidden('malformed percent-encoding');
    }
    if (segment.includes('\0') || segment.includes('/') || segment.includes('\\')) return forbidden('forbidden character in path');
    if (segment === '.' || segment === '..') return forbidden('dot segment in path');
    segments.push(segment);
  }
  if (segments.length === 0) return { ok: false, reason: 'no file named', forbidden: false };
  return { ok: true, segments };
}

export class MediaRoot {
  readonly realRoot: string;

  constructor(root: string) {
    this.realRoot = realpathSync(root);
  }

  resolve(requestPath: string): PathResolution {
    const decoded = decodeRequestPath(requestPath);
    if (!decoded.ok) return decoded;
    const candidate = this.realRoot + sep + decoded.segments.join(sep);
    let realPath: string;
    try {
      realPath = realpathSync(candidate);
    } catch {
      return { ok: false, reason: 'not found' };
    }
    if (!realPath.startsWith(this.realRoot + sep)) return { ok: false, reason: 'path leaves the media root' };
    try {
      const st = statSync(realPath);
      if (!st.isFile()) return { ok: false, reason: 'not a file' };
      return { ok: true, realPath, sizeBytes: st.size, mtimeMs: st.mtimeMs };
    } catch {
      return { ok: false, reason: 'not found' };
    }
  }
}
