// A WebTransport MediaFetcher that outlives its session (issue 20): when the session ends (the origin was restarted
// or killed, drained with SIGTERM, or the path dropped it), it opens a new one on its own, fetching the certificate
// hash again (a restarted origin without --cert-dir has a new certificate), and asks the requests the old session
// dropped again on the new one. dash.js sees slow requests, not failed ones, so playback resumes where it was with
// no segment skipped or fetched for a second position, and without a page reload. Gives up after RECONNECT_GIVE_UP_MS.
import type { WorkerScript } from '../config/session-params.ts';
import type { ProgressMode } from './body-buffer.ts';
import type { ByteRange, MediaFetcher, MediaResponse, ProgressCallback } from './media-fetcher.ts';
import { WorkerFetcher } from './worker-fetcher.ts';
import type { TelemetryPoint, TransportCounters } from './worker-messages.ts';

/** How long the fetcher keeps trying to open a new session before the session fails for good. */
export const RECONNECT_GIVE_UP_MS = 60_000;
/** Wait before the first attempt and the cap of the doubling wait between attempts: an origin restarted by a
 *  supervisor is back within a second or two, and a refused attempt (nothing listening) costs a round trip. */
const FIRST_RETRY_DELAY_MS = 100;
const MAX_RETRY_DELAY_MS = 1000;
/** A request the worker failed because its session ended is followed by the session's 'closed' message at once;
 *  wait this long for it before treating the failure as the request's own. */
const SESSION_END_GRACE_MS = 250;

export interface ReconnectOptions {
  sessionUrl: string;
  /** The origin's certificate SHA-256 (hex), fetched again for every session. */
  certHash: () => Promise<string>;
  /** A certificate hash the page already holds (the one its server inlined, origin-endpoints.ts pageCertHash): the
   *  first session tries it without fetching one, and fetches one only if it does not open (the page came from
   *  another server than the session's origin). Reconnects always fetch: a restarted origin may have a new one. */
  knownCertHash?: string | null;
  telemetry: boolean;
  /** What the worker's progress counts (worker-messages.ts ConnectOptions). */
  progress?: ProgressMode;
  /** One attempt to open a session fails after this long. */
  connectTimeoutMs: number;
  /** Where every session's worker gets its script (worker-script.ts); `inline` when absent. */
  workerScript?: WorkerScript;
}

export interface ReconnectEvents {
  onTelemetry?: (point: TelemetryPoint) => void;
  /** Counters summed over every session so far (each worker counts its own session from zero). */
  onCounters?: (counters: TransportCounters) => void;
  onReconnecting?: (reason: string) => void;
  onReconnected?: (sessions: number, attempts: number) => void;
  onGaveUp?: (message: string) => void;
}

/** How the first session opened, on the page's performance.now() clock (ms): the start-up timeline
 *  (playback-session.ts StartupTimeline). */
export interface FirstOpenTiming {
  /** `page`: the hash the page held opened it; `fetched`: it fetched /cert-hash first (after a failed try with the
   *  page's hash when `pageHashFailed`). */
  certHashSource: 'page' | 'fetched';
  pageHashFailed: boolean;
  certHashFetchStartMs: number | null;
  certHashFetchEndMs: number | null;
  workerCreatedMs: number;
  workerRunningMs: number | null;
  /** The scheme of the URL the worker's script ran from: `blob:` inline, the page's `http:`/`https:` fetched. */
  workerScriptProtocol: string | null;
  connectStartMs: number | null;
  readyMs: number;
}

const ZERO: TransportCounters = { datagramsReceived: 0, datagramsLost: 0, datagramsDeclaredLost: 0, bytesReceived: 0, acksSent: 0, countedAtEpochMs: 0 };

function addCounters(a: TransportCounters, b: TransportCounters): TransportCounters {
  return {
    datagramsReceived: a.datagramsReceived + b.datagramsReceived, datagramsLost: a.datagramsLost + b.datagramsLost,
    datagramsDeclaredLost: a.datagramsDeclaredLost + b.datagramsDeclaredLost, bytesReceived: a.bytesReceived + b.bytesReceived,
    acksSent: a.acksSent + b.acksSent, countedAtEpochMs: Math.max(a.countedAtEpochMs, b.countedAtEpochMs),
  };
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class ReconnectingFetcher implements MediaFetcher {
  /** WebTransport sessions opened so far (1 until the first reconnect). */
  sessions = 0;
  private current: WorkerFetcher | null = null;
  /** The live session, or the reconnect under way; rejects once the fetcher gave up. */
  private session: Promise<WorkerFetcher>;
  private readonly ended = new WeakSet<WorkerFetcher>();
  private readonly endWaiters = new Map<WorkerFetcher, () => void>();
  private doneCounters: TransportCounters = ZERO;
  private liveCounters: TransportCounters = ZERO;
  private stopped = false;
  /** How the first session opened; null until it did. */
  firstOpen: FirstOpenTiming | null = null;
  private firstWorkerConnecting: () => void = () => {};
  private readonly firstWorkerConnectingPromise = new Promise<void>((resolve) => { this.firstWorkerConnecting = resolve; });

  constructor(private readonly options: ReconnectOptions, private readonly events: ReconnectEvents = {}) {
    // The first session is not retried: an origin that is not there at the start is the user's to fix, and the
    // page says so at once.
    this.session = this.openFirst().then((fetcher) => this.adopt(fetcher));
    this.session.catch(() => undefined);
    this.session.then(this.firstWorkerConnecting, this.firstWorkerConnecting);
  }

  /** Resolves once the first session is up; rejects with a readable reason otherwise. */
  async ready(): Promise<void> {
    await this.session;
  }

  /** Resolves once the first worker has constructed its WebTransport (or the first session is up or failed,
   *  whichever is first); never rejects. */
  workerConnecting(): Promise<void> {
    return this.firstWorkerConnectingPromise;
  }

  async fetch(path: string, range: ByteRange | null, onProgress: ProgressCallback, signal: AbortSignal): Promise<MediaResponse> {
    // A request asked again starts from its first byte: progress only ever grows, as dash.js expects.
    let reported = 0;
    const progress: ProgressCallback = (loaded, total, durationMs) => {
      if (loaded < reported) return;
      reported = loaded;
      onProgress(loaded, total, durationMs);
    };
    for (;;) {
      const fetcher = await this.session;
      if (signal.aborted) throw new Error('aborted');
      try {
        return await fetcher.fetch(path, range, progress, signal);
      } catch (err) {
        if (signal.aborted || this.stopped || !(await this.endedSoon(fetcher))) throw err;
        // Its session ended under it: ask again on the next one.
        console.info(`reconnecting fetcher: ${path} again on a new session (${describe(err)})`);
      }
    }
  }

  /** A continuous stream is not asked again (its chunks were handed on as they came): it fails with its session. */
  async stream(path: string, onChunk: (bytes: Uint8Array) => void, signal: AbortSignal): Promise<MediaResponse> {
    return (await this.session).stream(path, onChunk, signal);
  }

  close(): void {
    this.stopped = true;
    this.current?.close();
    this.current = null;
  }

  private async openFirst(): Promise<WorkerFetcher> {
    const known = this.options.knownCertHash ?? null;
    let pageHashFailed = false;
    if (known !== null) {
      try {
        const { fetcher, timing } = await this.open(known);
        this.firstOpen = { ...timing, certHashSource: 'page', pageHashFailed };
        return fetcher;
      } catch (err) {
        if (this.stopped) throw err;
        pageHashFailed = true;
        console.info(`reconnecting fetcher: no session with the page's certificate hash (${describe(err)}); fetching the origin's`);
      }
    }
    const { fetcher, timing } = await this.open(null);
    this.firstOpen = { ...timing, certHashSource: 'fetched', pageHashFailed };
    return fetcher;
  }

  private async open(knownCertHash: string | null): Promise<{ fetcher: WorkerFetcher; timing: Omit<FirstOpenTiming, 'certHashSource' | 'pageHashFailed'> }> {
    const certHashFetchStartMs = knownCertHash === null ? performance.now() : null;
    const certHashHex = knownCertHash ?? await this.options.certHash();
    const certHashFetchEndMs = certHashFetchStartMs === null ? null : performance.now();
    const workerCreatedMs = performance.now();
    const fetcher: WorkerFetcher = new WorkerFetcher({ sessionUrl: this.options.sessionUrl, certHashHex, telemetry: this.options.telemetry, ...(this.options.progress ? { progress: this.options.progress } : {}) }, {
      onTelemetry: (point) => { if (fetcher === this.current) this.events.onTelemetry?.(point); },
      onCounters: (counters) => {
        if (fetcher !== this.current) return;
        this.liveCounters = counters;
        this.events.onCounters?.(addCounters(this.doneCounters, counters));
      },
      onClosed: (reason) => this.onEnded(fetcher, reason),
    }, this.options.workerScript ?? 'inline');
    void fetcher.connecting().then(this.firstWorkerConnecting);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        fetcher.ready(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no WebTransport session with ${this.options.sessionUrl} after ${this.options.connectTimeoutMs / 1000} s`)), this.options.connectTimeoutMs);
        }),
      ]);
    } catch (err) {
      fetcher.close();
      throw err;
    } finally {
      clearTimeout(timer);
    }
    const readyMs = performance.now();
    const onPageClock = (epochMs: number | undefined): number | null => (epochMs === undefined ? null : epochMs - performance.timeOrigin);
    return {
      fetcher,
      timing: {
        certHashFetchStartMs, certHashFetchEndMs, workerCreatedMs, readyMs,
        workerRunningMs: onPageClock(fetcher.openTiming?.workerRunningEpochMs), workerScriptProtocol: fetcher.scriptProtocol, connectStartMs: onPageClock(fetcher.openTiming?.connectStartEpochMs),
      },
    };
  }

  private adopt(fetcher: WorkerFetcher): WorkerFetcher {
    if (this.stopped) {
      fetcher.close();
      throw new Error('the player closed its transport');
    }
    this.current = fetcher;
    this.liveCounters = ZERO;
    this.sessions += 1;
    return fetcher;
  }

  private onEnded(fetcher: WorkerFetcher, reason: string): void {
    this.ended.add(fetcher);
    this.endWaiters.get(fetcher)?.();
    if (fetcher !== this.current || this.stopped) return;
    this.current = null;
    this.doneCounters = addCounters(this.doneCounters, this.liveCounters);
    this.liveCounters = ZERO;
    fetcher.close();
    this.session = this.reconnect(reason);
    this.session.catch(() => undefined);
  }

  private async reconnect(reason: string): Promise<WorkerFetcher> {
    this.events.onReconnecting?.(reason);
    console.info(`reconnecting fetcher: the session ${reason}; opening a new one`);
    const deadlineMs = performance.now() + RECONNECT_GIVE_UP_MS;
    let delayMs = FIRST_RETRY_DELAY_MS;
    for (let attempt = 1; ; attempt += 1) {
      await sleep(delayMs);
      if (this.stopped) throw new Error('the player closed its transport');
      try {
        const fetcher = this.adopt((await this.open(null)).fetcher);
        this.events.onReconnected?.(this.sessions, attempt);
        return fetcher;
      } catch (err) {
        if (this.stopped || performance.now() + delayMs > deadlineMs) {
          const message = `the WebTransport session ${reason}, and no new one opened within ${RECONNECT_GIVE_UP_MS / 1000} s (last attempt: ${describe(err)})`;
          this.events.onGaveUp?.(message);
          throw new Error(message);
        }
      }
      delayMs = Math.min(MAX_RETRY_DELAY_MS, delayMs * 2);
    }
  }

  /** True when `fetcher`'s session has ended, or ends within SESSION_END_GRACE_MS. */
  private endedSoon(fetcher: WorkerFetcher): Promise<boolean> {
    if (this.ended.has(fetcher)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.endWaiters.delete(fetcher);
        resolve(this.ended.has(fetcher));
      }, SESSION_END_GRACE_MS);
      this.endWaiters.set(fetcher, () => {
        clearTimeout(timer);
        this.endWaiters.delete(fetcher);
        resolve(true);
      });
    });
  }
}
