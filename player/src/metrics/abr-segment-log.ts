// Per-segment ABR record (issue 18, the prefetch aid's bitrate cost to the TCP baseline): for each video media segment,
// the rendition dash.js chose, the throughput sample its model took from that request (and the trace it took it
// from), its estimate after it, and the request's real timing as the fetcher saw it (served from an early request or
// not); beside them, every video quality switch dash.js asked for with its rule's reason, and every abandoned request.
// The bench writes it per run and player as abr-segments-player-N.jsonl (bench/harness/README.md). Times are ms on the session's clock
// (performance.now() less the session's start).
import type { ServedSegment, TransferTiming } from '../transport/prefetching-fetcher.ts';

/** A transfer's times relative to the session's start (ms), bytes as received. */
export interface SegmentTransferRecord {
  startMs: number;
  firstByteMs: number | null;
  endMs: number | null;
  bytes: number;
}

export interface AbrSegmentRecord {
  kind: 'segment';
  /** The path dash.js asked for, without its query. */
  path: string;
  /** dash.js's segment number and chosen rendition (kbit/s, the MPD's bandwidth). */
  index: number | null;
  renditionKbps: number | null;
  /** dash.js's own request times (its trequest / tresponse / end), session clock ms. */
  dashRequestMs: number | null;
  dashFirstByteMs: number | null;
  dashEndMs: number | null;
  /** What dash.js's trace of the request counts (its first entry dropped as latency, ThroughputModel): bytes and ms. */
  traceBytes: number | null;
  traceMs: number | null;
  /** The sample dash.js's throughput model stored from this request (kbit/s after the CMSD etp blend), its raw
   *  8·bytes/time and its latency; null when it stored none. */
  sampleKbps: number | null;
  sampleRawKbps: number | null;
  sampleLatencyMs: number | null;
  /** The etp (kbit/s) the origin sent with the response, parsed by dash.js (null when none). */
  etpKbps: number | null;
  /** dash.js's average throughput estimate for video (kbit/s) after this sample, and the buffer (s) then. */
  estimateKbps: number | null;
  bufferS: number | null;
  /** From the fetcher: whether an early request served it, the early request (prefix) and the transfer dash.js's
   *  request started (the rest, or the whole segment). */
  fromPrefetch: boolean | null;
  prefix: SegmentTransferRecord | null;
  transfer: SegmentTransferRecord | null;
  /** 8·bytes over the time the path carried the segment (pathRateKbps); null for an abandoned one. */
  pathKbps: number | null;
  abandoned: boolean;
  status: number | null;
}

export interface AbrSwitchRecord {
  kind: 'switch';
  atMs: number;
  fromKbps: number | null;
  toKbps: number | null;
  /** dash.js's reason object (the rule that asked and its message), as given. */
  reason: unknown;
}

export type AbrLogRecord = AbrSegmentRecord | AbrSwitchRecord;

/** The dash.js player surface the log listens on (a MediaPlayerClass satisfies it). */
export interface AbrEventSource {
  on(type: string, listener: (e: never) => void, scope?: object): void;
  getAverageThroughput(type: 'video'): number;
  getBufferLength(type: 'video'): number;
}

interface DashRequest {
  mediaType?: string;
  type?: string;
  url?: string;
  index?: number;
  bandwidth?: number;
  representation?: { bandwidth?: number };
  startDate?: Date | null;
  firstByteDate?: Date | null;
  endDate?: Date | null;
}

interface HttpListEntry {
  type?: string;
  url?: string;
  _stream?: string;
  trequest?: Date | null;
  tresponse?: Date | null;
  _tfinish?: Date | null;
  responsecode?: number | null;
  trace?: Array<{ d: number; b: number[] }>;
  cmsd?: { dynamic?: { etp?: number } } | null;
}

interface StoredSample { value: number; downloadedBytes?: number; downloadTimeInMs?: number; latencyInMs?: number }

/** Records kept per session: a 40-70 s run has a few dozen segments; a long interactive session keeps its latest. */
const MAX_RECORDS = 2000;

function pathOf(url: string): string {
  try {
    return new URL(url, 'http://x').pathname;
  } catch {
    return url;
  }
}

/** 8·bytes over the time the path was carrying a segment: the union of its transfers' first-byte-to-end intervals (the
 *  prefix may end seconds before dash.js asks for the rest, which is no time the path spent on it). */
export function pathRateKbps(prefix: TransferTiming | null, transfer: TransferTiming | null): number | null {
  const parts = [prefix, transfer].filter((t): t is TransferTiming => t !== null && t.firstByteMs !== null && t.endMs !== null)
    .map((t) => ({ fromMs: t.firstByteMs!, toMs: t.endMs!, bytes: t.bytes }))
    .sort((a, b) => a.fromMs - b.fromMs);
  if (parts.length === 0) return null;
  let busyMs = 0;
  let openUntilMs = -Infinity;
  for (const p of parts) {
    busyMs += Math.max(0, p.toMs - Math.max(p.fromMs, openUntilMs));
    openUntilMs = Math.max(openUntilMs, p.toMs);
  }
  const bytes = parts.reduce((s, p) => s + p.bytes, 0);
  return busyMs > 0 ? (8 * bytes) / busyMs : null;
}

export class AbrSegmentLog {
  private readonly records: AbrLogRecord[] = [];
  /** Segment records by path: dash.js's URL and the fetcher's differ in their query (the TCP path's ?cc= interceptor). */
  private readonly byUrl = new Map<string, AbrSegmentRecord>();
  private pendingSample: StoredSample | null = null;
  private pendingEntry: AbrSegmentRecord | null = null;

  /** `sessionStartMs`: the session's start on performance.now()'s clock; `epochOriginMs`: performance.timeOrigin. */
  constructor(private readonly sessionStartMs: number, private readonly epochOriginMs: number) {}

  list(): AbrLogRecord[] {
    return this.records.map((r) => ({ ...r }));
  }

  private sinceStart(perfMs: number | null): number | null {
    return perfMs === null ? null : perfMs - this.sessionStartMs;
  }

  private fromDate(d: Date | null | undefined): number | null {
    return d instanceof Date ? d.getTime() - this.epochOriginMs - this.sessionStartMs : null;
  }

  private push(r: AbrLogRecord): void {
    this.records.push(r);
    if (this.records.length > MAX_RECORDS) this.records.shift();
  }

  private segment(url: string): AbrSegmentRecord {
    const key = pathOf(url);
    let r = this.byUrl.get(key);
    if (!r) {
      r = {
        kind: 'segment', path: pathOf(url), index: null, renditionKbps: null, dashRequestMs: null, dashFirstByteMs: null,
        dashEndMs: null, traceBytes: null, traceMs: null, sampleKbps: null, sampleRawKbps: null, sampleLatencyMs: null,
        etpKbps: null, estimateKbps: null, bufferS: null, fromPrefetch: null, prefix: null, transfer: null, pathKbps: null,
        abandoned: false, status: null,
      };
      this.byUrl.set(key, r);
      this.push(r);
      if (this.byUrl.size > MAX_RECORDS) this.byUrl.delete(this.byUrl.keys().next().value!);
    }
    return r;
  }

  private transferRecord(t: TransferTiming | null): SegmentTransferRecord | null {
    return t === null ? null : { startMs: t.startedMs - this.sessionStartMs, firstByteMs: this.sinceStart(t.firstByteMs), endMs: this.sinceStart(t.endMs), bytes: t.bytes };
  }

  /** The fetcher's record of a video segment (PrefetchOptions.onServed); its times are on performance.now()'s clock. */
  onServed(s: ServedSegment): void {
    const r = this.segment(s.path);
    r.fromPrefetch = s.fromPrefetch;
    r.prefix = this.transferRecord(s.prefix);
    r.transfer = this.transferRecord(s.transfer);
    r.pathKbps = pathRateKbps(s.prefix, s.transfer);
    r.status = s.status;
  }

  /** Listens on a dash.js player; call before initialize() so the HttpList handler runs before dash.js's own. */
  attach(player: AbrEventSource, events: Record<string, string>): void {
    const on = <T>(name: string, listener: (e: T) => void): void => player.on(events[name]!, listener as (e: never) => void, this);
    on<{ metric?: string; mediaType?: string; value?: HttpListEntry }>('METRIC_ADDED', (e) => {
      const v = e.value;
      if (e.metric !== 'HttpList' || e.mediaType !== 'video' || !v || v.type !== 'MediaSegment' || !v.url || !v.trace) return;
      const r = this.segment(v.url);
      r.dashRequestMs = this.fromDate(v.trequest);
      r.dashFirstByteMs = this.fromDate(v.tresponse);
      r.dashEndMs = this.fromDate(v._tfinish);
      const trace = v.trace;
      // ThroughputModel's XHR case: every trace entry but the first (the latency) counts.
      r.traceBytes = trace.slice(1).reduce((s, t) => s + (t.b[0] ?? 0), 0);
      r.traceMs = trace.slice(1).reduce((s, t) => s + t.d, 0);
      r.etpKbps = v.cmsd?.dynamic?.etp ?? null;
      r.status ??= v.responsecode ?? null;
      // dash.js's ThroughputModel stores its sample on this same event: whichever handler runs first, pair them.
      if (this.pendingSample) this.takeSample(r, this.pendingSample);
      else this.pendingEntry = r;
      queueMicrotask(() => {
        this.pendingEntry = null;
        this.pendingSample = null;
        r.estimateKbps = finiteOrNull(player.getAverageThroughput('video'));
        r.bufferS = finiteOrNull(player.getBufferLength('video'));
      });
    });
    on<{ throughputValues?: StoredSample }>('THROUGHPUT_MEASUREMENT_STORED', (e) => {
      const t = e.throughputValues;
      if (!t) return;
      if (this.pendingEntry) {
        this.takeSample(this.pendingEntry, t);
        this.pendingEntry = null;
      } else {
        this.pendingSample = t;
        queueMicrotask(() => { this.pendingSample = null; });
      }
    });
    on<{ request?: DashRequest }>('FRAGMENT_LOADING_COMPLETED', (e) => this.fromRequest(e.request, false));
    on<{ request?: DashRequest }>('FRAGMENT_LOADING_ABANDONED', (e) => this.fromRequest(e.request, true));
    on<{ mediaType?: string; oldRepresentation?: { bandwidth?: number }; newRepresentation?: { bandwidth?: number }; reason?: unknown }>('QUALITY_CHANGE_REQUESTED', (e) => {
      if (e.mediaType !== 'video') return;
      const kbps = (rep: { bandwidth?: number } | undefined): number | null => (rep?.bandwidth ? rep.bandwidth / 1000 : null);
      this.push({
        kind: 'switch', atMs: performance.now() - this.sessionStartMs, fromKbps: kbps(e.oldRepresentation), toKbps: kbps(e.newRepresentation),
        reason: JSON.parse(JSON.stringify(e.reason ?? null)) as unknown,
      });
    });
  }

  private takeSample(r: AbrSegmentRecord, t: StoredSample): void {
    // The sample of an MPD or audio request is not this segment's: only a video entry is paired (METRIC_ADDED filter).
    r.sampleKbps = finiteOrNull(t.value);
    r.sampleLatencyMs = finiteOrNull(t.latencyInMs ?? NaN);
    r.sampleRawKbps = t.downloadedBytes && t.downloadTimeInMs ? (8 * t.downloadedBytes) / t.downloadTimeInMs : null;
  }

  private fromRequest(req: DashRequest | undefined, abandoned: boolean): void {
    if (!req || req.mediaType !== 'video' || req.type !== 'MediaSegment' || !req.url) return;
    const r = this.segment(req.url);
    r.index = typeof req.index === 'number' ? req.index : r.index;
    const bandwidth = req.representation?.bandwidth ?? req.bandwidth;
    r.renditionKbps = bandwidth ? bandwidth / 1000 : r.renditionKbps;
    if (abandoned) r.abandoned = true;
    r.dashRequestMs ??= this.fromDate(req.startDate);
    r.dashFirstByteMs ??= this.fromDate(req.firstByteDate);
    r.dashEndMs ??= this.fromDate(req.endDate);
  }
}

function finiteOrNull(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}
