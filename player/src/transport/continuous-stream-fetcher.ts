// Continuous-stream delivery (issue 18 item 9, `stream=1`): the thesis's video experiment (§5.2) carried one
// continuous stream through a tunnelling proxy, with no request between segments. This MediaFetcher gives dash.js the
// same: at its first video segment request it asks the origin for that segment and every following one of the same
// rendition as ONE response (server/src/media/continuous-stream.ts: each segment behind a 4-byte length), and serves
// dash.js's requests from that stream as the segments arrive. The origin never waits for a request, on datagrams and
// on TCP alike; the link idles only where the congestion controller lets it.
//
// A request the stream does not hold (another rendition, a seek backwards, a byte range, audio, init segments) goes to
// the inner fetcher; a video request for another rendition or an earlier number restarts the stream there, and the
// old stream's bytes dash.js never used count as waste. Each served segment reports the real arrival times of its
// bytes (the progress events' `durationMs`), so dash.js's throughput samples are the transfer's, as with early requests.
//
// A request served from the stream never reaches the origin, so its CMCD (the player's buffer level) would not either:
// the fetcher sends that path as a player-state request instead (PROTOCOL.md §2.9), on the same session, and the origin
// hands it to the controller as it would the request's own. The request that opens a stream carries its CMCD itself.
import { PLAYER_STATE_STATUS, cmcdFromRequestPath, playerStateRequestPath } from '@pcc-stream/protocol';
import type { ByteRange, MediaFetcher, MediaResponse, ProgressCallback } from './media-fetcher.ts';

/** Hands a response's body over in order as it arrives; resolves with the response (its `body` empty) at the end. */
export interface StreamSource {
  stream(path: string, onChunk: (bytes: Uint8Array) => void, signal: AbortSignal): Promise<MediaResponse>;
}

const SEGMENT_PATH = /^(.*)\/seg-(\d+)-(\d+)\.m4s$/;
const PREFIX_BYTES = 4;

/** What the stream did (window.pccPlayer.metrics(), through the early-delivery counters). */
export interface StreamCounters {
  streamsOpened: number;
  /** Streams dropped before their end because dash.js asked for something they do not hold. */
  streamsCancelled: number;
  /** dash.js segment requests served from a stream. */
  segmentsServed: number;
  /** Segment bytes received on streams (used or not). */
  streamBytes: number;
  /** Segment bytes received on streams that dash.js never asked for (counted when a stream is dropped or closed). */
  wasteBytes: number;
  /** Receiver idle time between consecutive segments of a stream (last byte of one to first byte of the next), ms. */
  segmentGapsMs: number[];
  /** Player-state requests sent for segments served from a stream, and those the origin did not accept (§2.9). */
  playerStatesSent: number;
  playerStateFailures: number;
}

export interface ContinuousStreamOptions {
  nowMs?: () => number;
  /** Told why a player-state request failed (the origin's status and reason, or the transport's error). */
  onPlayerStateFailure?: (message: string) => void;
}

interface Mark { atMs: number; loaded: number }

/** The loader's state at one instant (window.pccPlayer.metrics().streamState): what dash.js waits for and what the
 *  open stream has delivered, so a stalled stream names what it stalled on. */
export interface StreamState {
  /** Segment numbers dash.js asked for that the loader has not served yet (oldest first). */
  waiting: number[];
  open: {
    path: string;
    firstNumber: number;
    /** The number the next length prefix will open. */
    nextNumber: number;
    /** The segment arriving now: its number and bytes of its size, or null between segments. */
    arriving: { number: number; filledBytes: number; sizeBytes: number } | null;
    /** Segments arrived whole that dash.js has not taken. */
    held: number[];
    /** Bytes of the stream's body received (length prefixes included) and when the last ones came. */
    bodyBytes: number;
    lastChunkMs: number | null;
    ended: boolean;
    failure: string | null;
  } | null;
  atMs: number;
}

interface Segment {
  number: number;
  sizeBytes: number;
  bytes: Uint8Array;
  filled: number;
  marks: Mark[];
  /** When the previous segment's last byte arrived (or the stream was asked for): the start of this one's transfer. */
  startedMs: number;
  served: boolean;
}

interface SegmentName { dir: string; rendition: string; number: number; digits: number; query: string }

function parseSegmentPath(path: string): SegmentName | null {
  const [pathOnly, ...rest] = path.split('?');
  const m = SEGMENT_PATH.exec(pathOnly!);
  if (!m) return null;
  return { dir: m[1]!, rendition: m[2]!, number: Number(m[3]), digits: m[3]!.length, query: rest.length > 0 ? `?${rest.join('?')}` : '' };
}

/** One open stream: parses the framed body into segments as chunks arrive. */
class OpenStream {
  readonly controller = new AbortController();
  readonly segments = new Map<number, Segment>();
  private nextNumber: number;
  private current: Segment | null = null;
  private prefix = new Uint8Array(PREFIX_BYTES);
  private prefixFilled = 0;
  private lastEndMs: number;
  bodyBytes = 0;
  lastChunkMs: number | null = null;
  ended = false;
  failure: Error | null = null;
  /** Called on every chunk and at the end: the requests waiting for a segment look for theirs. */
  readonly listeners = new Set<() => void>();

  constructor(readonly dir: string, readonly rendition: string, readonly firstNumber: number, startedMs: number,
    private readonly counters: StreamCounters, private readonly nowMs: () => number) {
    this.nextNumber = firstNumber;
    this.lastEndMs = startedMs;
  }

  holds(name: SegmentName): boolean {
    if (name.dir !== this.dir || name.rendition !== this.rendition || this.failure) return false;
    // Still held (arrived, not yet taken), or still to come.
    return this.segments.has(name.number) || (name.number >= this.nextNumber && !this.ended);
  }

  onChunk(bytes: Uint8Array): void {
    const atMs = this.nowMs();
    this.bodyBytes += bytes.byteLength;
    this.lastChunkMs = atMs;
    let at = 0;
    while (at < bytes.byteLength) {
      if (!this.current) {
        const n = Math.min(PREFIX_BYTES - this.prefixFilled, bytes.byteLength - at);
        this.prefix.set(bytes.subarray(at, at + n), this.prefixFilled);
        this.prefixFilled += n;
        at += n;
        if (this.prefixFilled < PREFIX_BYTES) break;
        const sizeBytes = new DataView(this.prefix.buffer).getUint32(0);
        this.prefixFilled = 0;
        this.current = {
          number: this.nextNumber++, sizeBytes, bytes: new Uint8Array(sizeBytes), filled: 0, marks: [], startedMs: this.lastEndMs,
          served: false,
        };
        // The receiver's idle time since the previous segment's last byte (the first segment has no predecessor).
        if (this.current.number !== this.firstNumber) this.counters.segmentGapsMs.push(Math.max(0, atMs - this.lastEndMs));
        this.segments.set(this.current.number, this.current);
        if (sizeBytes === 0) this.completeCurrent(atMs);
        continue;
      }
      const seg = this.current;
      const n = Math.min(seg.sizeBytes - seg.filled, bytes.byteLength - at);
      seg.bytes.set(bytes.subarray(at, at + n), seg.filled);
      seg.filled += n;
      at += n;
      this.counters.streamBytes += n;
      seg.marks.push({ atMs, loaded: seg.filled });
      if (seg.filled === seg.sizeBytes) this.completeCurrent(atMs);
    }
    for (const l of [...this.listeners]) l();
  }

  private completeCurrent(atMs: number): void {
    this.current = null;
    this.lastEndMs = atMs;
  }

  finish(failure: Error | null): void {
    this.ended = true;
    if (this.current && !failure) failure = new Error(`stream ended inside segment ${this.current.number}`);
    this.failure = failure;
    for (const l of [...this.listeners]) l();
  }

  state(): NonNullable<StreamState['open']> {
    const c = this.current;
    return {
      path: `${this.dir}/seg-${this.rendition}-${this.firstNumber}`, firstNumber: this.firstNumber, nextNumber: this.nextNumber,
      arriving: c ? { number: c.number, filledBytes: c.filled, sizeBytes: c.sizeBytes } : null,
      held: [...this.segments.values()].filter((s) => s.filled === s.sizeBytes && !s.served).map((s) => s.number),
      bodyBytes: this.bodyBytes, lastChunkMs: this.lastChunkMs, ended: this.ended, failure: this.failure?.message ?? null,
    };
  }

  /** Bytes received that dash.js never took. */
  unusedBytes(): number {
    let sum = 0;
    for (const seg of this.segments.values()) if (!seg.served) sum += seg.filled;
    return sum;
  }
}

export class ContinuousStreamFetcher implements MediaFetcher {
  private open: OpenStream | null = null;
  /** Segment numbers of dash.js's requests not yet served, one entry per request. */
  private readonly waiting: number[] = [];
  private readonly nowMs: () => number;
  readonly counters: StreamCounters = {
    streamsOpened: 0, streamsCancelled: 0, segmentsServed: 0, streamBytes: 0, wasteBytes: 0, segmentGapsMs: [],
    playerStatesSent: 0, playerStateFailures: 0,
  };

  constructor(private readonly inner: MediaFetcher, private readonly source: StreamSource, private readonly options: ContinuousStreamOptions = {}) {
    this.nowMs = options.nowMs ?? (() => performance.now());
  }

  fetch(path: string, range: ByteRange | null, onProgress: ProgressCallback, signal: AbortSignal): Promise<MediaResponse> {
    const cmcd = cmcdFromRequestPath(path);
    const objectType = cmcd.ok ? cmcd.value?.objectType ?? '' : '';
    const name = parseSegmentPath(path);
    // Video media segments only (CMCD ot=v/av, or a segment path when dash.js sends no CMCD).
    const isVideo = objectType === 'v' || objectType === 'av' || (objectType === '' && name !== null);
    if (!name || !isVideo || range !== null) return this.inner.fetch(path, range, onProgress, signal);
    if (!this.open || !this.open.holds(name)) this.restart(name);
    else this.tellPlayerState(path);
    return this.serve(this.open!, name.number, path, onProgress, signal);
  }

  /** Sends the CMCD of a request the open stream serves to the origin (PROTOCOL.md §2.9); it does not wait for the
   *  answer, as dash.js's request never waited for the origin to read its CMCD. */
  private tellPlayerState(path: string): void {
    const statePath = playerStateRequestPath(path);
    if (statePath === null) return;
    const counters = this.counters;
    counters.playerStatesSent++;
    const failed = (why: string): void => {
      counters.playerStateFailures++;
      this.options.onPlayerStateFailure?.(`player state for ${path.split('?', 1)[0]} not accepted: ${why}`);
    };
    this.inner.fetch(statePath, null, () => {}, new AbortController().signal).then((r) => {
      if (r.status !== PLAYER_STATE_STATUS) failed(`${r.status} ${new TextDecoder().decode(r.body).slice(0, 200) || r.statusText}`);
    }, (err: unknown) => failed(err instanceof Error ? err.message : String(err)));
  }

  /** Drops the current stream (its unused bytes are waste) and asks for one from `name` on. */
  private restart(name: SegmentName): void {
    if (this.open) this.drop(this.open, true);
    const stream = new OpenStream(name.dir, name.rendition, name.number, this.nowMs(), this.counters, this.nowMs);
    this.open = stream;
    this.counters.streamsOpened++;
    const streamPath = `${name.dir}/stream/seg-${name.rendition}-${String(name.number).padStart(name.digits, '0')}.m4s${name.query}`;
    this.source.stream(streamPath, (bytes) => stream.onChunk(bytes), stream.controller.signal).then((r) => {
      const ok = r.status >= 200 && r.status < 300;
      stream.finish(ok ? null : new Error(`stream ${streamPath}: ${r.status} ${new TextDecoder().decode(r.body).slice(0, 200) || r.statusText}`));
    }, (err: unknown) => stream.finish(err instanceof Error ? err : new Error(String(err))));
  }

  private drop(stream: OpenStream, cancelled: boolean): void {
    if (cancelled && !stream.ended) this.counters.streamsCancelled++;
    this.counters.wasteBytes += stream.unusedBytes();
    for (const seg of stream.segments.values()) seg.served = true; // counted once
    stream.controller.abort();
    if (this.open === stream) this.open = null;
  }

  /** Resolves with segment `number` once its last byte arrived, replaying its arrival marks as progress. */
  private serve(stream: OpenStream, number: number, path: string, onProgress: ProgressCallback, signal: AbortSignal): Promise<MediaResponse> {
    return new Promise<MediaResponse>((resolve, reject) => {
      let replayed = 0;
      const counters = this.counters;
      const waiting = this.waiting;
      waiting.push(number);
      const cleanup = (): void => {
        const i = waiting.indexOf(number);
        if (i >= 0) waiting.splice(i, 1);
        stream.listeners.delete(step);
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => { cleanup(); reject(new Error('aborted')); };
      function step(this: void): void {
        const seg: Segment | undefined = stream.segments.get(number);
        if (seg) {
          for (; replayed < seg.marks.length; replayed++) {
            const mark = seg.marks[replayed]!;
            const previousMs = replayed === 0 ? seg.startedMs : seg.marks[replayed - 1]!.atMs;
            onProgress(mark.loaded, seg.sizeBytes, mark.atMs - previousMs);
          }
          if (seg.filled === seg.sizeBytes) {
            cleanup();
            seg.served = true;
            stream.segments.delete(number); // dash.js holds it now
            counters.segmentsServed++;
            resolve({ status: 200, statusText: 'OK', contentType: 'video/mp4', body: seg.bytes.buffer as ArrayBuffer });
            return;
          }
        }
        if (stream.ended) {
          cleanup();
          reject(stream.failure ?? new Error(`${path}: not in the stream (it ended before segment ${number})`));
        }
      }
      if (signal.aborted) { cleanup(); reject(new Error('aborted')); return; }
      signal.addEventListener('abort', onAbort, { once: true });
      stream.listeners.add(step);
      step();
    });
  }

  /** What dash.js waits for and what the open stream holds, now. */
  state(): StreamState {
    return { waiting: [...this.waiting], open: this.open?.state() ?? null, atMs: this.nowMs() };
  }

  /** Session end: bytes dash.js never asked for are waste. */
  close(): void {
    if (this.open) this.drop(this.open, false);
  }
}
