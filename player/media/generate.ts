// `npm run media`: encodes the sample DASH content once with ffmpeg into <repo>/.cache/media (outside git).
// Idempotent: a set whose folder holds a complete.json matching its definition is skipped. Each set is written to
// a temporary folder and renamed into place only when ffmpeg succeeded, so an interrupted run never leaves a set
// that looks complete.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { userPath } from '@pcc-stream/protocol/node/user-path';
import {
  abrLadder, allSets, audioKbps, fixedSets, framesPerSecond, mediaDurationS, segmentDurationS,
  type MediaSet,
} from './ladder.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const defaultMediaRoot = join(repoRoot, '.cache', 'media');
const generatorVersion = 1;
const labelFont = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

const log = (event: string, detail: Record<string, unknown> = {}): void => {
  process.stderr.write(`${JSON.stringify({ t: new Date().toISOString(), component: 'media', event, ...detail })}\n`);
};

function completionRecord(set: MediaSet, durationS: number): string {
  return JSON.stringify({ generatorVersion, set, segmentDurationS, mediaDurationS: durationS, framesPerSecond, audioKbps });
}

export function isSetComplete(mediaRoot: string, set: MediaSet, durationS = mediaDurationS): boolean {
  const marker = join(mediaRoot, set.name, 'complete.json');
  if (!existsSync(marker) || !existsSync(join(mediaRoot, set.name, 'manifest.mpd'))) return false;
  return readFileSync(marker, 'utf8') === completionRecord(set, durationS);
}

function videoFilter(set: MediaSet): string {
  const n = set.renditions.length;
  const outputs = set.renditions.map((_, i) => `[s${i}]`).join('');
  const parts = [`[0:v]split=${n}${outputs}`];
  set.renditions.forEach((r, i) => {
    // The burnt-in label makes the rendition in use visible in screenshots; skipped when the font is absent.
    const label = existsSync(labelFont)
      ? `,drawtext=fontfile=${labelFont}:text='${r.videoKbps} kbit/s  %{pts\\:hms}':x=8:y=8:fontsize=${Math.round(r.height / 12)}:fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=4`
      : '';
    parts.push(`[s${i}]scale=${r.width}:${r.height},setsar=1${label}[v${i}]`);
  });
  return parts.join(';');
}

function ffmpegArgs(set: MediaSet, durationS: number): string[] {
  const gopFrames = framesPerSecond * segmentDurationS; // closed GOP == segment, so every segment starts with an IDR
  const args = [
    '-hide_banner', '-loglevel', 'error', '-nostats', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=${framesPerSecond}:duration=${durationS}`,
    '-f', 'lavfi', '-i', `sine=frequency=440:beep_factor=4:sample_rate=48000:duration=${durationS}`,
    '-filter_complex', videoFilter(set),
  ];
  set.renditions.forEach((r, i) => {
    const kbps = `${r.videoKbps}k`;
    // minrate = maxrate = bitrate with nal-hrd=cbr: x264 pads with filler so every segment has the nominal size.
    args.push('-map', `[v${i}]`, `-b:v:${i}`, kbps, `-minrate:v:${i}`, kbps, `-maxrate:v:${i}`, kbps,
      `-bufsize:v:${i}`, `${Math.round(r.videoKbps / 2)}k`);
  });
  args.push(
    '-map', '1:a',
    '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-pix_fmt', 'yuv420p',
    '-g', String(gopFrames), '-keyint_min', String(gopFrames), '-sc_threshold', '0',
    '-x264-params', 'nal-hrd=cbr:force-cfr=1:scenecut=0:open_gop=0',
    '-c:a', 'aac', '-b:a', `${audioKbps}k`, '-ac', '2',
    '-f', 'dash', '-seg_duration', String(segmentDurationS), '-use_template', '1', '-use_timeline', '0',
    '-dash_segment_type', 'mp4', '-adaptation_sets', 'id=0,streams=v id=1,streams=a',
    '-init_seg_name', 'init-$RepresentationID$.m4s', '-media_seg_name', 'seg-$RepresentationID$-$Number%05d$.m4s',
    'manifest.mpd',
  );
  return args;
}

function runFfmpeg(args: string[], cwd: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('nice', ['-n', '10', 'ffmpeg', ...args], { cwd, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', (err) => reject(new Error(`cannot run ffmpeg (${err.message}); install it: apt-get install -y ffmpeg`)));
    child.on('close', (code) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`ffmpeg exited with ${code}: ${stderr.trim().slice(-2000)}`));
    });
  });
}

/** `durationS` shortens the content (tests); the default is the project's 60 s. */
export async function generateSet(mediaRoot: string, set: MediaSet, force = false, durationS = mediaDurationS): Promise<'skipped' | 'generated'> {
  if (!force && isSetComplete(mediaRoot, set, durationS)) return 'skipped';
  const finalDir = join(mediaRoot, set.name);
  const workDir = join(mediaRoot, `.${set.name}.partial-${process.pid}`);
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const started = Date.now();
  log('encode-start', { set: set.name, renditionsKbps: set.renditions.map((r) => r.videoKbps) });
  try {
    await runFfmpeg(ffmpegArgs(set, durationS), workDir);
    writeFileSync(join(workDir, 'complete.json'), completionRecord(set, durationS));
    rmSync(finalDir, { recursive: true, force: true });
    renameSync(workDir, finalDir);
  } catch (err) {
    rmSync(workDir, { recursive: true, force: true });
    throw err;
  }
  log('encode-done', { set: set.name, seconds: (Date.now() - started) / 1000, dir: finalDir });
  return 'generated';
}

function usage(): string {
  return [
    'usage: npm run media -- [--sets abr|fixed|all|NAME[,NAME...]] [--out DIR] [--force]',
    `  abr    the ABR ladder (${abrLadder.renditions.map((r) => r.videoKbps).join(', ')} kbit/s) -> DIR/abr/manifest.mpd`,
    `  fixed  single-rendition streams -> DIR/${fixedSets.map((s) => s.name).join(', DIR/')}/manifest.mpd`,
    `  default: all (ABR first); DIR defaults to ${defaultMediaRoot}`,
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

async function main(argv: string[]): Promise<void> {
  let spec = 'all';
  let mediaRoot = defaultMediaRoot;
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') { console.log(usage()); return; }
    else if (arg === '--force') force = true;
    else if (arg === '--sets' && argv[i + 1] !== undefined) spec = argv[++i] as string;
    else if (arg === '--out' && argv[i + 1] !== undefined) mediaRoot = userPath(argv[++i] as string); // where the user ran the command
    else throw new Error(`unknown argument "${arg}"\n${usage()}`);
  }
  const sets = selectSets(spec);
  mkdirSync(mediaRoot, { recursive: true });
  for (const [index, set] of sets.entries()) {
    const outcome = await generateSet(mediaRoot, set, force);
    log('set', { set: set.name, outcome, progress: `${index + 1}/${sets.length}` });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    log('error', { message: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  });
}
