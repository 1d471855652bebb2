// mahimahi traces may be stored gzip-compressed (bench/traces keeps files over 2 MB as NAME.gz). Every reader of
// traces (the simulator, linkem, the harness) takes a plain file, so a compressed one is decompressed once into
// <repo>/.cache/traces/<digest of the compressed bytes>/NAME and that path is used instead.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TRACE_CACHE_DIR = join(repoRoot, '.cache', 'traces');

/** Thrown when a compressed trace cannot be read or decompressed; the message names the file. */
export class TraceFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraceFileError';
  }
}

/**
 * A plain trace file for `path`: `path` itself if it exists and is not compressed; for `NAME.gz`, or for a
 * missing `NAME` whose `NAME.gz` exists, the decompressed copy in the cache. A path that names nothing is
 * returned unchanged, so the reader reports it missing in its own words.
 */
export function traceFile(path: string): string {
  const compressed = path.endsWith('.gz') ? path : !existsSync(path) && existsSync(`${path}.gz`) ? `${path}.gz` : null;
  if (compressed === null || !existsSync(compressed)) return path;
  let bytes: Buffer;
  try {
    bytes = readFileSync(compressed);
  } catch (error) {
    throw new TraceFileError(`${compressed}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  // Keyed by content: an edited .gz gets a new copy, the same bytes under another path share one.
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const plain = join(TRACE_CACHE_DIR, digest, basename(compressed, '.gz'));
  if (existsSync(plain)) return plain;
  let text: Buffer;
  try {
    text = gunzipSync(bytes);
  } catch (error) {
    throw new TraceFileError(`${compressed}: not a valid gzip file (${(error as Error).message})`);
  }
  mkdirSync(dirname(plain), { recursive: true });
  // Temp file + rename: a reader (or a concurrent run doing the same) never sees a partial trace.
  const temp = `${plain}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, text);
    renameSync(temp, plain);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return plain;
}
