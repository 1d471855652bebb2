// The page's abandonment rule (`abandon=buffer`, issue 18): dash.js 5's AbandonRequestsRule abandons a download when
// the buffer is below its stable time (18 s) and the download's own rate projects it past 1.8 segment durations, so an
// 8000-kbit/s segment measuring 4.3 Mbit/s was abandoned with 6–14 s buffered, where it would have arrived long before
// the buffer ran dry (bench/published/2026-11-25/slow-start-persistent-queue/why-gap-after.md, finding 2). This rule
// abandons only a download whose rest, at the rate the download itself measures, would arrive after the buffer less
// ABANDON_BUFFER_MARGIN_S runs dry. Its settings cannot say that (they compare the whole download with a multiple of
// the segment duration), so it is a custom rule registered with player.addABRCustomRule in the built-in's place.
// Everything else is dash.js's rule as it is: the same gates (first byte, samples, elapsed time, once per segment,
// not at the lowest rendition), the same rate (the request's progress traces but the first, which holds the latency),
// the same replacement (the rendition that rate allows, only when its whole segment is smaller than what is left).

/** What the buffer must still hold when the rest of a download arrives, seconds: the replacement's request and first
 *  bytes take a round trip, and the rate a download measured can fall further before it ends. */
export const ABANDON_BUFFER_MARGIN_S = 1;
/** The name the rule is registered under (dash.js's custom rules are named). */
export const ABANDON_RULE_NAME = 'AbandonIfDoomedRule';

export interface DownloadState {
  /** Bytes of the segment not yet received. */
  bytesLeft: number;
  /** The download's own rate so far, bit/s. */
  rateBps: number;
  /** Media buffered ahead of the playhead, seconds. */
  bufferS: number;
}

/** Whether a download is doomed: its rest at its own rate would arrive after the buffer less `marginS` runs dry. A
 *  finished download never is; one that receives nothing always is. */
export function downloadIsDoomed(d: DownloadState, marginS: number = ABANDON_BUFFER_MARGIN_S): boolean {
  if (!(d.bytesLeft > 0)) return false;
  if (!(d.rateBps > 0)) return true;
  return (d.bytesLeft * 8) / d.rateBps > d.bufferS - marginS;
}

// The parts of dash.js's objects the rule reads (dash.js's own HTTPRequest, Representation and RulesContext).
interface Trace { d: number; b: number[] }
interface Rendition { bitrateInKbit: number }
interface LoadingRequest {
  index: number; firstByteDate: Date | null; traces: Trace[]; bytesLoaded: number; bytesTotal: number; representation: Rendition;
}
interface AbrControllerView {
  getOptimalRepresentationForBitrate(mediaInfo: unknown, bitrateInKbit: number, includeCompatibleMediaInfos: boolean): Rendition;
  isPlayingAtLowestQuality(representation: unknown): boolean;
}
interface RulesContextView {
  getCurrentRequest(): LoadingRequest | null | undefined;
  getMediaType(): string;
  getMediaInfo(): unknown;
  getRepresentation(): unknown;
  getAbrController(): AbrControllerView;
}
/** dash.js's SwitchRequest as its rules collection reads it: representation null = no change. */
interface SwitchRequestView { representation: Rendition | null; priority: number; reason: object | null; rule: string }

/** What the rule needs of the page's player. */
export interface AbandonRuleHost {
  bufferLevelS(mediaType: string): number;
  /** dash.js's abandonRequestsRule settings (its gates and priority), read at each check. */
  settings(): { priority: number; minThroughputSamplesThreshold: number; minSegmentDownloadTimeThresholdInMs: number };
  onCheck(): void;
  onAbandon(mediaType: string, rateKbps: number, bufferS: number, bytesLeft: number): void;
}

/** The rule as dash.js's rules collection calls it (shouldAbandon per progress event of a loading segment). */
function abandonIfDoomedRule(host: AbandonRuleHost): { shouldAbandon(ctx: RulesContextView): SwitchRequestView; reset(): void; getClassName(): string } {
  let abandoned = new Set<number>();
  const noChange = (priority: number): SwitchRequestView => ({ representation: null, priority, reason: null, rule: ABANDON_RULE_NAME });
  return {
    getClassName: () => ABANDON_RULE_NAME,
    reset: () => { abandoned = new Set(); },
    shouldAbandon(ctx) {
      host.onCheck();
      const s = host.settings();
      const request = ctx?.getCurrentRequest();
      if (!request || Number.isNaN(request.index) || request.firstByteDate === null || abandoned.has(request.index)) return noChange(s.priority);
      if (request.traces.length < s.minThroughputSamplesThreshold || Date.now() - request.firstByteDate.getTime() <= s.minSegmentDownloadTimeThresholdInMs
        || request.bytesLoaded >= request.bytesTotal) return noChange(s.priority);
      const [first] = request.traces;
      const bytes = request.traces.reduce((sum, t) => sum + (t.b[0] ?? 0), 0) - (first?.b[0] ?? 0);
      const ms = Math.max(request.traces.reduce((sum, t) => sum + t.d, 0) - (first?.d ?? 0), 1);
      const rateKbps = Math.round((8 * bytes) / ms);
      const mediaType = ctx.getMediaType();
      const bufferS = host.bufferLevelS(mediaType);
      const bytesLeft = request.bytesTotal - request.bytesLoaded;
      const abr = ctx.getAbrController();
      if (!downloadIsDoomed({ bytesLeft, rateBps: rateKbps * 1000, bufferS }) || abr.isPlayingAtLowestQuality(ctx.getRepresentation())) return noChange(s.priority);
      const lower = abr.getOptimalRepresentationForBitrate(ctx.getMediaInfo(), rateKbps, true);
      if (!(bytesLeft > (request.bytesTotal * lower.bitrateInKbit) / request.representation.bitrateInKbit)) return noChange(s.priority);
      abandoned.add(request.index);
      host.onAbandon(mediaType, rateKbps, bufferS, bytesLeft);
      return {
        representation: lower, priority: s.priority, rule: ABANDON_RULE_NAME,
        reason: {
          throughputInKbit: rateKbps,
          message: `[${ABANDON_RULE_NAME}] ${mediaType}: ${(bytesLeft / 1000).toFixed(0)} kB left at ${rateKbps} kbit/s would arrive after ${bufferS.toFixed(1)} s of buffer less ${ABANDON_BUFFER_MARGIN_S} s`,
        },
      };
    },
  };
}

/** The rule as player.addABRCustomRule takes it: a dash.js class factory (rule(context).create()). */
export function abandonRuleFactory(host: AbandonRuleHost): (context: unknown) => { create(): ReturnType<typeof abandonIfDoomedRule> } {
  return () => ({ create: () => abandonIfDoomedRule(host) });
}
