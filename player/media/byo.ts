// Bring your own DASH content: checks a user's static manifest before anything runs (it parses, every file it
// names exists and holds the byte ranges it names, its codecs are ones Chromium's MSE plays here, it lasts long
// enough) and makes it servable from the media root without copying: a folder of hard links
// (<root>/byo-<name>-<hash>/, the manifest as manifest.mpd, every file at its own relative path). The origin refuses
// symbolic links that leave its root, hard links are ordinary files to it; across file systems, where hard links
// cannot exist, the files are copied (and the log says so).
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ManifestError, parseManifest, type FileRef, type ManifestRepresentation } from './mpd.ts';

export { ManifestError } from './mpd.ts';

/** Codec families Debian's Chromium plays through MSE (the player's path). HEVC is absent: no decoder ships. */
export const playableCodecs = ['avc1', 'avc3', 'vp09', 'vp9', 'vp8', 'av01', 'opus', 'vorbis', 'mp4a', 'flac'] as const;
const hevcCodecs = ['hev1', 'hvc1', 'dvh1', 'dvhe'];
const playableMimeTypes = ['video/mp4', 'audio/mp4', 'video/webm', 'audio/webm'];

export interface ByoRepresentation {
  id: string;
  contentType: 'video' | 'audio';
  codecs: string;
  bandwidthBps: number;
  segmentCount: number;
  /** Seconds the representation's segments cover. */
  coveredS: number;
}

export interface ByoContent {
  /** Folder name under the media root: byo-<manifest folder>-<hash of the manifest's absolute path>. */
  name: string;
  mpdPath: string;
  durationS: number;
  representations: ByoRepresentation[];
  /** Every file the manifest names, relative to its folder. */
  files: string[];
}

export function byoSetName(mpdPath: string): string {
  const absolute = resolve(mpdPath);
  const folder = basename(dirname(absolute)).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'content';
  return `byo-${folder}-${createHash('sha256').update(absolute).digest('hex').slice(0, 10)}`;
}

function codecProblem(rep: ManifestRepresentation): string | null {
  if (rep.codecs.trim() === '') return 'has no @codecs (the player needs it to create a MSE SourceBuffer)';
  for (const codec of rep.codecs.split(',').map((c) => c.trim())) {
    const family = codec.split('.')[0]!.toLowerCase();
    if (hevcCodecs.includes(family)) return `codec "${codec}" is HEVC, which Chromium here cannot play (no HEVC decoder ships with Debian's Chromium); encode H.264 (avc1), VP9 (vp09) or AV1 (av01)`;
    if (!(playableCodecs as readonly string[]).includes(family)) return `codec "${codec}" is not one Chromium's MSE plays here (supported: ${playableCodecs.join(', ')})`;
  }
  if (!playableMimeTypes.includes(rep.mimeType)) return `mimeType "${rep.mimeType}" is not one of ${playableMimeTypes.join(', ')}`;
  return null;
}

/** Reads the sidx box at `range` of `file`: its subsegments' total size and duration (ISO/IEC 14496-12 §8.16.3). */
function readSidx(file: string, range: { first: number; last: number }): { mediaEnd: number; durationS: number; count: number } {
  const length = range.last - range.first + 1;
  const bytes = Buffer.alloc(length);
  const fd = openSync(file, 'r');
  try {
    if (readSync(fd, bytes, 0, length, range.first) !== length) throw new ManifestError(`${file}: indexRange ${range.first}-${range.last} is past the end of the file`);
  } finally {
    closeSync(fd);
  }
  if (length < 32 || bytes.toString('latin1', 4, 8) !== 'sidx') throw new ManifestError(`${file}: indexRange ${range.first}-${range.last} does not hold a sidx box`);
  const version = bytes[8]!;
  const timescale = bytes.readUInt32BE(16);
  let at = 20;
  const firstOffset = version === 0 ? bytes.readUInt32BE(at + 4) : Number(bytes.readBigUInt64BE(at + 8));
  at += version === 0 ? 8 : 16;
  const count = bytes.readUInt16BE(at + 2);
  at += 4;
  if (timescale === 0 || at + count * 12 > length) throw new ManifestError(`${file}: the sidx box is truncated or has timescale 0`);
  let size = 0;
  let duration = 0;
  for (let i = 0; i < count; i++, at += 12) {
    size += bytes.readUInt32BE(at) & 0x7fffffff;
    duration += bytes.readUInt32BE(at + 4);
  }
  return { mediaEnd: range.last + 1 + firstOffset + size, durationS: duration / timescale, count };
}

/** What each missing file was, for a message a user can act on. */
interface Need { ref: FileRef; what: string }

/**
 * Validates a manifest for a run that plays `requiredS` seconds (`why` says where that number comes from).
 * Throws ManifestError, naming the manifest and the problem, for anything a run would trip over.
 */
export function validateByoManifest(mpdPath: string, requiredS: number, why: string): ByoContent {
  const absolute = resolve(mpdPath);
  const fail = (message: string): never => { throw new ManifestError(`${absolute}: ${message}`); };
  let text = '';
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    fail(`cannot read the manifest (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let manifest;
  try {
    manifest = parseManifest(text);
  } catch (error) {
    if (error instanceof ManifestError) fail(error.message);
    throw error;
  }
  const folder = dirname(absolute);
  const needs: Need[] = [];
  const representations: ByoRepresentation[] = [];
  for (const rep of manifest!.representations) {
    const where = `Representation id="${rep.id}"`;
    if (rep.contentType === 'other') fail(`${where} is neither video nor audio (mimeType "${rep.mimeType}"); text and other tracks are not supported`);
    const problem = codecProblem(rep);
    if (problem) fail(`${where} ${problem}`);
    if (rep.initialization) needs.push({ ref: rep.initialization, what: `${where} initialization` });
    let coveredS: number;
    let segmentCount: number;
    if (rep.segments) {
      for (const s of rep.segments) needs.push({ ref: s, what: `${where} segment ${s.number} (${s.startS.toFixed(1)}-${(s.startS + s.durationS).toFixed(1)} s)` });
      const last = rep.segments[rep.segments.length - 1];
      coveredS = last ? last.startS + last.durationS : 0;
      segmentCount = rep.segments.length;
    } else {
      const { file, indexRange } = rep.indexed!;
      const path = join(folder, file.path);
      if (!existsSync(path)) fail(`${where}: media file ${file.path} is missing`);
      const sidx = readSidx(path, indexRange);
      if (statSync(path).size < sidx.mediaEnd) fail(`${where}: ${file.path} is ${statSync(path).size} bytes but its index describes ${sidx.mediaEnd} (truncated file)`);
      needs.push({ ref: file, what: `${where} media file` });
      coveredS = sidx.durationS;
      segmentCount = sidx.count;
    }
    representations.push({ id: rep.id, contentType: rep.contentType as 'video' | 'audio', codecs: rep.codecs, bandwidthBps: rep.bandwidthBps, segmentCount, coveredS });
  }
  if (!representations.some((r) => r.contentType === 'video')) fail('no video Representation');
  const missing: string[] = [];
  const files = new Set<string>();
  for (const { ref, what } of needs) {
    files.add(ref.path);
    const path = join(folder, ref.path);
    let size = -1;
    try {
      const st = statSync(path);
      if (st.isFile()) size = st.size;
    } catch {
      // missing: reported below with the others
    }
    if (size < 0) missing.push(`${ref.path} (${what})`);
    else if (ref.range && ref.range.last >= size) missing.push(`${ref.path} bytes ${ref.range.first}-${ref.range.last} (${what}; the file has ${size})`);
  }
  if (missing.length > 0) {
    fail(`${missing.length} of ${needs.length} files the manifest names are missing: ${missing.slice(0, 5).join('; ')}${missing.length > 5 ? '; …' : ''}`);
  }
  const contentS = Math.min(manifest!.durationS, ...representations.map((r) => r.coveredS));
  if (contentS + 1e-6 < requiredS) {
    fail(`the content is ${contentS.toFixed(1)} s long, shorter than the ${requiredS.toFixed(1)} s the run needs (${why})`);
  }
  return { name: byoSetName(absolute), mpdPath: absolute, durationS: contentS, representations, files: [...files].sort() };
}

/**
 * Makes validated content servable under `mediaRoot/<name>/`: the manifest as manifest.mpd and every file it names
 * at its relative path, as hard links (copies across file systems). Rebuilt on every call, so the folder always
 * matches the user's current files; built beside the final folder and renamed into place.
 */
export function linkByoContent(content: ByoContent, mediaRoot: string): { dir: string; linked: number; copied: number; copiedBytes: number } {
  const dir = join(mediaRoot, content.name);
  const work = join(mediaRoot, `.${content.name}.partial-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const folder = dirname(content.mpdPath);
  let linked = 0;
  let copied = 0;
  let copiedBytes = 0;
  const place = (source: string, target: string): void => {
    mkdirSync(dirname(target), { recursive: true });
    try {
      linkSync(source, target);
      linked++;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'EPERM') throw error;
      copyFileSync(source, target);
      copied++;
      copiedBytes += statSync(source).size;
    }
  };
  try {
    place(content.mpdPath, join(work, 'manifest.mpd'));
    for (const file of content.files) if (file !== 'manifest.mpd') place(join(folder, file), join(work, file));
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
  return { dir, linked, copied, copiedBytes };
}
