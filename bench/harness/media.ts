// The media each scenario plays: a set named by its parameters (generated with ffmpeg into the media root and
// cached there) or the user's own DASH content (validated, then linked into the media root). Everything a run plan
// needs is made ready before its first run, so a broken manifest or a failed encode stops the plan, not a run.
import { formatSeconds, ladderSet, shapeProblem, singleRateSet, wholeSegmentsAtLeast, type MediaSet } from '@pcc-stream/player/media';
import { byoSetName, linkByoContent, ManifestError, validateByoManifest } from '@pcc-stream/player/media-byo';
import { generateSet } from '@pcc-stream/player/media-generate';
import { ScenarioError, type Scenario } from './scenario.ts';

/** Content beyond the run's duration_s: the run's clock starts when the pages have loaded, and a player may start
 *  playing before that; dash.js also asks for segments ahead of the playhead. Ten seconds covers one player with a
 *  wide margin (startup measured at 0.3-2 s); every further player's page load adds up to PAGE_LOAD_MARGIN_S. */
export const PLAYBACK_MARGIN_S = 10;
export const PAGE_LOAD_MARGIN_S = 2;

/** What results.jsonl records about a run's media. */
export interface MediaRecord {
  set: string;
  kind: 'cbr' | 'vbr' | 'byo';
  abr: boolean;
  bitrate_kbps?: number;
  duration_s: number;
  segment_s?: number;
  mpd?: string;
}

/** Seconds of content a run of this scenario must have so that no player reaches the end. */
export function requiredMediaDurationS(scenario: Scenario): { seconds: number; why: string } {
  const marginS = PLAYBACK_MARGIN_S + PAGE_LOAD_MARGIN_S * (scenario.players - 1);
  return { seconds: scenario.durationS + marginS, why: `duration_s ${formatSeconds(scenario.durationS)} + ${formatSeconds(marginS)} s start-up margin` };
}

/** The generated set a scenario plays; null for bring-your-own content. Throws ScenarioError for a bad shape. */
export function generatedSetFor(scenario: Scenario): MediaSet | null {
  const media = scenario.media;
  if ('mpdPath' in media) return null;
  const need = requiredMediaDurationS(scenario);
  const durationS = media.durationS ?? wholeSegmentsAtLeast(need.seconds, media.segmentS);
  const where = `scenario ${scenario.name} media`;
  if (durationS + 1e-9 < need.seconds) {
    throw new ScenarioError(`${where}.duration_s`, `${formatSeconds(durationS)} s of content is shorter than the ${formatSeconds(need.seconds)} s the run needs (${need.why}); leave duration_s out to get enough`);
  }
  const shape = { durationS, segmentDurationS: media.segmentS, vbr: media.vbr, ...(!media.abr && media.picture ? { picture: media.picture } : {}) };
  const problem = shapeProblem(shape);
  if (problem) throw new ScenarioError(where, problem);
  return media.abr ? ladderSet(shape) : singleRateSet(Math.round(media.bitrateMbps * 1000), shape);
}

/** The media root folder (the player's `content` parameter) and how the player is to play it. */
export function contentFor(scenario: Scenario): { content: string; abr: 'on' | 'off'; bitrateKbps?: number } {
  const media = scenario.media;
  if ('mpdPath' in media) return { content: byoSetName(media.mpdPath), abr: 'on' };
  const set = generatedSetFor(scenario)!;
  if (media.abr) return { content: set.name, abr: 'on' };
  return { content: set.name, abr: 'off', bitrateKbps: set.renditions[0]!.videoKbps };
}

/** Content length of bring-your-own sets validated by prepareMedia in this process, by set name. */
const byoDurationsS = new Map<string, number>();

export function mediaRecord(scenario: Scenario): MediaRecord {
  const media = scenario.media;
  if ('mpdPath' in media) {
    const set = byoSetName(media.mpdPath);
    return { set, kind: 'byo', abr: true, duration_s: byoDurationsS.get(set) ?? requiredMediaDurationS(scenario).seconds, mpd: media.mpdPath };
  }
  const set = generatedSetFor(scenario)!;
  return {
    set: set.name, kind: set.vbr ? 'vbr' : 'cbr', abr: media.abr, ...(media.abr ? {} : { bitrate_kbps: set.renditions[0]!.videoKbps }),
    duration_s: set.durationS, segment_s: set.segmentDurationS,
  };
}

function log(event: string, detail: Record<string, unknown>): void {
  console.error(JSON.stringify({ t: new Date().toISOString(), component: 'bench', event, ...detail }));
}

/**
 * Makes every scenario's media ready in `mediaDir`: first validates all bring-your-own manifests (cheap, and a
 * broken one should fail before a long encode), then links them and generates the missing sets, one at a time.
 */
export async function prepareMedia(scenarios: readonly Scenario[], mediaDir: string): Promise<void> {
  const byo = new Map<string, ReturnType<typeof validateByoManifest>>();
  const sets = new Map<string, MediaSet>();
  for (const scenario of scenarios) {
    if (scenario.mode === 'bulk') continue;
    const media = scenario.media;
    if ('mpdPath' in media) {
      const need = requiredMediaDurationS(scenario);
      try {
        const content = validateByoManifest(media.mpdPath, need.seconds, need.why);
        const known = byo.get(content.name);
        if (!known || known.durationS > content.durationS) byo.set(content.name, content);
      } catch (error) {
        if (error instanceof ManifestError) throw new ScenarioError(`scenario ${scenario.name} media.mpd`, error.message);
        throw error;
      }
    } else {
      const set = generatedSetFor(scenario)!;
      sets.set(set.name, set);
    }
  }
  for (const content of byo.values()) {
    const linked = linkByoContent(content, mediaDir);
    byoDurationsS.set(content.name, content.durationS);
    log('media-byo', {
      set: content.name, mpd: content.mpdPath, duration_s: content.durationS, dir: linked.dir, files_linked: linked.linked,
      files_copied: linked.copied, bytes_copied: linked.copiedBytes,
      representations: content.representations.map((r) => `${r.id}:${r.contentType}:${r.codecs}:${r.bandwidthBps}`),
    });
  }
  let index = 0;
  for (const set of sets.values()) {
    index += 1;
    const { outcome, record } = await generateSet(mediaDir, set);
    log('media-ready', {
      set: set.name, outcome, progress: `${index}/${sets.size}`,
      renditions: record.measured.renditions.map((r) => ({ videoKbps: r.videoKbps, meanKbps: r.segments.meanKbps, cv: r.segments.cv })),
    });
  }
}
