// `npm run media`: encodes DASH content with ffmpeg into <repo>/.cache/media (outside git), either the sample sets
// (`--sets`) or one set named by its parameters (`--bitrate-mbps`, `--ladder`; the bench asks for the same sets).
// Idempotent: a set whose folder holds a complete.json matching its parameters is skipped. Each set is written to
// a temporary folder and renamed into place only when ffmpeg succeeded, so an interrupted run never leaves a set
// that looks complete.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { userPath } from '@pcc-stream/protocol/node/user-path';
import { runFfmpeg } from './ffmpeg-run.ts';
import {
  abrLadder, allSets, audioKbps, fixedSets, ladderSet, mediaDurationS, segmentDurationS, setFramesPerSecond, singleRateSet,
  type MediaSet,
} from './ladder.ts';
import { dashBandwidthBps, segmentSpread, type SegmentSpread } from './segment-stats.ts';
import { vbrSourceGraph } from './vbr-source.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const defaultMediaRoot = join(repoRoot, '.cache', 'media');
/** Bumped whenever the same parameters would encode differently, so cached sets are made again. */
const generatorVersion = 3;
const labelFont = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
/** VBR peak cap (x264 maxrate) as a multiple of the mean: streaming services cap capped-CRF/VBR encodes at 2-3x. */
export const vbrPeakRatio = 2.5;
/** VBV buffer at the cap, in seconds of maxrate: lets one complex second exceed the cap, not a whole scene. */
const vbrBufferS = 1;
/** How often progress lines are logged while ffmpeg runs. */
const progressIntervalMs = 2000;
/** Share of a two-pass encode's time spent in the first (fast, analysis-only) pass, for the ETA. */
const firstPassShare = 0.4;

const log = (event: string, detail: Record<string, unknown> = {}): void => {
  process.stderr.write(`${JSON.stringify({ t: new Date().toISOString(), component: 'media', event, ...detail })}\n`);
};

/** What a set was made from: a cached set is reused only when these match exactly. */
interface CompletionParams {
  generatorVersion: number;
  set: MediaSet;
  framesPerSecond: number;
  audioKbps: number;
  vbrPeakRatio?: number;
}

export interface RenditionReport {
  /** DASH Representation id (ffmpeg numbers video renditions from 0). */
  id: number;
  videoKbps: number;
  width: number;
  height: number;
  /** @bandwidth in the manifest: nominal for CBR; for VBR the smallest DASH-true value (segment-stats.ts), at
   *  least the measured mean. */
  bandwidthBps: number;
  segments: SegmentSpread;
}

export interface CompletionRecord {
  params: CompletionParams;
  measured: { encodeSeconds: number; renditions: RenditionReport[] };
}

function completionParams(set: MediaSet): CompletionParams {
  return { generatorVersion, set, framesPerSecond: setFramesPerSecond(set), audioKbps, ...(set.vbr ? { vbrPeakRatio } : {}) };
}

/** The set's complete.json when it matches the set's parameters, else null. */
export function readCompletion(mediaRoot: string, set: MediaSet): CompletionRecord | null {
  const marker = join(mediaRoot, set.name, 'complete.json');
  if (!existsSync(marker) || !existsSync(join(mediaRoot, set.name, 'manifest.mpd'))) return null;
  try {
    const record = JSON.parse(readFileSync(marker, 'utf8')) as CompletionRecord;
    return JSON.stringify(record.params) === JSON.stringify(completionParams(set)) ? record : null;
  } catch {
    return null; // a torn or foreign marker: make the set again
  }
}

export function isSetComplete(mediaRoot: string, set: MediaSet): boolean {
  return readCompletion(mediaRoot, set) !== null;
}

function videoFilter(set: MediaSet): string {
  const n = set.renditions.length;
  const outputs = set.renditions.map((_, i) => `[s${i}]`).join('');
  const parts = [`[0:v]split=${n}${outputs}`];
  set.renditions.forEach((r, i) => {
    // The burnt-in label makes the rendition in use visible in screenshots; skipped when the font is absent.
    const text = `${set.vbr ? 'VBR mean ' : ''}${r.videoKbps} kbit/s  %{pts\\:hms}`;
    const label = existsSync(labelFont)
      ? `,drawtext=fontfile=${labelFont}:text='${text}':x=8:y=8:fontsize=${Math.round(r.height / 12)}:fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=4`
      : '';
    parts.push(`[s${i}]scale=${r.width}:${r.height},setsar=1${label}[v${i}]`);
  });
  return parts.join(';');
}

/** The video source: testsrc2 for CBR (filler makes its complexity irrelevant), scene-changing content for VBR. */
function videoInput(set: MediaSet): string[] {
  const width = Math.max(...set.renditions.map((r) => r.width));
  const height = Math.max(...set.renditions.map((r) => r.height));
  const fps = setFramesPerSecond(set);
  if (set.vbr) return ['-f', 'lavfi', '-i', vbrSourceGraph(width, height, fps, set.durationS)];
  return ['-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=${fps}:duration=${set.durationS}`];
}

function videoEncoding(set: MediaSet): string[] {
  const gopFrames = Math.round(setFramesPerSecond(set) * set.segmentDurationS); // closed GOP == segment: every segment starts with an IDR
  const args: string[] = [];
  set.renditions.forEach((r, i) => {
    args.push('-map', `[v${i}]`, `-b:v:${i}`, `${r.videoKbps}k`);
    if (set.vbr) {
      const capKbps = Math.round(r.videoKbps * vbrPeakRatio);
      args.push(`-maxrate:v:${i}`, `${capKbps}k`, `-bufsize:v:${i}`, `${Math.round(capKbps * vbrBufferS)}k`);
    } else {
      // minrate = maxrate = bitrate with nal-hrd=cbr: x264 pads with filler so every segment has the nominal size.
      args.push(`-minrate:v:${i}`, `${r.videoKbps}k`, `-maxrate:v:${i}`, `${r.videoKbps}k`, `-bufsize:v:${i}`, `${Math.round(r.videoKbps / 2)}k`);
    }
  });
  args.push(
    '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-pix_fmt', 'yuv420p',
    '-g', String(gopFrames), '-keyint_min', String(gopFrames), '-sc_threshold', '0',
    '-x264-params', `${set.vbr ? '' : 'nal-hrd=cbr:'}force-cfr=1:scenecut=0:open_gop=0`,
  );
  return args;
}

const passLog = 'x264-2pass';
const commonArgs = ['-hide_banner', '-loglevel', 'error', '-nostats', '-y'];

/**
 * VBR is a two-pass x264 encode at the nominal mean with a maxrate cap. The second pass spends bits by the first
 * pass's per-frame complexity on the same curve CRF uses (qcomp), so sizes vary as a capped-CRF encode's would,
 * but scaled to land on the nominal mean; a CRF probe would have to predict how the rate answers a CRF change,
 * which for this scene mix missed by 5-10%. The first pass only analyses (x264's fast first pass), so it is cheap.
 */
function encodePasses(set: MediaSet): string[][] {
  const dash = [
    '-map', '1:a', '-c:a', 'aac', '-b:a', `${audioKbps}k`, '-ac', '2',
    '-f', 'dash', '-seg_duration', String(set.segmentDurationS), '-use_template', '1', '-use_timeline', '0',
    '-dash_segment_type', 'mp4', '-adaptation_sets', 'id=0,streams=v id=1,streams=a',
    '-init_seg_name', 'init-$RepresentationID$.m4s', '-media_seg_name', 'seg-$RepresentationID$-$Number%05d$.m4s',
    'manifest.mpd',
  ];
  const audioInput = ['-f', 'lavfi', '-i', `sine=frequency=440:beep_factor=4:sample_rate=48000:duration=${set.durationS}`];
  const inputs = [...commonArgs, ...videoInput(set), ...audioInput, '-filter_complex', videoFilter(set)];
  if (!set.vbr) return [[...inputs, ...videoEncoding(set), ...dash]];
  return [
    [...inputs, ...videoEncoding(set), '-pass', '1', '-passlogfile', passLog, '-an', '-f', 'null', '-'],
    [...inputs, ...videoEncoding(set), '-pass', '2', '-passlogfile', passLog, ...dash],
  ];
}

function segmentSizes(dir: string, representationId: number): number[] {
  const prefix = `seg-${representationId}-`;
  return readdirSync(dir).filter((f) => f.startsWith(prefix) && f.endsWith('.m4s')).sort()
    .map((f) => statSync(join(dir, f)).size);
}

/** The exact mean rate of a rendition, rounded up to whole bit/s (the spread's meanKbps is rounded for display). */
function meanBps(sizes: readonly number[], segmentDurationS: number): number {
  return Math.ceil((sizes.reduce((sum, bytes) => sum + bytes, 0) * 8) / (sizes.length * segmentDurationS));
}

/** Measures every video rendition; for VBR replaces ffmpeg's @bandwidth (the target mean, which a constant-rate
 *  channel of that rate cannot deliver in time through the peaks) with the DASH-true value. */
function measureAndFixManifest(dir: string, set: MediaSet): RenditionReport[] {
  const manifestPath = join(dir, 'manifest.mpd');
  let mpd = readFileSync(manifestPath, 'utf8');
  const minBufferS = Number(/minBufferTime="PT([\d.]+)S"/.exec(mpd)?.[1] ?? set.segmentDurationS);
  const reports = set.renditions.map((r, id) => {
    const sizes = segmentSizes(dir, id);
    const expected = Math.round(set.durationS / set.segmentDurationS);
    if (sizes.length !== expected) throw new Error(`ffmpeg wrote ${sizes.length} segments for rendition ${id} of ${set.name}, expected ${expected}`);
    const spread = segmentSpread(sizes, set.segmentDurationS);
    // Never below the measured mean: with minBufferTime longer than a segment the DASH bound of short content can
    // dip under it, and a rate below the mean would read as a lower bitrate in dash.js and in the bench's tables.
    const bandwidthBps = set.vbr
      ? Math.max(dashBandwidthBps(sizes, set.segmentDurationS, minBufferS), meanBps(sizes, set.segmentDurationS))
      : r.videoKbps * 1000;
    if (set.vbr) {
      const tag = new RegExp(`(<Representation id="${id}"[^>]*? bandwidth=")\\d+(")`);
      if (!tag.test(mpd)) throw new Error(`manifest of ${set.name} has no Representation id="${id}" with a bandwidth`);
      mpd = mpd.replace(tag, `$1${bandwidthBps}$2`);
    }
    return { id, videoKbps: r.videoKbps, width: r.width, height: r.height, bandwidthBps, segments: spread };
  });
  writeFileSync(manifestPath, mpd);
  return reports;
}

function progressLogger(set: MediaSet, passes: number): (pass: number, encodedS: number) => void {
  const started = Date.now();
  let lastLogMs = 0;
  return (pass, encodedS) => {
    const passFraction = Math.min(1, encodedS / set.durationS);
    const fraction = passes === 1 ? passFraction : pass === 0 ? passFraction * firstPassShare : firstPassShare + passFraction * (1 - firstPassShare);
    const now = Date.now();
    if (now - lastLogMs < progressIntervalMs && fraction < 1) return;
    lastLogMs = now;
    const elapsedS = (now - started) / 1000;
    log('encode-progress', {
      set: set.name, pass: `${pass + 1}/${passes}`, percent: Number((fraction * 100).toFixed(1)),
      eta_s: fraction > 0.01 ? Math.round((elapsedS / fraction) * (1 - fraction)) : null,
    });
  };
}

export interface GenerateOutcome {
  outcome: 'skipped' | 'generated';
  record: CompletionRecord;
}

export async function generateSet(mediaRoot: string, set: MediaSet, force = false): Promise<GenerateOutcome> {
  const existing = force ? null : readCompletion(mediaRoot, set);
  if (existing) return { outcome: 'skipped', record: existing };
  const finalDir = join(mediaRoot, set.name);
  const workDir = join(mediaRoot, `.${set.name}.partial-${process.pid}`);
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const started = Date.now();
  log('encode-start', { set: set.name, renditionsKbps: set.renditions.map((r) => r.videoKbps), durationS: set.durationS, segmentDurationS: set.segmentDurationS, vbr: set.vbr });
  let record: CompletionRecord;
  try {
    const passes = encodePasses(set);
    const progress = progressLogger(set, passes.length);
    for (const [pass, args] of passes.entries()) await runFfmpeg(args, workDir, (encodedS) => progress(pass, encodedS));
    for (const f of readdirSync(workDir)) if (f.startsWith(passLog)) rmSync(join(workDir, f));
    const renditions = measureAndFixManifest(workDir, set);
    record = { params: completionParams(set), measured: { encodeSeconds: (Date.now() - started) / 1000, renditions } };
    writeFileSync(join(workDir, 'complete.json'), `${JSON.stringify(record, null, 2)}\n`);
    rmSync(finalDir, { recursive: true, force: true });
    renameSync(workDir, finalDir);
  } catch (err) {
    rmSync(workDir, { recursive: true, force: true });
    throw err;
  }
  log('encode-done', {
    set: set.name, seconds: record.measured.encodeSeconds, dir: finalDir,
    renditions: record.measured.renditions.map((r) => ({ videoKbps: r.videoKbps, bandwidthBps: r.bandwidthBps, ...r.segments })),
  });
  return { outcome: 'generated', record };
}

/** One line per rendition: the measured mean and the spread of segment sizes (what `npm run -s media` prints). */
export function describeSet(name: string, record: CompletionRecord): string[] {
  return record.measured.renditions.map((r) => {
    const s = r.segments;
    return `${name} rendition ${r.id}: ${r.width}x${r.height}, nominal ${r.videoKbps} kbit/s, measured ${s.meanKbps} kbit/s, `
      + `@bandwidth ${Math.round(r.bandwidthBps / 1000)} kbit/s; ${s.count} segments, bytes min ${s.minBytes} p50 ${s.p50Bytes} `
      + `p95 ${s.p95Bytes} max ${s.maxBytes}, CV ${s.cv}`;
  });
}

function usage(): string {
  return [
    'usage: npm run -s media -- [--sets abr|fixed|all|NAME[,NAME...]] [--out DIR] [--force]',
    '       npm run -s media -- --bitrate-mbps B [--duration-s S] [--segment-s S] [--vbr] [--out DIR] [--force]',
    '       npm run -s media -- --ladder [--duration-s S] [--segment-s S] [--vbr] [--out DIR] [--force]',
    `  abr    the ABR ladder (${abrLadder.renditions.map((r) => r.videoKbps).join(', ')} kbit/s) -> DIR/abr/manifest.mpd`,
    `  fixed  single-rendition streams -> DIR/${fixedSets.map((s) => s.name).join(', DIR/')}/manifest.mpd`,
    '  --bitrate-mbps B   one rendition at B Mbit/s -> DIR/cbr-<kbps>k-<S>s-<seg>s (or vbr-… with --vbr)',
    '  --ladder           the ABR ladder\'s rungs -> DIR/abr-cbr-<S>s-<seg>s (or abr-vbr-…)',
    `  --duration-s S     content length, a whole number of segments (default ${mediaDurationS})`,
    `  --segment-s S      segment duration (default ${segmentDurationS})`,
    `  --vbr              capped two-pass VBR of scene-changing content (peaks up to ${vbrPeakRatio}x the mean); prints the segment-size spread`,
    `  default: --sets all (ABR first); DIR defaults to ${defaultMediaRoot} (a relative DIR is taken from where you run the command)`,
  ].join('\n');
}

export function selectSets(spec: string): MediaSet[] {
  if (spec === 'all') return allSets;
  if (spec === 'abr') return [abrLadder];
  if (spec === 'fixed') return fixedSets;
  const names = spec.split(',').map((s) => s.trim()).filter(Boolean);
  return names.map((name) => {
    const set = allSets.find((s) => s.name === name);
    if (!set) throw new Error(`unknown media set "${name}"; known: ${allSets.map((s) => s.name).join(', ')}`);
    return set;
  });
}

function positiveNumber(raw: string | undefined, flag: string): number {
  const value = Number(raw);
  if (raw === undefined || raw.trim() === '' || !Number.isFinite(value) || value <= 0) throw new Error(`${flag} needs a positive number, got ${raw === undefined ? 'nothing' : `"${raw}"`}\n${usage()}`);
  return value;
}

/** The sets a command line asks for. */
export function setsFromArgs(argv: string[]): { sets: MediaSet[]; mediaRoot: string; force: boolean } | 'help' {
  let spec: string | undefined;
  let mediaRoot = defaultMediaRoot;
  let force = false;
  let bitrateMbps: number | undefined;
  let ladder = false;
  let durationS = mediaDurationS;
  let segmentS = segmentDurationS;
  let vbr = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return 'help';
    else if (arg === '--force') force = true;
    else if (arg === '--vbr') vbr = true;
    else if (arg === '--ladder') ladder = true;
    else if (arg === '--sets' && argv[i + 1] !== undefined) spec = argv[++i] as string;
    else if (arg === '--out' && argv[i + 1] !== undefined) mediaRoot = userPath(argv[++i] as string); // where the user ran the command
    else if (arg === '--bitrate-mbps') bitrateMbps = positiveNumber(argv[++i], arg);
    else if (arg === '--duration-s') durationS = positiveNumber(argv[++i], arg);
    else if (arg === '--segment-s') segmentS = positiveNumber(argv[++i], arg);
    else throw new Error(`unknown argument "${arg}"\n${usage()}`);
  }
  const byParameters = bitrateMbps !== undefined || ladder;
  if (byParameters && spec !== undefined) throw new Error(`give either --sets or --bitrate-mbps/--ladder, not both\n${usage()}`);
  if (bitrateMbps !== undefined && ladder) throw new Error(`give either --bitrate-mbps or --ladder, not both\n${usage()}`);
  if (!byParameters && (vbr || argv.includes('--duration-s') || argv.includes('--segment-s'))) {
    throw new Error(`--duration-s, --segment-s and --vbr shape a set named by --bitrate-mbps or --ladder\n${usage()}`);
  }
  const shape = { durationS, segmentDurationS: segmentS, vbr };
  const sets = bitrateMbps !== undefined ? [singleRateSet(Math.round(bitrateMbps * 1000), shape)]
    : ladder ? [ladderSet(shape)] : selectSets(spec ?? 'all');
  return { sets, mediaRoot, force };
}

async function main(argv: string[]): Promise<void> {
  const parsed = setsFromArgs(argv);
  if (parsed === 'help') { console.log(usage()); return; }
  const { sets, mediaRoot, force } = parsed;
  mkdirSync(mediaRoot, { recursive: true });
  for (const [index, set] of sets.entries()) {
    const { outcome, record } = await generateSet(mediaRoot, set, force);
    log('set', { set: set.name, outcome, progress: `${index + 1}/${sets.length}`, dir: join(mediaRoot, set.name) });
    if (set.vbr || !allSets.includes(set)) for (const line of describeSet(set.name, record)) console.log(line);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    log('error', { message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  });
}
