// What one player did around a fault, from its sampled timeline (player-pages.ts): stall time in a window, when
// playback moved again, and whether the playhead ran continuously (no part of the content played twice or skipped).
import type { PlayerProbe } from './player-pages.ts';

/** The last reading at or before `linkS` (the first one if none is that early). */
export function probeAt(timeline: readonly PlayerProbe[], linkS: number): PlayerProbe {
  let found = timeline[0];
  for (const p of timeline) {
    if (p.linkS > linkS) break;
    found = p;
  }
  if (!found) throw new Error('no player readings');
  return found;
}

/** Seconds of stall the player counted between the readings at `fromS` and at `toS`. */
export function stallBetweenS(timeline: readonly PlayerProbe[], fromS: number, toS: number): number {
  return Math.max(0, probeAt(timeline, toS).totalStallS - probeAt(timeline, fromS).totalStallS);
}

/** Seconds from `fromS` until the playhead was seen moving again (0 when it never stopped); null if it never moved. */
export function resumeDelayS(timeline: readonly PlayerProbe[], fromS: number): number | null {
  const after = timeline.filter((p) => p.linkS >= fromS);
  for (let i = 1; i < after.length; i += 1) {
    const prev = after[i - 1] as PlayerProbe;
    const cur = after[i] as PlayerProbe;
    if (cur.positionS > prev.positionS + 1e-3 && cur.state === 'playing') return Math.max(0, prev.linkS - fromS);
  }
  return null;
}

/** How much the playhead's advance disagrees with the time spent playing, over [fromS, end]: seconds skipped
 *  (advance beyond playing time) and seconds repeated (playing time beyond advance, or the playhead going back). */
export interface Continuity {
  positionAdvanceS: number;
  playingS: number;
  skippedS: number;
  repeatedS: number;
  /** The largest backward step of the playhead between two readings. */
  maxBackStepS: number;
}

export function continuity(timeline: readonly PlayerProbe[], fromS: number): Continuity {
  const start = probeAt(timeline, fromS);
  const end = timeline.at(-1) as PlayerProbe;
  let maxBackStepS = 0;
  for (let i = 1; i < timeline.length; i += 1) {
    const prev = timeline[i - 1] as PlayerProbe;
    const cur = timeline[i] as PlayerProbe;
    if (prev.linkS >= fromS) maxBackStepS = Math.max(maxBackStepS, prev.positionS - cur.positionS);
  }
  const positionAdvanceS = end.positionS - start.positionS;
  const playingS = end.playingS - start.playingS;
  return {
    positionAdvanceS, playingS,
    skippedS: Math.max(0, positionAdvanceS - playingS),
    repeatedS: Math.max(0, playingS - positionAdvanceS, maxBackStepS),
    maxBackStepS,
  };
}

/** The first player's readings from a PlayerPages timeline. */
export function firstPlayer(timeline: readonly PlayerProbe[][]): PlayerProbe[] {
  return timeline.map((probes) => probes[0]).filter((p): p is PlayerProbe => p !== undefined);
}

/** Seconds in [fromS, toS] during which the playhead did not move after playback had started, counted from the
 *  readings whatever the page's state said: a freeze without a `waiting` event (a hole in the buffer) counts too. */
export function frozenS(timeline: readonly PlayerProbe[], fromS: number, toS: number): number {
  let frozen = 0;
  for (let i = 1; i < timeline.length; i += 1) {
    const prev = timeline[i - 1] as PlayerProbe;
    const cur = timeline[i] as PlayerProbe;
    if (prev.linkS < fromS || cur.linkS > toS || prev.playingS + prev.totalStallS === 0) continue;
    if (cur.positionS <= prev.positionS + 1e-3) frozen += cur.linkS - prev.linkS;
  }
  return frozen;
}
