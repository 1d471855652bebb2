// Client-side early requests (issue 18 item 5): a MediaFetcher in front of the transport that asks for the next
// video segment before the current one finishes, so the link does not idle for a request round trip plus server time
// between segments (DASH's request gap), and serves dash.js's request for it from what already arrived.
//
// Which segment comes next is dash.js's own CTA-5004 `nor` (next object request) in the request's CMCD query
// (PROTOCOL.md §2.6). The early request starts when the current segment's remaining bytes, at the rate they arrive,
// would take no longer than `PREFETCH_LEAD` times that request's own time to first byte: the gap it hides.
// Only what hides the gap is fetched ahead: a prefix of about rate × time to first byte (× PREFETCH_LEAD), not the
// segment. When dash.js asks for the segment, the rest is asked for at once, so its first byte arrives while the
// prefix still fills the link. A rendition switch (dash.js asks for another object of the same type) cancels the early
// request (PROTOCOL.md §2.4 CANCEL): what it had received, at most the prefix, is counted as waste. No early request
// while the buffer will be at or above dash.js's target when the current segment is in: dash.js then waits by choice,
// and the gap costs nothing. A segment served from arrived bytes reports their real arrival timing to dash.js (the
// progress events' `durationMs`), so its throughput sample is the transfer's, not the few microseconds of a copy.
import { cmcdFromRequestPath, withPrefetchMark } from '@pcc-stream/protocol';
import type { ByteRange, MediaFetcher, MediaResponse, ProgressCallback } from './media-fetcher.ts';

/** Largest prefix fetched ahead (bytes), whatever the estimate: 8 MiB covers a 150 ms gap up to 440 Mbit/s. */
export const PREFETCH_MAX_BYTES = 8 * 1024 * 1024;
/** Smallest prefix (bytes), for a rate or time to first byte not measured (a transfer in one event): a dozen packets. */
export const PREFETCH_MIN_BYTES = 16 * 1024;
/**
 * Start the early request when the current transfer's remaining time is at most this many of its times to first byte,
 * and fetch ahead this many times to first byte at its rate: the prefix's first byte comes one TTFB after the start,
 * so the prefix fills the link from the current segment's end until the rest's first byte (asked when dash.js asks).
 */
export const PREFETCH_LEAD = 1.5;
/**
 * dash.js 5's buffer target below the top rendition (`streaming.buffer.bufferTimeDefault`, 18 s) when the session does
 * not pass its own: at or above it dash.js does not ask back to back (ScheduleController), so there is no gap to hide.
 */
export const DASH_BUFFER_TARGET_MS = 18_000;
/**
 * The request gap is estimated as the least time to first byte of this many latest requests: the gap opens on an
 * idle link (the current segment's bytes have drained), while a request sent behind queued bytes (an early request,
 * the rest of a segment) waits for them too; sizing on that wait would grow each prefix from the last.
 */
const GAP_SAMPLES = 16;
/**
 * A request dash.js makes within this long after the previous video segment completed is back to back: its gap counts.
 * Later, dash.js was waiting by choice (a full buffer). A rendition switch asks for the new rendition's init segment
 * first: when that was asked back to back, the media request that follows it within this long is back to back too,
 * and its gap (from the previous segment's last byte) includes the init segment's round trip, the link's idle time.
 */
const BACK_TO_BACK_MS = 50;

/** The session's prefetch and request-gap counters (window.pccPlayer.metrics()). */
export interface PrefetchCounters {
  /** Early requests started. */
  prefetchIssued: number;
  /** dash.js requests served (entirely or from a prefix) from an early request. */
  prefetchHits: number;
  /** Early requests cancelled because dash.js asked for another object (rendition switch) or never used. */
  prefetchCancelled: number;
  /** Bytes received for early requests (used or not). */
  prefetchBytes: number;
  /** Bytes received for early requests that dash.js never used. */
  prefetchWasteBytes: number;
  /** Idle time at the receiver between back-to-back video segments (last byte of one to first byte of the next), ms. */
  segmentGapsMs: number[];
}

interface Mark { atMs: number; loaded: number }

/** One transfer's timing on the fetcher's clock (nowMs), for the per-segment ABR record (metrics/abr-segment-log.ts). */
export interface TransferTiming {
  startedMs: number;
  firstByteMs: number | null;
  endMs: number | null;
  bytes: number;
}

/** A video segment dash.js asked for, as the fetcher delivered it: what the path did, beside what dash.js measured. */
export interface ServedSegment {
  /** The path and query dash.js asked for (its URL's pathname + search). */
  path: string;
  /** When dash.js's request reached the fetcher. */
  requestedMs: number;
  /** Served from an early request: `prefix` is that request, `transfer` the rest asked for when dash.js asked (null when
   *  the prefix was the whole segment). Otherwise `prefix` is null and `transfer` is dash.js's own request. */
  fromPrefetch: boolean;
  prefix: TransferTiming | null;
  transfer: TransferTiming | null;
  status: number;
}

/** One transfer through the inner fetcher, with its arrival history. */
class Transfer {
  readonly controller = new AbortController();
  readonly marks: Mark[] = [];
  loaded = 0;
  /** The size the transport last announced (0 until known). */
  total = 0;
  firstByteMs: number | null = null;
  endMs: number | null = null;
  readonly listeners = new Set<(mark: Mark, previous: Mark | null, total: number) => void>();
  response!: Promise<MediaResponse>;

  constructor(readonly path: string, readonly range: ByteRange | null, readonly startedMs: number) {}

  onProgress(loaded: number, total: number, nowMs: number): void {
    if (loaded > 0 && this.firstByteMs === null) this.firstByteMs = nowMs;
    const previous = this.marks.at(-1) ?? null;
    const mark = { atMs: nowMs, loaded };
    this.marks.push(mark);
    this.loaded = loaded;
    this.total = total;
    for (const l of this.listeners) l(mark, previous, total);
  }
}

interface Slot {
  transfer: Transfer;
  /** The object path (no query) the early request is for. */
  key: string;
  /** CMCD object type of the request that named it: a later request of this type for another object cancels it. */
  objectType: string;
  /** Bytes asked for ahead (the range [0, prefixBytes)): the rest starts there. */
  prefixBytes: number;
  used: boolean;
}

function objectKey(path: string): string {
  return path.split(/[?#]/, 1)[0]!;
}

export interface PrefetchOptions {
  enabled: boolean;
  /** Cap on the prefix (bytes); PREFETCH_MAX_BYTES if absent. */
  maxBytes?: number;
  /** dash.js's buffer target (ms); DASH_BUFFER_TARGET_MS if absent. */
  bufferTargetMs?: number;
  nowMs?: () => number;
  /** Called once per video segment dash.js asked for, when its response is in (or failed: status 0). */
  onServed?: (served: ServedSegment) => void;
}

function timing(t: Transfer | null): TransferTiming | null {
  return t === null ? null : { startedMs: t.startedMs, firstByteMs: t.firstByteMs, endMs: t.endMs, bytes: t.loaded };
}

/**
 * Bytes to fetch ahead: PREFETCH_LEAD × rate × time to first byte, within [PREFETCH_MIN_BYTES, maxBytes]. `rateBytesPerMs`
 * is what the current transfer receives; NaN or ≤ 0 (nothing measured) gives the floor.
 */
export function prefetchPrefixBytes(rateBytesPerMs: number, ttfbMs: number, maxBytes: number): number {
  const want = rateBytesPerMs > 0 && ttfbMs > 0 ? Math.ceil(PREFETCH_LEAD * rateBytesPerMs * ttfbMs) : 0;
  return Math.min(maxBytes, Math.max(PREFETCH_MIN_BYTES, want));
}

export class PrefetchingFetcher implements MediaFetcher {
  private slot: Slot | null = null;
  private readonly maxBytes: number;
  private readonly nowMs: () => number;
  private readonly bufferTargetMs: number;
  readonly counters: PrefetchCounters = {
    prefetchIssued: 0, prefetchHits: 0, prefetchCancelled: 0, prefetchBytes: 0, prefetchWasteBytes: 0, segmentGapsMs: [],
  };
  private lastVideoEndMs: number | null = null;
  /** End of an init segment asked back to back after lastVideoEndMs (a rendition switch); null otherwise. */
  private switchInitEndMs: number | null = null;
  private activeVideo = 0;
  /** Times to first byte of the latest GAP_SAMPLES requests (ms), oldest first. */
  private readonly ttfbsMs: number[] = [];

  constructor(private readonly inner: MediaFetcher, private readonly options: PrefetchOptions) {
    this.maxBytes = options.maxBytes ?? PREFETCH_MAX_BYTES;
    if (!(this.maxBytes >= 1)) throw new RangeError(`prefetch byte cap ${this.maxBytes} must be at least 1`);
    this.bufferTargetMs = options.bufferTargetMs ?? DASH_BUFFER_TARGET_MS;
    if (!(this.bufferTargetMs >= 0)) throw new RangeError(`buffer target ${this.bufferTargetMs} ms must be at least 0`);
    this.nowMs = options.nowMs ?? (() => performance.now());
  }

  /** True while an early request is held (for tests and the page's stats). */
  get prefetchedPath(): string | null {
    return this.slot?.key ?? null;
  }

  fetch(path: string, range: ByteRange | null, onProgress: ProgressCallback, signal: AbortSignal): Promise<MediaResponse> {
    const cmcd = cmcdFromRequestPath(path);
    const state = cmcd.ok ? cmcd.value : null;
    const objectType = state?.objectType ?? '';
    const isVideo = objectType === 'v' || objectType === 'av';
    const key = objectKey(path);
    const requestedMs = this.nowMs();
    const backToBack = isVideo && this.asksBackToBack(requestedMs);
    const slot = this.slot;
    let served: Promise<MediaResponse> | null = null;
    let transfer: Transfer | null = null;
    let armOn: Transfer | null = null;
    if (slot && range === null && slot.key === key) {
      this.slot = null;
      slot.used = true;
      this.counters.prefetchHits++;
      // The rest of the segment is asked for now, not when the prefix ends: its time to first byte overlaps the
      // prefix's arrival (the gap the prefix is sized to cover, PREFETCH_LEAD). None when the prefix already ended
      // short of its range (it is the whole segment).
      const whole = slot.transfer.endMs !== null && slot.transfer.loaded < slot.prefixBytes;
      const rest = whole ? null : this.start(path, { firstByte: slot.prefixBytes, lastByte: null });
      transfer = slot.transfer;
      served = this.serveFromSlot(slot, path, rest, onProgress, signal);
      // The next early request watches the rest's arrival: the segment ends when the rest does.
      armOn = rest ?? slot.transfer;
    } else if (slot && objectType !== '' && objectType === slot.objectType) {
      this.cancelSlot(); // dash.js went another way (a rendition switch, a seek): the early bytes are waste
    }
    if (!served) {
      transfer = this.start(path, range);
      transfer.listeners.add((mark, _previous, total) => onProgress(mark.loaded, total));
      signal.addEventListener('abort', () => transfer!.controller.abort(), { once: true });
      served = transfer.response;
      armOn = transfer;
    }
    if (isVideo) {
      this.trackGap(transfer!, backToBack);
      this.noteServed(path, requestedMs, slot !== null && slot.used && transfer === slot.transfer ? slot.transfer : null, armOn, served);
    }
    else if (objectType === 'i' && this.asksBackToBack(requestedMs)) this.trackSwitchInit(transfer!);
    const next = this.options.enabled && isVideo && range === null ? state?.nextObjectPath : undefined;
    if (next !== undefined && armOn !== null) this.armPrefetch(armOn, next, path, objectType, state, requestedMs);
    return served;
  }

  private noteServed(path: string, requestedMs: number, prefix: Transfer | null, own: Transfer | null, served: Promise<MediaResponse>): void {
    const onServed = this.options.onServed;
    if (!onServed) return;
    const rest = prefix !== null && own === prefix ? null : own;
    const note = (status: number): void => onServed({ path, requestedMs, fromPrefetch: prefix !== null, prefix: timing(prefix), transfer: timing(rest), status });
    served.then((r) => note(r.status), () => note(0));
  }

  /** Whether a request at `requestedMs` follows the last video segment (or a switch's init segment) at once. */
  private asksBackToBack(requestedMs: number): boolean {
    const since = this.switchInitEndMs ?? this.lastVideoEndMs;
    return this.activeVideo === 0 && since !== null && requestedMs - since <= BACK_TO_BACK_MS;
  }

  /** A switch's init segment asked back to back: the media request that follows it at once is back to back too. */
  private trackSwitchInit(transfer: Transfer): void {
    transfer.response.then((r) => {
      if (r.status >= 200 && r.status < 300) this.switchInitEndMs = transfer.endMs ?? this.nowMs();
    }, () => {});
  }

  /** Counts the receiver's idle time before this video transfer's first byte, when dash.js asked back to back. */
  private trackGap(transfer: Transfer, backToBack: boolean): void {
    this.activeVideo++;
    const previousEndMs = this.lastVideoEndMs;
    const record = (): void => {
      if (backToBack && previousEndMs !== null && transfer.firstByteMs !== null) {
        this.counters.segmentGapsMs.push(Math.max(0, transfer.firstByteMs - previousEndMs));
      }
    };
    transfer.response.then((r) => {
      this.activeVideo--;
      if (r.status >= 200 && r.status < 300) {
        record();
        this.lastVideoEndMs = Math.max(this.lastVideoEndMs ?? 0, transfer.endMs ?? this.nowMs());
        this.switchInitEndMs = null;
      }
    }, () => { this.activeVideo--; });
  }

  /** The request gap: the least time to first byte of the latest requests (GAP_SAMPLES); null before any. */
  private gapMs(): number | null {
    return this.ttfbsMs.length === 0 ? null : Math.min(...this.ttfbsMs);
  }

  private start(path: string, range: ByteRange | null): Transfer {
    const transfer = new Transfer(path, range, this.nowMs());
    const noteFirstByte = (): void => {
      this.ttfbsMs.push(transfer.firstByteMs! - transfer.startedMs);
      if (this.ttfbsMs.length > GAP_SAMPLES) this.ttfbsMs.shift();
    };
    transfer.response = this.inner.fetch(path, range, (loaded, total) => {
      const first = transfer.firstByteMs === null;
      transfer.onProgress(loaded, total, this.nowMs());
      if (first && transfer.firstByteMs !== null) noteFirstByte();
    }, transfer.controller.signal)
      .then((r) => {
        transfer.endMs = this.nowMs();
        if (transfer.firstByteMs === null) {
          transfer.firstByteMs = transfer.endMs;
          noteFirstByte();
        }
        if (r.status >= 200 && r.status < 300) transfer.loaded = r.body.byteLength;
        return r;
      });
    return transfer;
  }

  /**
   * Starts the early request for `nextPath` when the current transfer is close enough to its end (PREFETCH_LEAD),
   * sized to the gap, unless the buffer will be at or above its target then (CMCD `bl` + `d` at the request, less
   * the time since: dash.js will wait, not ask back to back).
   */
  private armPrefetch(current: Transfer, nextPath: string, currentPath: string, objectType: string,
    state: { bufferLengthMs?: number; objectDurationMs?: number } | null, requestedMs: number): void {
    let started = false;
    const query = currentPath.includes('?') ? currentPath.slice(currentPath.indexOf('?')) : '';
    const go = (rateBytesPerMs: number): void => {
      if (started || this.slot !== null) return;
      started = true;
      current.listeners.delete(check);
      const nowMs = this.nowMs();
      if (state?.bufferLengthMs !== undefined) {
        const bufferAfterMs = state.bufferLengthMs + (state.objectDurationMs ?? 0) - (nowMs - requestedMs);
        if (bufferAfterMs >= this.bufferTargetMs) return;
      }
      const prefixBytes = prefetchPrefixBytes(rateBytesPerMs, this.gapMs() ?? 0, this.maxBytes);
      // The player's latest CMCD rides along (the origin keeps hearing its state while dash.js is served locally), and
      // the mark that lets the origin count early requests and what it sent for those cancelled.
      const transfer = this.start(withPrefetchMark(nextPath + query), { firstByte: 0, lastByte: prefixBytes - 1 });
      const slot: Slot = { transfer, key: objectKey(nextPath), objectType, prefixBytes, used: false };
      this.slot = slot;
      this.counters.prefetchIssued++;
      transfer.response.then((r) => {
        this.counters.prefetchBytes += r.body.byteLength;
        if ((r.status < 200 || r.status >= 300) && this.slot === slot) this.slot = null; // past the end: nothing held
      }, () => { if (this.slot === slot) this.slot = null; });
    };
    const check = (mark: Mark, _previous: Mark | null, total: number): void => {
      const gapMs = this.gapMs();
      if (current.firstByteMs === null || total <= 0 || gapMs === null) return;
      const elapsedMs = mark.atMs - current.firstByteMs;
      if (elapsedMs <= 0 || mark.loaded <= 0) return;
      const remainingMs = ((total - mark.loaded) * elapsedMs) / mark.loaded;
      if (remainingMs <= PREFETCH_LEAD * gapMs) go(mark.loaded / elapsedMs);
    };
    current.listeners.add(check);
    current.response.then(() => {
      // Ended before the lead was seen: its rate since the first byte, or (all in one event) since the request.
      const endMs = current.endMs ?? this.nowMs();
      const fromMs = current.firstByteMs !== null && current.firstByteMs < endMs ? current.firstByteMs : current.startedMs;
      go(endMs > fromMs ? current.loaded / (endMs - fromMs) : Number.NaN);
    }, () => current.listeners.delete(check));
  }

  /** Serves dash.js's request from the early one: its arrival history first, with real timings, then the rest live. */
  private async serveFromSlot(slot: Slot, path: string, rest: Transfer | null, onProgress: ProgressCallback, signal: AbortSignal): Promise<MediaResponse> {
    const t = slot.transfer;
    const abortBoth = (): void => {
      t.controller.abort();
      rest?.controller.abort();
    };
    signal.addEventListener('abort', abortBoth, { once: true });
    let lastMs = t.startedMs; // the first piece's duration holds the early request's time to first byte
    let prefixLoaded = 0;
    let prefixTotal = 0;
    const report = (atMs: number): void => {
      const total = rest === null || rest.total === 0 ? prefixTotal : slot.prefixBytes + rest.total;
      onProgress(prefixLoaded + (rest?.loaded ?? 0), total, atMs - lastMs);
      lastMs = atMs;
    };
    const replay = (mark: Mark, _before: Mark | null, announced: number): void => {
      prefixLoaded = mark.loaded;
      prefixTotal = announced;
      report(mark.atMs);
    };
    const live = (mark: Mark): void => {
      if (rest !== null && rest.marks.length === 1 && t.endMs !== null) {
        // The rest's first event after the prefix had ended: from the prefix's last byte until now no byte of this
        // segment was on its way: dash.js's own wait before it asked (the prefix may end seconds before, while the
        // buffer is at its target) and the rest's time to first byte. dash.js counts neither for a request of its own
        // (the time to first byte is latency, not download time: ThroughputModel, useDeadTimeLatency), so neither is
        // handed to it as download time: a response head starts the rest's download at once, a first piece of
        // body (a transport that reports no head) counts from the rest's request.
        lastMs = mark.loaded === 0 ? mark.atMs : Math.max(lastMs, rest.startedMs);
      }
      report(mark.atMs);
    };
    for (const mark of t.marks) replay(mark, null, t.total);
    rest?.listeners.add(live);
    rest?.response.catch(() => {}); // awaited below unless the prefix fails first
    t.listeners.add(replay);
    let prefix: MediaResponse;
    try {
      prefix = await t.response;
    } catch (err) {
      rest?.controller.abort();
      throw err;
    } finally {
      t.listeners.delete(replay);
    }
    if (prefix.status < 200 || prefix.status >= 300) {
      rest?.controller.abort();
      return this.inner.fetch(path, null, onProgress, signal);
    }
    if (rest === null || prefix.status !== 206 || prefix.body.byteLength < slot.prefixBytes) {
      rest?.controller.abort(); // the prefix is the whole segment (a server that ignored the range, or a short one)
      return { ...prefix, status: 200, statusText: 'OK' };
    }
    const restResponse = await rest.response;
    if (restResponse.status === 416) return { ...prefix, status: 200, statusText: 'OK' }; // the segment was exactly the prefix
    if (restResponse.status < 200 || restResponse.status >= 300) return restResponse;
    const base = prefix.body.byteLength;
    const body = new Uint8Array(base + restResponse.body.byteLength);
    body.set(new Uint8Array(prefix.body), 0);
    body.set(new Uint8Array(restResponse.body), base);
    return { ...restResponse, status: 200, statusText: 'OK', body: body.buffer };
  }

  private cancelSlot(): void {
    const slot = this.slot;
    if (!slot) return;
    this.slot = null;
    this.counters.prefetchCancelled++;
    this.counters.prefetchWasteBytes += slot.transfer.loaded;
    this.counters.prefetchBytes += slot.transfer.endMs === null ? slot.transfer.loaded : 0;
    slot.transfer.controller.abort();
  }

  /** Session end: an early request never used is waste. */
  close(): void {
    this.cancelSlot();
  }
}
