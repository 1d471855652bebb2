// A segment the origin serves under a media directory, as a request path: the generators that need a real transfer
// (optimistic ACKs, abandoned segments) fetch it.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export function someSegmentPath(mediaDir: string): string {
  const walk = (dir: string, depth: number): string | null => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    const file = entries.find((e) => e.isFile() && e.name.endsWith('.m4s') && !e.name.startsWith('init'));
    if (file) return join(dir, file.name);
    if (depth === 0) return null;
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const found = walk(join(dir, e.name), depth - 1);
      if (found) return found;
    }
    return null;
  };
  const found = walk(mediaDir, 3);
  if (!found) throw new Error(`no media segment under ${mediaDir}`);
  return `/${relative(mediaDir, found).split('\\').join('/')}`;
}
