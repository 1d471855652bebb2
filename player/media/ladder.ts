// What `npm run media` produces. Every rung shares one 16:9 aspect ratio (the DASH muxer refuses mixed ones)
// and a low resolution, so decoding stays cheap while CBR filler makes the high bitrates exact.
// A media set is named by its parameters (kind, bitrate, duration, segment duration), so a scenario asking for
// other media gets other files and the cache never serves one set under another's name.

export interface Rendition {
  /** Target video bitrate: exact per segment for CBR (x264 nal-hrd=cbr filler), the mean over the set for VBR. */
  videoKbps: number;
  width: number;
  height: number;
}

export interface MediaSet {
  /** Folder name under the media root; also the player's `content` URL parameter. */
  name: string;
  renditions: Rendition[];
  /** Content length, a whole number of segments. */
  durationS: number;
  segmentDurationS: number;
  /** false: CBR with filler; true: capped two-pass VBR of scene-changing synthetic content (vbr-source.ts). */
  vbr: boolean;
  /** Frames per second; absent: the default `framesPerSecond`. */
  framesPerSecond?: number;
}

export const segmentDurationS = 2;
export const mediaDurationS = 60;
export const framesPerSecond = 30;
export const audioKbps = 96;

/** Rungs of the default ABR ladder, 0.3 to 8 Mbit/s. */
export const ladderRenditions: readonly Rendition[] = [
  { videoKbps: 300, width: 256, height: 144 },
  { videoKbps: 800, width: 384, height: 216 },
  { videoKbps: 2000, width: 512, height: 288 },
  { videoKbps: 4000, width: 640, height: 360 },
  { videoKbps: 8000, width: 640, height: 360 },
];

/** Default ABR ladder (the e2e tests and `npm start` need only this one). */
export const abrLadder: MediaSet = {
  name: 'abr', renditions: [...ladderRenditions], durationS: mediaDurationS, segmentDurationS, vbr: false,
};

/** Single-rendition streams for the buffering-ratio experiments (thesis §5.2 plays fixed bitrates). */
export const fixedBitratesKbps = [4000, 8000, 15000, 30000];

export function fixedSetName(videoKbps: number): string {
  return `fixed-${videoKbps}k`;
}

export const fixedSets: MediaSet[] = fixedBitratesKbps.map((videoKbps) => ({
  name: fixedSetName(videoKbps),
  renditions: [{ videoKbps, width: 640, height: 360 }],
  durationS: mediaDurationS, segmentDurationS, vbr: false,
}));

export const allSets: MediaSet[] = [abrLadder, ...fixedSets];

/** CBR filler pads any picture to the nominal rate, so one cheap resolution serves every CBR bitrate. */
const cbrResolution = { width: 640, height: 360 } as const;

/** VBR needs content that can absorb the bitrate: above this many bits per pixel the easy scenes reach QP 0 at
 *  640x360 and the mean falls short of nominal, so higher bitrates get a larger picture. */
export const vbrMaxBitsPerPixel = 0.8;
const vbrResolutions = [
  { width: 640, height: 360 },
  { width: 960, height: 540 },
  { width: 1280, height: 720 },
] as const;

export function vbrResolution(videoKbps: number): { width: number; height: number } {
  const fits = vbrResolutions.find((r) => (videoKbps * 1000) / (r.width * r.height * framesPerSecond) <= vbrMaxBitsPerPixel);
  return { ...(fits ?? vbrResolutions[vbrResolutions.length - 1]!) };
}

/** A CBR rendition's picture other than the default 640x360 at 30 fps. CBR filler keeps the bytes per segment at the
 *  nominal rate whatever the picture, while a smaller, slower picture is cheaper for the player to decode and
 *  draw: on a small machine several players at a high bitrate otherwise compete with the transport for the CPU. */
export interface Picture {
  width: number;
  height: number;
  framesPerSecond: number;
}

export interface MediaShape {
  /** Content length; must be a whole number of segments. */
  durationS: number;
  segmentDurationS: number;
  vbr: boolean;
  /** CBR single-rate sets only; absent: 640x360 at `framesPerSecond`. */
  picture?: Picture;
}

/** The frame rate a set is encoded at. */
export function setFramesPerSecond(set: Pick<MediaSet, 'framesPerSecond'>): number {
  return set.framesPerSecond ?? framesPerSecond;
}

/** Shortest and longest segment a set may have; x264's GOP is one segment, so it must be whole frames too. */
export const minSegmentDurationS = 0.5;
export const maxSegmentDurationS = 10;
export const maxMediaDurationS = 24 * 3600;

/** Why a shape cannot be encoded, or null. */
export function shapeProblem(shape: MediaShape): string | null {
  const { durationS, segmentDurationS: seg, picture } = shape;
  if (picture) {
    const { width, height, framesPerSecond: fps } = picture;
    if (shape.vbr) return 'a picture other than the default is for CBR sets only (VBR picks its own, vbrResolution)';
    // Even sizes: yuv420p halves both for chroma.
    for (const [what, v, lo, hi] of [['width', width, 64, 1920], ['height', height, 36, 1080]] as const) {
      if (!Number.isInteger(v) || v % 2 !== 0 || v < lo || v > hi) return `picture ${what} ${v} is not an even whole number in [${lo}, ${hi}]`;
    }
    if (!Number.isInteger(fps) || fps < 1 || fps > 60) return `picture frame rate ${fps} is not a whole number in [1, 60]`;
  }
  const fps = setFramesPerSecond({ framesPerSecond: picture?.framesPerSecond });
  if (!Number.isFinite(seg) || seg < minSegmentDurationS || seg > maxSegmentDurationS) {
    return `segment duration ${seg} s is outside [${minSegmentDurationS}, ${maxSegmentDurationS}] s`;
  }
  if (!isWhole(seg * fps)) return `segment duration ${seg} s is not a whole number of frames at ${fps} fps`;
  if (!Number.isFinite(durationS) || durationS < seg || durationS > maxMediaDurationS) {
    return `duration ${durationS} s is outside [${seg}, ${maxMediaDurationS}] s`;
  }
  if (!isWhole(durationS / seg)) {
    const below = Math.floor(durationS / seg) * seg;
    return `duration ${durationS} s is not a whole number of ${seg} s segments (use ${formatSeconds(below)} or ${formatSeconds(below + seg)})`;
  }
  return null;
}

function isWhole(x: number): boolean {
  return Math.abs(x - Math.round(x)) < 1e-9;
}

/** The shortest whole-segment duration of at least `minimumS`. */
export function wholeSegmentsAtLeast(minimumS: number, segmentS: number): number {
  const count = Math.ceil(minimumS / segmentS - 1e-9);
  return Number((Math.max(1, count) * segmentS).toFixed(6));
}

/** 2 -> "2", 1.5 -> "1.5": seconds in set names without float noise. */
export function formatSeconds(s: number): string {
  return String(Number(s.toFixed(3)));
}

function shapeSuffix(shape: MediaShape): string {
  return `${formatSeconds(shape.durationS)}s-${formatSeconds(shape.segmentDurationS)}s`;
}

function checkedShape(shape: MediaShape): MediaShape {
  const problem = shapeProblem(shape);
  if (problem) throw new Error(problem);
  return shape;
}

/** One rendition at `videoKbps`: "cbr-5000k-70s-2s" or "vbr-3300k-70s-2s"; another picture adds it to the name:
 *  "cbr-8000k-44s-2s-320x180-10fps". */
export function singleRateSet(videoKbps: number, shape: MediaShape): MediaSet {
  checkedShape(shape);
  if (!Number.isInteger(videoKbps) || videoKbps < 50 || videoKbps > 1_000_000) throw new Error(`bitrate ${videoKbps} kbit/s is outside [50, 1000000] (whole kbit/s)`);
  const { picture, ...rest } = shape;
  const pictureSuffix = picture ? `-${picture.width}x${picture.height}-${picture.framesPerSecond}fps` : '';
  const size = picture ? { width: picture.width, height: picture.height } : shape.vbr ? vbrResolution(videoKbps) : cbrResolution;
  return {
    name: `${shape.vbr ? 'vbr' : 'cbr'}-${videoKbps}k-${shapeSuffix(shape)}${pictureSuffix}`,
    renditions: [{ videoKbps, ...size }],
    ...rest,
    ...(picture ? { framesPerSecond: picture.framesPerSecond } : {}),
  };
}

/** The default ladder's rungs with this shape: "abr-cbr-70s-2s" or "abr-vbr-70s-2s". */
export function ladderSet(shape: MediaShape): MediaSet {
  checkedShape(shape);
  if (shape.picture) throw new Error('the ladder has its own pictures: a picture is for single-rate CBR sets only');
  return { name: `abr-${shape.vbr ? 'vbr' : 'cbr'}-${shapeSuffix(shape)}`, renditions: [...ladderRenditions], ...shape };
}
