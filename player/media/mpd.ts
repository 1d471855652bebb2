// Reads a static DASH manifest into what a player will fetch: per representation its codec, initialization file
// and every media segment (file, optional byte range, start and duration), from SegmentTemplate (with @duration or
// SegmentTimeline, $Number$/$Time$), SegmentList or SegmentBase, with BaseURL and attribute inheritance from
// Period and AdaptationSet — what ffmpeg's dash muxer, Shaka Packager and MP4Box write for on-demand content.
import { parseXml, XmlError, type XmlElement } from './xml.ts';

export class ManifestError extends Error {
  override readonly name = 'ManifestError';
}

export interface FileRef {
  /** Path relative to the manifest's folder, '/'-separated, never leaving it. */
  path: string;
  /** Inclusive byte range within the file, when the manifest names one. */
  range?: { first: number; last: number };
}

export interface SegmentRef extends FileRef {
  number: number;
  startS: number;
  durationS: number;
}

export interface ManifestRepresentation {
  id: string;
  contentType: 'video' | 'audio' | 'other';
  mimeType: string;
  codecs: string;
  bandwidthBps: number;
  initialization: FileRef | null;
  /** null for SegmentBase: the segments are indexed inside the file (sidx), see `indexed`. */
  segments: SegmentRef[] | null;
  /** SegmentBase: the one media file and its index range. */
  indexed: { file: FileRef; indexRange: { first: number; last: number } } | null;
}

export interface Manifest {
  /** mediaPresentationDuration (or the Period's duration), seconds. */
  durationS: number;
  minBufferTimeS: number | null;
  representations: ManifestRepresentation[];
}

/** ISO 8601 durations as DASH uses them: PT1M0.0S, P0DT0H2M, PT60S (years and months are not fixed lengths). */
export function parseIsoDurationS(value: string): number {
  const m = /^P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(value.trim());
  if (!m || value.trim() === 'P' || value.trim().endsWith('T')) throw new ManifestError(`"${value}" is not an ISO 8601 duration`);
  if (Number(m[1] ?? 0) !== 0 || Number(m[2] ?? 0) !== 0) throw new ManifestError(`duration "${value}" counts years or months, which have no fixed length`);
  return Number(m[3] ?? 0) * 86400 + Number(m[4] ?? 0) * 3600 + Number(m[5] ?? 0) * 60 + Number(m[6] ?? 0);
}

function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c) => c.name === name);
}

function children(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((c) => c.name === name);
}

function parseRange(value: string, where: string): { first: number; last: number } {
  const m = /^(\d+)-(\d+)$/.exec(value.trim());
  if (!m || Number(m[2]) < Number(m[1])) throw new ManifestError(`${where}: byte range "${value}" is not "first-last"`);
  return { first: Number(m[1]), last: Number(m[2]) };
}

/** Joins a relative URL onto a relative base folder; refuses absolute URLs and paths leaving the manifest's folder. */
function joinUrl(base: string, relative: string, where: string): string {
  const url = relative.trim();
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url) || url.startsWith('/')) {
    throw new ManifestError(`${where}: "${url}" is an absolute URL; only content in files beside the manifest can be served (use relative URLs)`);
  }
  const parts = (base + url).split('?')[0]!.split('#')[0]!.split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) throw new ManifestError(`${where}: "${url}" points outside the manifest's folder, which the origin will not serve`);
      out.pop();
      continue;
    }
    out.push(decodeURIComponent(part));
  }
  return out.join('/');
}

function baseUrlOf(element: XmlElement, inherited: string, where: string): string {
  const base = child(element, 'BaseURL');
  if (!base || base.text.trim() === '') return inherited;
  const joined = joinUrl(inherited, base.text, `${where} BaseURL`);
  return base.text.trim().endsWith('/') ? (joined === '' ? '' : `${joined}/`) : joined.replace(/[^/]*$/, '');
}

/** $RepresentationID$, $Number$, $Bandwidth$, $Time$ with optional %0Nd, and $$ (ISO/IEC 23009-1 §5.3.9.4.4). */
function fillTemplate(template: string, values: { RepresentationID: string; Number?: number; Bandwidth: number; Time?: number }, where: string): string {
  return template.replace(/\$([A-Za-z]*)(%0(\d+)d)?\$/g, (_whole, id: string, format: string | undefined, width: string | undefined) => {
    if (id === '') return '$';
    if (id === 'RepresentationID') {
      if (format) throw new ManifestError(`${where}: $RepresentationID$ takes no format`);
      return values.RepresentationID;
    }
    if (id !== 'Number' && id !== 'Bandwidth' && id !== 'Time') throw new ManifestError(`${where}: template identifier $${id}$ is not supported`);
    const value = values[id];
    if (value === undefined) throw new ManifestError(`${where}: $${id}$ cannot be used here`);
    return String(value).padStart(width ? Number(width) : 0, '0');
  });
}

function number(value: string | undefined, where: string, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) throw new ManifestError(`${where} is missing`);
    return fallback;
  }
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new ManifestError(`${where}="${value}" is not a non-negative number`);
  return n;
}

/** Attributes of the same-named element on Period, AdaptationSet and Representation, the nearest winning. */
function inherited(levels: XmlElement[], name: string): { attributes: Record<string, string>; timeline: XmlElement | undefined; elements: XmlElement[] } | null {
  const found = levels.map((l) => child(l, name)).filter((e): e is XmlElement => e !== undefined);
  if (found.length === 0) return null;
  const attributes: Record<string, string> = {};
  let timeline: XmlElement | undefined;
  for (const e of found) {
    Object.assign(attributes, e.attributes);
    timeline = child(e, 'SegmentTimeline') ?? timeline;
  }
  return { attributes, timeline, elements: found };
}

/** Segment start times and durations (in timescale units) from a SegmentTimeline; @r=-1 repeats to `endUnits`. */
function timelineEntries(timeline: XmlElement, endUnits: number, where: string): Array<{ t: number; d: number }> {
  const out: Array<{ t: number; d: number }> = [];
  const entries = children(timeline, 'S');
  let t = 0;
  for (const [i, s] of entries.entries()) {
    if (s.attributes.t !== undefined) t = number(s.attributes.t, `${where} S[${i}]@t`);
    const d = number(s.attributes.d, `${where} S[${i}]@d`);
    if (d === 0) throw new ManifestError(`${where} S[${i}]@d is 0`);
    const r = s.attributes.r === undefined ? 0 : Number(s.attributes.r);
    if (!Number.isInteger(r) || r < -1) throw new ManifestError(`${where} S[${i}]@r="${s.attributes.r}" is not an integer >= -1`);
    const nextT = entries[i + 1]?.attributes.t;
    const until = r === -1 ? (nextT !== undefined ? Number(nextT) : endUnits) : Number.POSITIVE_INFINITY;
    for (let k = 0; r === -1 ? t < until - 1e-9 : k <= r; k++) {
      out.push({ t, d });
      t += d;
      if (out.length > 1_000_000) throw new ManifestError(`${where}: more than a million segments`);
    }
  }
  return out;
}

/** `baseUrl` is the folder segment URLs resolve against; `fileUrl` the file a Representation's BaseURL names, if any
 *  (SegmentBase, or SegmentURLs with only byte ranges). */
function representationOf(period: XmlElement, set: XmlElement, rep: XmlElement, presentationS: number, baseUrl: string, fileUrl: string | null): ManifestRepresentation {
  const id = rep.attributes.id;
  const where = `Representation id="${id ?? '?'}"`;
  if (id === undefined || id === '') throw new ManifestError(`a Representation has no id`);
  const mimeType = rep.attributes.mimeType ?? set.attributes.mimeType ?? '';
  const codecs = rep.attributes.codecs ?? set.attributes.codecs ?? '';
  const declaredType = set.attributes.contentType ?? mimeType.split('/')[0] ?? '';
  const contentType = declaredType === 'video' || declaredType === 'audio' ? declaredType : 'other';
  const bandwidthBps = number(rep.attributes.bandwidth, `${where} @bandwidth`);
  const levels = [period, set, rep];
  const values = { RepresentationID: id, Bandwidth: bandwidthBps };
  const template = inherited(levels, 'SegmentTemplate');
  const list = inherited(levels, 'SegmentList');
  const base = inherited(levels, 'SegmentBase');

  if (template) {
    const a = template.attributes;
    const timescale = number(a.timescale, `${where} SegmentTemplate@timescale`, 1);
    const startNumber = number(a.startNumber, `${where} SegmentTemplate@startNumber`, 1);
    const offset = number(a.presentationTimeOffset, `${where} SegmentTemplate@presentationTimeOffset`, 0);
    if (a.media === undefined) throw new ManifestError(`${where}: SegmentTemplate has no @media`);
    const initialization = a.initialization === undefined ? null : { path: joinUrl(baseUrl, fillTemplate(a.initialization, values, where), where) };
    let timing: Array<{ t: number; d: number }>;
    if (template.timeline) {
      timing = timelineEntries(template.timeline, offset + presentationS * timescale, `${where} SegmentTimeline`);
    } else {
      const d = number(a.duration, `${where} SegmentTemplate@duration (or a SegmentTimeline)`);
      if (d === 0) throw new ManifestError(`${where}: SegmentTemplate@duration is 0`);
      const count = Math.ceil((presentationS * timescale) / d - 1e-6);
      timing = Array.from({ length: count }, (_, k) => ({ t: offset + k * d, d }));
    }
    const segments = timing.map(({ t, d }, k) => {
      const num = startNumber + k;
      return {
        path: joinUrl(baseUrl, fillTemplate(a.media!, { ...values, Number: num, Time: t }, where), where),
        number: num, startS: (t - offset) / timescale, durationS: d / timescale,
      };
    });
    return { id, contentType, mimeType, codecs, bandwidthBps, initialization, segments, indexed: null };
  }
  if (list) {
    const a = list.attributes;
    const timescale = number(a.timescale, `${where} SegmentList@timescale`, 1);
    const urls = list.elements.flatMap((e) => children(e, 'SegmentURL'));
    if (urls.length === 0) throw new ManifestError(`${where}: SegmentList has no SegmentURL`);
    const timing = list.timeline
      ? timelineEntries(list.timeline, presentationS * timescale, `${where} SegmentTimeline`)
      : urls.map((_, k) => ({ t: k * number(a.duration, `${where} SegmentList@duration (or a SegmentTimeline)`), d: number(a.duration, `${where} SegmentList@duration`) }));
    if (timing.length < urls.length) throw new ManifestError(`${where}: SegmentTimeline has ${timing.length} entries for ${urls.length} SegmentURLs`);
    const initElement = list.elements.map((e) => child(e, 'Initialization')).find((e) => e !== undefined);
    const initialization = initElement ? fileRef(initElement.attributes.sourceURL, initElement.attributes.range, baseUrl, fileUrl, `${where} Initialization`) : null;
    const segments = urls.map((u, k) => ({
      ...fileRef(u.attributes.media, u.attributes.mediaRange, baseUrl, fileUrl, `${where} SegmentURL[${k}]`),
      number: k + 1, startS: timing[k]!.t / timescale, durationS: timing[k]!.d / timescale,
    }));
    return { id, contentType, mimeType, codecs, bandwidthBps, initialization, segments, indexed: null };
  }
  if (base) {
    const indexRange = base.attributes.indexRange;
    if (indexRange === undefined) throw new ManifestError(`${where}: SegmentBase has no @indexRange (the sidx box the player reads)`);
    const initElement = base.elements.map((e) => child(e, 'Initialization')).find((e) => e !== undefined);
    if (fileUrl === null) throw new ManifestError(`${where}: SegmentBase without a BaseURL naming the media file`);
    const file = { path: fileUrl };
    const initialization = initElement?.attributes.range ? { ...file, range: parseRange(initElement.attributes.range, `${where} Initialization@range`) } : null;
    return { id, contentType, mimeType, codecs, bandwidthBps, initialization, segments: null, indexed: { file, indexRange: parseRange(indexRange, `${where} SegmentBase@indexRange`) } };
  }
  throw new ManifestError(`${where}: no SegmentTemplate, SegmentList or SegmentBase`);
}

function fileRef(url: string | undefined, range: string | undefined, baseUrl: string, fileUrl: string | null, where: string): FileRef {
  // Without @media / @sourceURL the reference is to the file the BaseURL names (one file, byte ranges).
  const path = url === undefined ? fileUrl : joinUrl(baseUrl, url, where);
  if (path === null || path === '') throw new ManifestError(`${where}: names no file (no URL and no BaseURL naming one)`);
  return range === undefined ? { path } : { path, range: parseRange(range, `${where} range`) };
}

/** Parses manifest text; every problem is a ManifestError naming what is wrong. */
export function parseManifest(text: string): Manifest {
  let mpd: XmlElement;
  try {
    mpd = parseXml(text);
  } catch (error) {
    if (error instanceof XmlError) throw new ManifestError(`not well-formed XML (${error.message})`);
    throw error;
  }
  if (mpd.name !== 'MPD') throw new ManifestError(`the root element is <${mpd.name}>, not <MPD>`);
  if ((mpd.attributes.type ?? 'static') !== 'static') throw new ManifestError(`type="${mpd.attributes.type}": live (dynamic) manifests are not supported, only static (on-demand) ones`);
  const periods = children(mpd, 'Period');
  if (periods.length !== 1) throw new ManifestError(`${periods.length} Periods: only single-period manifests are supported`);
  const period = periods[0]!;
  const durationText = period.attributes.duration ?? mpd.attributes.mediaPresentationDuration;
  if (durationText === undefined) throw new ManifestError('no mediaPresentationDuration (nor Period@duration): the content length is unknown');
  const durationS = parseIsoDurationS(durationText);
  const minBufferTimeS = mpd.attributes.minBufferTime === undefined ? null : parseIsoDurationS(mpd.attributes.minBufferTime);
  const periodBase = baseUrlOf(period, baseUrlOf(mpd, '', 'MPD'), 'Period');
  const representations: ManifestRepresentation[] = [];
  for (const set of children(period, 'AdaptationSet')) {
    const setBase = baseUrlOf(set, periodBase, 'AdaptationSet');
    for (const rep of children(set, 'Representation')) {
      const where = `Representation ${rep.attributes.id ?? ''} BaseURL`;
      const repBase = child(rep, 'BaseURL')?.text.trim() ?? '';
      const fileUrl = repBase !== '' && !repBase.endsWith('/') ? joinUrl(setBase, repBase, where) : null;
      representations.push(representationOf(period, set, rep, durationS, baseUrlOf(rep, setBase, where), fileUrl));
    }
  }
  if (representations.length === 0) throw new ManifestError('no Representation in the Period');
  return { durationS, minBufferTimeS, representations };
}
