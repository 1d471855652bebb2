// Synthetic content whose complexity changes from scene to scene like edited video, made only from ffmpeg's own
// lavfi sources (nothing is downloaded): a capped VBR encode of it gives segment sizes that vary as real content's
// do. Complexity at x264 CRF 23, 640x360 (kbit/s, measured when the palette was chosen): gradients ~440, cellauto
// ~500-600, testsrc2 ~730, testsrc2 with texture ~1250, mandelbrot zoom ~1600-2000, life ~4200. A light temporal
// grain over every scene (what a camera sensor adds) keeps even the easy scenes able to absorb bits, so a
// two-pass encode reaches its nominal mean instead of stalling at QP 0 on flat pictures.

interface Scene {
  /** A lavfi source (plus filters) at the given size and rate; `cycle` varies the seeds between repeats. */
  source: (width: number, height: number, rate: number, cycle: number) => string;
  durationS: number;
}

// Durations are deliberately not multiples of a segment, so scene cuts fall inside segments as in real edits.
const scenes: readonly Scene[] = [
  { durationS: 5, source: (w, h, r) => `testsrc2=s=${w}x${h}:r=${r}` },
  { durationS: 4, source: (w, h, r) => `mandelbrot=s=${w}x${h}:r=${r}:maxiter=200:start_scale=3:end_scale=0.0001` },
  { durationS: 6, source: (w, h, r, c) => `gradients=s=${w}x${h}:r=${r}:speed=0.2:n=8:seed=${3 + c}` },
  { durationS: 3, source: (w, h, r, c) => `life=s=${w}x${h}:r=${r}:mold=30:ratio=0.1:seed=${1 + c}:death_color=#202060:life_color=#e0d040` },
  { durationS: 5, source: (w, h, r, c) => `cellauto=s=${w}x${h}:r=${r}:rule=30:seed=${1 + c}` },
  { durationS: 3, source: (w, h, r, c) => `testsrc2=s=${w}x${h}:r=${r},noise=alls=12:all_seed=${1 + c}` },
  { durationS: 4, source: (w, h, r, c) => `cellauto=s=${w}x${h}:r=${r}:rule=18:random_fill_ratio=0.3:seed=${2 + c}` },
];

/** Temporal grain strength over every scene (ffmpeg noise filter, 0-100). */
const grainStrength = 5;

/** A lavfi graph (for `-f lavfi -i`) of `durationS` seconds of scenes at width x height, output label out0. */
export function vbrSourceGraph(width: number, height: number, rate: number, durationS: number): string {
  const parts: string[] = [];
  const labels: string[] = [];
  let coveredS = 0;
  for (let i = 0; coveredS < durationS; i++) {
    const scene = scenes[i % scenes.length]!;
    const cycle = Math.floor(i / scenes.length);
    const lengthS = Math.min(scene.durationS, durationS - coveredS);
    parts.push(`${scene.source(width, height, rate, cycle)},trim=duration=${lengthS},setpts=PTS-STARTPTS,format=yuv420p,setsar=1,`
      + `noise=alls=${grainStrength}:allf=t:all_seed=${7 + i}[s${i}]`);
    labels.push(`[s${i}]`);
    coveredS += lengthS;
  }
  parts.push(`${labels.join('')}concat=n=${labels.length}:v=1:a=0[out0]`);
  return parts.join(';');
}
