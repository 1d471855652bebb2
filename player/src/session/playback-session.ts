// One playback session: a dash.js player fed by the chosen transport, its metrics, and its pane of charts/stats.
import { MediaPlayer, type MediaPlayerClass, type Representation } from 'dashjs';
import type { SessionParams, SessionStart, WorkerScript } from '../config/session-params.ts';
import { ABANDON_RULE_NAME, abandonRuleFactory } from '../dash/abandon-rule.ts';
import { installTransportLoader } from '../dash/transport-loader.ts';
import { AbrSegmentLog, type AbrEventSource, type AbrLogRecord } from '../metrics/abr-segment-log.ts';
import { PlaybackMetrics, type MetricsSnapshot } from '../metrics/playback-metrics.ts';
import { HttpFetcher } from '../transport/http-fetcher.ts';
import { PrefetchingFetcher } from '../transport/prefetching-fetcher.ts';
import { ContinuousStreamFetcher, type StreamSource, type StreamState } from '../transport/continuous-stream-fetcher.ts';
import type { MediaFetcher } from '../transport/media-fetcher.ts';
import { ReconnectingFetcher, type FirstOpenTiming } from '../transport/reconnecting-fetcher.ts';
import type { TelemetryPoint, TransportCounters } from '../transport/worker-messages.ts';
import type { SessionPane } from '../ui/session-pane.ts';
import { fetchCertHash, originEndpoints, pageCertHash, withControllerQuery } from './origin-endpoints.ts';
import { startFailureMessage, startupVerdict } from './startup-watchdog.ts';

const connectTimeoutMs = 10_000;
const startupWatchdogMs = 30_000;
/**
 * dash.js blends each throughput sample with the origin's CMSD `etp` as sample·(1 − w) + etp·w. Half and half: the
 * controller's rate is not stretched by request gaps and ramps the way a 2 s segment's download time is (issue 18
 * item 6), but a controller's rate can run ahead of the path while it is app-limited, which the download time shows.
 */
export const CMSD_ETP_WEIGHT_RATIO = 0.5;
/**
 * dash.js's AbandonRequestsRule, once it abandons a download, allows only lower renditions for this long (dash.js's
 * default is 10 s, five of our 2 s segments). Two segment durations: long enough that the replacement and the next
 * segment are fetched at the lower rendition, so the estimate holds samples from after the drop before an up-switch
 * is allowed again; not so long that a capacity that came back is ignored for most of the buffer (issue 18,
 * bench/published/2026-11-25/lte-abr-switch-up finding 1).
 */
export const ABANDON_LOCK_MS = 4000;
/**
 * The throughput estimate: the harmonic mean of the last 5 video segments' samples, each segment weighing the same
 * (MPC's estimator, Yin et al., SIGCOMM 2015). dash.js's default EWMA weights a sample by its download time, so one
 * slow download in a capacity fade outweighs ten quick ones after it and the estimate stays low long after the
 * capacity returned (lte-abr-switch-up finding 2). The harmonic mean still leans to the low samples within its
 * window; a fixed window (no widening when samples vary, dash.js's enableSampleSizeAdjustment) lets a fade's samples
 * leave it after 5 segments.
 */
export const ABR_HARMONIC_SEGMENTS = 5;
/** The settings above as dash.js takes them; `abrThroughput=dashjs` leaves dash.js's defaults instead. */
const HARMONIC_ABR_SETTINGS = {
  abandonLoadTimeout: ABANDON_LOCK_MS,
  throughput: {
    averageCalculationMode: 'throughputCalculationModeHarmonicMean', // Constants.THROUGHPUT_CALCULATION_MODES.HARMONIC_MEAN
    sampleSettings: { vod: ABR_HARMONIC_SEGMENTS, live: ABR_HARMONIC_SEGMENTS, enableSampleSizeAdjustment: false },
  },
} as const;
/** How many recent CMSD values and throughput samples the page keeps for window.pccPlayer.cmsd(). */
const CMSD_RECORD_LENGTH = 200;

/** What the page handed dash.js as CMSD and what dash.js's throughput model stored (window.pccPlayer.cmsd()). */
export interface CmsdReport {
  etpWeightRatio: number;
  /** CMSD-Dynamic values the WebTransport loader put in dash.js's response headers, newest last. */
  handed: Array<{ path: string; cmsdDynamic: string }>;
  /**
   * dash.js's THROUGHPUT_MEASUREMENT_STORED samples: `valueKbps` as stored (after the etp blend), `rawKbps` the
   * download's own 8·bytes/time, and the etp the blend implies ((value − raw·(1 − w)) / w; null when equal).
   */
  samples: Array<{ valueKbps: number; rawKbps: number; impliedEtpKbps: number | null; downloadedBytes: number }>;
  /** dash.js's own parsed CMSD (HTTPRequest.cmsd) of the latest video request, as its CmsdModel returned it. */
  lastVideoRequestCmsd: unknown;
  /** The ABR settings dash.js holds (player.getSettings()) that `abrThroughput=` and `fastSwitch=` choose; null before dash.js started. */
  abrSettings: {
    averageCalculationMode: unknown; vodSamples: unknown; sampleSizeAdjustment: unknown; abandonLoadTimeoutMs: unknown; fastSwitchEnabled: unknown;
    /** dash.js's own AbandonRequestsRule: off with `abandon=buffer`, which puts the page's rule in its place. */
    abandonRequestsRuleActive: unknown;
  } | null;
  /** The page's abandonment rule (`abandon=buffer`, dash/abandon-rule.ts): how often dash.js consulted it (0 when it
   *  is not installed) and the downloads it abandoned. */
  abandonRule: { mode: SessionParams['abandon']; checks: number; abandoned: Array<{ mediaType: string; rateKbps: number; bufferS: number; bytesLeft: number }> };
}

/**
 * Where the session's start went (issue 18, start-up): ms on the page's clock (performance.now(), 0 at the
 * navigation's start), null for a step not reached yet or not taken (TCP opens no session and fetches no hash).
 */
export interface StartupTimeline {
  sessionStart: SessionStart;
  /** Where the transport worker's script came from (`workerScript=`), and the scheme of the URL it ran from
   *  (`blob:` for the inline script; null before it ran, and over TCP). */
  workerScript: WorkerScript;
  workerScriptProtocol: string | null;
  /** The session object was made: the page's scripts are loaded and ran. */
  sessionCreatedMs: number;
  /** How the first WebTransport session got its certificate hash, and the /cert-hash fetch when it took one
   *  (reconnecting-fetcher.ts FirstOpenTiming). */
  certHashSource: FirstOpenTiming['certHashSource'] | null;
  pageHashFailed: boolean;
  certHashFetchStartMs: number | null;
  certHashFetchEndMs: number | null;
  /** The transport worker was created, its script ran, it constructed its WebTransport, the session was ready. */
  workerCreatedMs: number | null;
  workerRunningMs: number | null;
  connectStartMs: number | null;
  sessionReadyMs: number | null;
  /** dash.js's build began, and it ended (initialize() returned: the page's main thread, which the worker's start
   *  also needs, is free again); dash.js asked the transport for the manifest, and for its first media segment. */
  playerCreatedMs: number | null;
  playerInitializedMs: number | null;
  manifestRequestMs: number | null;
  firstSegmentRequestMs: number | null;
  /** The video started playing. */
  playbackStartMs: number | null;
}

export interface SessionReport extends MetricsSnapshot {
  label: string;
  /** Canonical scheme name (the registry's, as the bench names it). */
  scheme: string;
  cc: string;
  transport: string;
  content: string;
  state: string;
  /** Highest video bitrate the manifest offers. */
  topBitrateKbps: number;
  /** Wall-clock time (epoch ms) at which the session's clock starts: the series' tS and the stall intervals count
   *  from here, so a harness can place them on another clock (a link log's). */
  clockStartEpochMs: number;
  /** Wall clock (epoch ms) at which `bytesReceived` was counted (the worker's last count over WebTransport, this
   *  report over HTTP): bytes that crossed the network after it are in no count, so a harness counting the link's
   *  bytes for the same media stops there (bench wire-overhead.ts). */
  bytesReceivedAtEpochMs: number;
  /** Client-side early requests on (`prefetch=1`) and what they did (prefetching-fetcher.ts). */
  prefetch: boolean;
  prefetchIssued: number;
  prefetchHits: number;
  prefetchCancelled: number;
  /** Bytes received for early requests, and those dash.js never used (a rendition switch, the session's end). */
  prefetchBytes: number;
  prefetchWasteBytes: number;
  /** Receiver idle time between back-to-back video segments (last byte to next first byte), ms; null before two. */
  segmentGapCount: number;
  segmentGapMeanMs: number | null;
  segmentGapP50Ms: number | null;
  segmentGapP95Ms: number | null;
  /** Continuous stream on (`stream=1`; continuous-stream-fetcher.ts). Its streams and bytes are reported in the
   *  early-delivery fields above: prefetchIssued = streams opened, prefetchHits = segments served from a stream,
   *  prefetchCancelled = streams dropped for another rendition or position, prefetchBytes = segment bytes streamed,
   *  prefetchWasteBytes = those dash.js never asked for; the segment gaps are between a stream's segments. */
  stream: boolean;
  /** Player-state requests the continuous stream sent for the segments it served (PROTOCOL.md §2.9), and those the
   *  origin did not accept; 0 without a stream. The origin counts the ones it accepted (/status player_state_requests). */
  playerStatesSent: number;
  playerStateFailures: number;
  /** The continuous stream's loader now: the segments dash.js waits for and what the open stream delivered; null
   *  without a stream. */
  streamState: StreamState | null;
  errors: string[];
  /** WebTransport sessions opened so far (1 unless the transport reconnected); null over TCP. */
  transportSessions: number | null;
  startup: StartupTimeline;
}

function keepLast<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > CMSD_RECORD_LENGTH) list.splice(0, list.length - CMSD_RECORD_LENGTH);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class PlaybackSession {
  readonly params: SessionParams;
  private readonly pane: SessionPane;
  private readonly onFatal: (message: string) => void;
  private readonly metrics: PlaybackMetrics;
  private player: MediaPlayerClass | null = null;
  private fetcher: ReconnectingFetcher | null = null;
  /** What dash.js's loader fetches through unless stream=1 (early requests when prefetch=1). */
  private mediaFetcher: PrefetchingFetcher | null = null;
  private streamFetcher: ContinuousStreamFetcher | null = null;
  /** TCP's fetcher, and its continuous stream's source (stream=1). */
  private httpFetcher: HttpFetcher | null = null;
  private readonly errors: string[] = [];
  private state = 'connecting';
  private counters: TransportCounters | null = null;
  private telemetryWindow: TelemetryPoint[] = [];
  private lastTelemetry: TelemetryPoint | null = null;
  private lastSampleBytes = 0;
  private lastSampleMs: number;
  /** performance.now() when the sampler last saw media bytes arrive; null before any. */
  private lastBytesArrivedMs: number | null = null;
  private requestTimeouts = 0;
  /** The pane shares its link with other panes (a competing compare view): said when it starves. */
  private readonly sharedLink: boolean;
  private readonly startedMs: number;
  /** Set when playback ended or the viewer stopped the run: the metrics are frozen from then on. */
  private finishedMs: number | null = null;
  /** Called once when the session finishes (the video ended, or finish()), with why. */
  onFinished: ((reason: 'ended' | 'stopped') => void) | null = null;
  private sampler: ReturnType<typeof setInterval> | null = null;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private topKbps = 0;
  private firstSegmentKbps: number | null = null;
  private readonly cmsdHanded: CmsdReport['handed'] = [];
  private readonly throughputSamples: CmsdReport['samples'] = [];
  private abandonChecks = 0;
  private readonly abandonedByRule: CmsdReport['abandonRule']['abandoned'] = [];
  private abrLog: AbrSegmentLog | null = null;
  /** Start-up steps the session itself sees (StartupTimeline), performance.now() ms. */
  private playerCreatedMs: number | null = null;
  private playerInitializedMs: number | null = null;
  private manifestRequestMs: number | null = null;
  private firstSegmentRequestMs: number | null = null;

  constructor(params: SessionParams, pane: SessionPane, onFatal: (message: string) => void, options: { sharedLink?: boolean } = {}) {
    this.params = params;
    this.sharedLink = options.sharedLink ?? false;
    this.pane = pane;
    this.onFatal = onFatal;
    this.startedMs = performance.now();
    this.lastSampleMs = this.startedMs;
    this.metrics = new PlaybackMetrics(this.startedMs);
  }

  async start(): Promise<void> {
    if (this.finishedMs !== null) return; // stopped before it could start (e.g. while the page placed it on a link)
    try {
      const endpoints = originEndpoints(this.params, location.origin);
      const serial = this.params.sessionStart === 'serial';
      if (this.params.transport !== 'tcp') {
        // A session that ends (origin restarted or drained, path dropped) is replaced by a new one on its own
        // (reconnecting-fetcher.ts); the session fails only when no new one opens.
        this.fetcher = new ReconnectingFetcher({
          sessionUrl: endpoints.sessionUrl, certHash: () => fetchCertHash(endpoints.certHashUrl, connectTimeoutMs), telemetry: true, connectTimeoutMs, progress: this.params.progress,
          knownCertHash: serial ? null : pageCertHash(document), workerScript: this.params.workerScript,
        }, {
          onTelemetry: (p) => { this.telemetryWindow.push(p); this.lastTelemetry = p; },
          onCounters: (c) => { this.counters = c; },
          onReconnecting: (reason) => this.pane.logEvent(`WebTransport session ${reason}; reconnecting`, 'error'),
          onReconnected: (sessions, attempts) => this.pane.logEvent(`WebTransport session ${sessions} up after ${attempts} attempt(s)`),
          onGaveUp: (message) => { if (this.state !== 'ended') this.fail(`${message[0]?.toUpperCase() ?? ''}${message.slice(1)}.`); },
        });
        const up = (): void => this.pane.logEvent(`WebTransport session up (${endpoints.sessionUrl.replace(/^https:\/\//, '')})`);
        if (serial) {
          await this.fetcher.ready();
          up();
        } else {
          // dash.js is built and asks for the manifest while the session opens (the fetcher holds its requests until
          // the session is up): the worker's start, the QUIC handshake and dash.js's own start overlap instead of
          // running one after the other, each a round trip or more on a mobile path (issue 18, start-up).
          this.fetcher.ready().then(up, (err: unknown) => this.fail(errorText(err)));
          // An inline worker (workerScript=inline) constructs its WebTransport tens of ms after it is created, but
          // only if the page's main thread is free: Chromium hands a worker the messages posted to it before its
          // script ran (our `connect`) from a main-thread task. Building dash.js in the same task held the session's
          // start back by dash.js's whole build (bench/published/2026-11-25/worker-start); now the build overlaps the
          // handshake. A fetched worker's script is a round trip away, so dash.js is built while it comes.
          if (this.params.workerScript === 'inline') await this.fetcher.workerConnecting();
        }
      } else {
        this.pane.logEvent(`loading ${endpoints.manifestUrl.replace(/^https:\/\//, '')}`);
      }
      if (this.finishedMs !== null) {
        this.fetcher?.close(); // stopped while connecting
        return;
      }
      this.setState('loading');
      this.startPlayer(endpoints.manifestUrl);
    } catch (err) {
      this.fail(errorText(err));
    }
  }

  private startPlayer(manifestUrl: string): void {
    this.playerCreatedMs = performance.now();
    const player = MediaPlayer().create();
    this.player = player;
    const abrLog = this.abrLog = new AbrSegmentLog(this.startedMs, performance.timeOrigin);
    // dash.js types on() per event name; the log listens by name from MediaPlayer.events.
    abrLog.attach(player as unknown as AbrEventSource, MediaPlayer.events as unknown as Record<string, string>);
    // TCP loads through our loader too (fetch() on the kernel's TCP; ?cc= still comes from the interceptor below):
    // dash.js's own XHR loader lost the ABR's samples on loopback, where a segment often arrives in one XHR progress
    // event (no bytes after the one it takes as latency) or within its 10 ms "from a cache" threshold, and Chromium
    // adds an XHR's Resource Timing entry only after the loadend at which dash.js looks for it; with no sample for a
    // whole run the ABR stayed at its first rendition. Our loader measures every transport the same way.
    const inner = this.markRequests(this.fetcher ?? (this.httpFetcher = new HttpFetcher(new URL(manifestUrl).origin)));
    let loaderFetcher: PrefetchingFetcher | ContinuousStreamFetcher;
    if (this.params.stream) {
      loaderFetcher = this.streamFetcher = new ContinuousStreamFetcher(inner, inner, { onPlayerStateFailure: (message) => this.note(message) });
    } else {
      // Early requests stop while the buffer is at dash.js's own target (it waits then, no gap to hide).
      const bufferTargetS = player.getSettings().streaming?.buffer?.bufferTimeDefault;
      loaderFetcher = this.mediaFetcher = new PrefetchingFetcher(inner, {
        enabled: this.params.prefetch,
        onServed: (served) => abrLog.onServed(served),
        ...(typeof bufferTargetS === 'number' && bufferTargetS >= 0 ? { bufferTargetMs: bufferTargetS * 1000 } : {}),
      });
    }
    // Must precede initialize(): dash.js instantiates its loaders then.
    installTransportLoader(player, loaderFetcher, {
      onError: (url, message) => this.note(`request ${new URL(url).pathname} failed: ${message}`),
      // Not an error of the session (dash.js retries, the startup watchdog keeps a pane that still receives): logged,
      // and counted for the message if dash.js gives up before the first frame.
      onTimeout: (url, loadedBytes, timeoutMs) => {
        this.requestTimeouts++;
        this.pane.logEvent(`request ${new URL(url).pathname} timed out after ${(timeoutMs / 1000).toFixed(0)} s with ${(loadedBytes / 1000).toFixed(0)} kB`, 'stall');
      },
      onCmsd: (url, cmsdDynamic) => keepLast(this.cmsdHanded, { path: new URL(url).pathname, cmsdDynamic }),
    });
    if (this.params.abandon === 'buffer') {
      player.addABRCustomRule('abandonFragmentRules', ABANDON_RULE_NAME, abandonRuleFactory({
        bufferLevelS: (mediaType) => player.getDashMetrics().getCurrentBufferLevel(mediaType as 'video'),
        settings: () => {
          const rule = player.getSettings().streaming?.abr?.rules?.abandonRequestsRule as { priority?: number; parameters?: { minThroughputSamplesThreshold?: number; minSegmentDownloadTimeThresholdInMs?: number } } | undefined;
          return {
            priority: rule?.priority ?? 0.5,
            minThroughputSamplesThreshold: rule?.parameters?.minThroughputSamplesThreshold ?? 6,
            minSegmentDownloadTimeThresholdInMs: rule?.parameters?.minSegmentDownloadTimeThresholdInMs ?? 500,
          };
        },
        onCheck: () => { this.abandonChecks++; },
        onAbandon: (mediaType, rateKbps, bufferS, bytesLeft) => keepLast(this.abandonedByRule, { mediaType, rateKbps, bufferS, bytesLeft }),
      }));
    }
    if (this.params.transport === 'tcp') {
      const cc = this.params.cc;
      player.addRequestInterceptor((request) => {
        request.url = withControllerQuery(request.url, cc);
        return Promise.resolve(request);
      });
    }
    const pinned = !this.params.abr;
    const harmonic = this.params.abrThroughput === 'harmonic';
    // dash.js's settings type marks every nested group as complete; updateSettings merges partial ones.
    player.updateSettings(({
      debug: { logLevel: 1 },
      streaming: {
        abr: {
          autoSwitchBitrate: { video: !pinned, audio: true },
          // Throughput from our loader's progress events on every transport (transport-loader.ts), never from a
          // Resource Timing entry of the same URL that may or may not exist yet when the request ends.
          throughput: { useResourceTimingApi: false, ...(harmonic ? HARMONIC_ABR_SETTINGS.throughput : {}) },
          ...(this.params.pinnedBitrateKbps !== null ? { initialBitrate: { video: this.params.pinnedBitrateKbps } } : {}),
          // abandon=buffer (the default): the page's rule (registered above) replaces dash.js's.
          rules: { abandonRequestsRule: { active: this.params.abandon === 'dashjs' } },
        },
        ...(harmonic ? { abandonLoadTimeout: HARMONIC_ABR_SETTINGS.abandonLoadTimeout } : {}),
        // Stated either way (dash.js's null means on for on-demand content), so getSettings() shows what is in effect.
        buffer: { fastSwitchEnabled: this.params.fastSwitch === 'on' },
        retryAttempts: { MPD: 3, MediaSegment: 3, InitializationSegment: 3 },
        // Our loader never reads a browser cache, so dash.js's "came from a cache" rule (a response under 10 ms) would
        // only drop real samples: a segment on a fast path, or one served from an early request microseconds after
        // dash.js asked (its progress events carry the real arrival timing, prefetching-fetcher.ts).
        cacheLoadThresholds: { video: 0, audio: 0 },
        // CTA-5004 in query mode: the `CMCD` argument rides in the request path over WebTransport and HTTPS alike,
        // and adds no CORS preflight to dash.js's cross-origin XHRs (PROTOCOL.md §2.6).
        cmcd: { enabled: true, mode: 'query', version: 1 },
        // CTA-5006: dash.js parses the CMSD headers (from our loader or the HTTPS origin) and blends etp into its
        // throughput samples; mb caps the renditions when the origin sends one (PROTOCOL.md §2.7).
        // The same weight on every transport: the aid is not congestion control, so the TCP baselines get it too
        // (their etp is the kernel's send rate from TCP_INFO, capped like our controllers' rates).
        cmsd: { enabled: true, abr: { applyMb: true, etpWeightRatio: CMSD_ETP_WEIGHT_RATIO } },
      },
    }) as unknown as Parameters<MediaPlayerClass['updateSettings']>[0]);
    const events = MediaPlayer.events;
    player.on(events.THROUGHPUT_MEASUREMENT_STORED, (e: { throughputValues?: { value?: number; downloadedBytes?: number; downloadTimeInMs?: number } }) => {
      const t = e.throughputValues;
      if (!t || typeof t.value !== 'number' || !t.downloadedBytes || !t.downloadTimeInMs) return;
      const rawKbps = Math.round((8 * t.downloadedBytes) / t.downloadTimeInMs);
      const w = CMSD_ETP_WEIGHT_RATIO;
      const impliedEtpKbps = Math.abs(t.value - rawKbps) < 1e-6 ? null : (t.value - rawKbps * (1 - w)) / w;
      keepLast(this.throughputSamples, { valueKbps: t.value, rawKbps, impliedEtpKbps, downloadedBytes: t.downloadedBytes });
    }, this);
    player.on(events.ERROR, (e: { error?: { code?: number; message?: string } }) => {
      const message = `dash.js error ${e.error?.code ?? ''}: ${e.error?.message ?? 'unknown'}`;
      if (!this.metrics.hasStarted) this.fail(this.startFailure(message));
      else this.note(message);
    });
    player.on(events.STREAM_INITIALIZED, () => {
      const reps: Representation[] = player.getRepresentationsByType('video');
      this.topKbps = Math.max(0, ...reps.map((r) => r.bandwidth / 1000));
      if (pinned && this.params.pinnedBitrateKbps !== null && reps.length > 0) {
        const target = this.params.pinnedBitrateKbps;
        const best = reps.reduce((a, b) => (Math.abs(b.bandwidth / 1000 - target) < Math.abs(a.bandwidth / 1000 - target) ? b : a));
        player.setRepresentationForTypeById('video', best.id, true);
      }
    });
    player.on(events.QUALITY_CHANGE_RENDERED, (e: { mediaType: string; newRepresentation?: Representation }) => {
      if (e.mediaType !== 'video' || !e.newRepresentation) return;
      const kbps = e.newRepresentation.bandwidth / 1000;
      const before = this.metrics.snapshot(performance.now()).currentBitrateKbps;
      this.metrics.onRenditionRendered(performance.now(), kbps);
      if (before !== kbps) this.pane.logEvent(`rendition ${before} → ${kbps} kbit/s`, 'switch');
    });
    player.on(events.FRAGMENT_LOADING_COMPLETED, (e: { request?: unknown }) => {
      const req = e.request as { mediaType?: string; type?: string; bandwidth?: number; representation?: { bandwidth?: number } } | undefined;
      if (!req) return;
      if (req.mediaType === 'video' && req.type === 'MediaSegment') {
        const bandwidth = req.representation?.bandwidth ?? req.bandwidth ?? 0;
        if (bandwidth > 0) this.metrics.onSegmentLoaded(bandwidth / 1000);
        // Segments start in order, so the first one loaded is the first one shown.
        if (this.firstSegmentKbps === null && bandwidth > 0) this.firstSegmentKbps = bandwidth / 1000;
      }
    });
    const video = this.pane.video;
    video.addEventListener('playing', () => {
      if (!this.metrics.hasStarted) {
        // dash.js reports QUALITY_CHANGE_RENDERED for later switches only; the first rendition is the first segment's.
        const rep = player.getCurrentRepresentationForType('video');
        const firstKbps = this.firstSegmentKbps ?? (rep ? rep.bandwidth / 1000 : null);
        if (firstKbps !== null && this.metrics.snapshot(performance.now()).currentBitrateKbps === 0) {
          this.metrics.onRenditionRendered(performance.now(), firstKbps);
        }
        this.pane.logEvent(`playback started at ${firstKbps ?? '?'} kbit/s after ${((performance.now() - this.startedMs) / 1000).toFixed(2)} s`);
        if (this.watchdog) clearTimeout(this.watchdog);
      }
      if (this.metrics.isStalled) this.pane.logEvent('playing again');
      this.metrics.onPlaying(performance.now());
      this.setState('playing');
    });
    video.addEventListener('waiting', () => {
      const wasStalled = this.metrics.isStalled;
      this.metrics.onWaiting(performance.now());
      if (this.metrics.isStalled) {
        this.setState('stalled');
        if (!wasStalled) this.pane.logEvent(`stall at ${video.currentTime.toFixed(1)} s (buffer empty)`, 'stall');
      }
    });
    video.addEventListener('ended', () => {
      this.metrics.onEnded(performance.now());
      this.setState('ended');
      this.pane.logEvent('end of stream');
      this.markFinished('ended');
    });
    video.addEventListener('error', () => this.note(`video element error: ${video.error?.message ?? video.error?.code ?? 'unknown'}`));
    let bytesAtLastCheck = 0;
    const checkStartup = (): void => {
      if (this.metrics.hasStarted || this.state === 'error') return;
      const bytesNow = this.receivedBytes();
      const waitedS = (performance.now() - this.startedMs) / 1000;
      if (startupVerdict({ errors: this.errors.length, bytesNow, bytesAtLastCheck }) === 'wait') {
        this.pane.logEvent(`no playback after ${waitedS.toFixed(0)} s: ${(bytesNow / 1e6).toFixed(2)} MB received, too slowly for the first segment yet; waiting`, 'stall');
        bytesAtLastCheck = bytesNow;
        this.watchdog = setTimeout(checkStartup, startupWatchdogMs);
        return;
      }
      this.fail(`No playback after ${waitedS.toFixed(0)} s. ${this.errors.at(-1) ?? (bytesNow > 0 ? `${(bytesNow / 1e6).toFixed(2)} MB arrived, none in the last ${startupWatchdogMs / 1000} s.` : 'The origin sent nothing usable.')}`);
    };
    this.watchdog = setTimeout(checkStartup, startupWatchdogMs);
    player.initialize(video, manifestUrl, true);
    this.playerInitializedMs = performance.now();
    this.sampler = setInterval(() => this.sample(), 1000);
  }

  /** `inner` as it is, noting when dash.js (or an early request) first asked for the manifest and a media segment. */
  private markRequests(inner: MediaFetcher & StreamSource): MediaFetcher & StreamSource {
    const mark = (path: string): void => {
      const pathname = path.split('?', 1)[0]!;
      if (this.manifestRequestMs === null && pathname.endsWith('.mpd')) this.manifestRequestMs = performance.now();
      if (this.firstSegmentRequestMs === null && pathname.endsWith('.m4s')) this.firstSegmentRequestMs = performance.now();
    };
    return {
      fetch: (path, range, onProgress, signal) => {
        mark(path);
        return inner.fetch(path, range, onProgress, signal);
      },
      stream: (path, onChunk, signal) => {
        mark(path);
        return inner.stream(path, onChunk, signal);
      },
    };
  }

  private startupTimeline(startupDelayS: number | null): StartupTimeline {
    const open = this.fetcher?.firstOpen ?? null;
    return {
      sessionStart: this.params.sessionStart,
      workerScript: this.params.workerScript,
      workerScriptProtocol: open?.workerScriptProtocol ?? null,
      sessionCreatedMs: this.startedMs,
      certHashSource: open?.certHashSource ?? null,
      pageHashFailed: open?.pageHashFailed ?? false,
      certHashFetchStartMs: open?.certHashFetchStartMs ?? null,
      certHashFetchEndMs: open?.certHashFetchEndMs ?? null,
      workerCreatedMs: open?.workerCreatedMs ?? null,
      workerRunningMs: open?.workerRunningMs ?? null,
      connectStartMs: open?.connectStartMs ?? null,
      sessionReadyMs: open?.readyMs ?? null,
      playerCreatedMs: this.playerCreatedMs,
      playerInitializedMs: this.playerInitializedMs,
      manifestRequestMs: this.manifestRequestMs,
      firstSegmentRequestMs: this.firstSegmentRequestMs,
      playbackStartMs: startupDelayS === null ? null : this.startedMs + startupDelayS * 1000,
    };
  }

  private startFailure(dashError: string): string {
    const now = performance.now();
    if (this.receivedBytes() > this.lastSampleBytes) this.lastBytesArrivedMs = now;
    return startFailureMessage({
      dashError, content: this.params.content, transport: this.params.transport, bytesReceived: this.receivedBytes(),
      elapsedS: (now - this.startedMs) / 1000, requestTimeouts: this.requestTimeouts,
      sinceLastBytesS: this.lastBytesArrivedMs === null ? null : (now - this.lastBytesArrivedMs) / 1000, sharedLink: this.sharedLink,
    });
  }

  private sample(): void {
    const player = this.player;
    if (!player) return;
    const now = performance.now();
    const video = this.pane.video;
    this.metrics.setPosition(video.currentTime);
    const bytes = this.receivedBytes();
    if (bytes > this.lastSampleBytes) this.lastBytesArrivedMs = now;
    const dtS = Math.max(0.001, (now - this.lastSampleMs) / 1000);
    const goodputBps = ((bytes - this.lastSampleBytes) * 8) / dtS;
    this.lastSampleBytes = bytes;
    this.lastSampleMs = now;
    const window = this.telemetryWindow;
    this.telemetryWindow = [];
    const mean = (xs: (number | null)[]): number | null => {
      const v = xs.filter((x): x is number => x !== null);
      return v.length > 0 ? v.reduce((a, b) => a + b, 0) / v.length : null;
    };
    const recent = window.length > 0 ? window : this.lastTelemetry ? [this.lastTelemetry] : [];
    const sendRateBps = mean(recent.map((p) => p.sendRateBps));
    const rttUs = mean(recent.map((p) => p.rttUs));
    const lossRate = mean(recent.map((p) => p.lossRate));
    const bufferS = player.getBufferLength('video') || 0;
    const rep = player.getCurrentRepresentationForType('video');
    const bitrateKbps = rep ? rep.bandwidth / 1000 : 0;
    if (this.counters) this.metrics.setDatagramCounts(this.counters.datagramsReceived, this.counters.datagramsLost, this.counters.datagramsDeclaredLost, this.counters.acksSent);
    this.metrics.onBytesTotal(bytes);
    const tS = (now - this.startedMs) / 1000;
    this.metrics.addSecondSample({ tS, currentTimeS: video.currentTime, bufferS, bitrateKbps, goodputBps, sendRateBps, rttUs, lossRate });
    const snap = this.metrics.snapshot(now);
    this.pane.charts.setStalls(snap.stallIntervalsS);
    this.pane.charts.push({
      tS,
      sendRateMbps: sendRateBps !== null ? sendRateBps / 1e6 : null,
      goodputMbps: goodputBps / 1e6,
      bitrateMbps: bitrateKbps / 1000,
      rttMs: rttUs !== null ? rttUs / 1000 : null,
      lossPercent: lossRate !== null ? lossRate * 100 : null,
      bufferS,
    });
    this.pane.stats.update({
      bitrateKbps, bufferS, goodputMbps: goodputBps / 1e6,
      sendRateMbps: sendRateBps !== null ? sendRateBps / 1e6 : null,
      rttMs: rttUs !== null ? rttUs / 1000 : null,
      lossPercent: lossRate !== null ? lossRate * 100 : null,
      startupDelayS: snap.startupDelayS, stallCount: snap.stallCount, totalStallS: snap.totalStallS,
      bufferingRatio: snap.bufferingRatio, switchCount: snap.switchCount, bytesReceived: snap.bytesReceived,
      datagramsReceived: this.counters ? snap.datagramsReceived : null,
      datagramsDropped: this.counters ? snap.datagramsDropped : null,
      positionS: video.currentTime,
    });
  }

  cmsdReport(): CmsdReport {
    let lastVideoRequestCmsd: unknown = null;
    try {
      const request = this.player?.getDashMetrics().getCurrentHttpRequest('video') as { cmsd?: unknown } | null | undefined;
      lastVideoRequestCmsd = request?.cmsd ?? null;
    } catch {
      /* no metrics before the first request */
    }
    const settings = this.player?.getSettings().streaming;
    const throughput = settings?.abr?.throughput;
    return {
      etpWeightRatio: CMSD_ETP_WEIGHT_RATIO, handed: this.cmsdHanded.slice(), samples: this.throughputSamples.slice(),
      lastVideoRequestCmsd: JSON.parse(JSON.stringify(lastVideoRequestCmsd ?? null)) as unknown,
      abrSettings: settings ? {
        averageCalculationMode: throughput?.averageCalculationMode, vodSamples: throughput?.sampleSettings?.vod,
        sampleSizeAdjustment: throughput?.sampleSettings?.enableSampleSizeAdjustment, abandonLoadTimeoutMs: settings.abandonLoadTimeout,
        fastSwitchEnabled: settings.buffer?.fastSwitchEnabled, abandonRequestsRuleActive: settings.abr?.rules?.abandonRequestsRule?.active,
      } : null,
      abandonRule: { mode: this.params.abandon, checks: this.abandonChecks, abandoned: this.abandonedByRule.slice() },
    };
  }

  /** Per-segment ABR record (metrics/abr-segment-log.ts); empty before dash.js started. */
  abrSegments(): AbrLogRecord[] {
    return this.abrLog?.list() ?? [];
  }

  report(): SessionReport {
    const now = performance.now();
    // After a failure or a stop the player was reset (the element rewinds); keep the last position seen.
    if (this.state !== 'error' && this.finishedMs === null) this.metrics.setPosition(this.pane.video.currentTime);
    // The byte count as of now, not of the last once-a-second sample: it is read against the link's own count.
    this.metrics.onBytesTotal(this.receivedBytes());
    const snapshot = this.metrics.snapshot(now);
    return {
      ...snapshot,
      label: this.params.label,
      clockStartEpochMs: performance.timeOrigin + this.startedMs,
      bytesReceivedAtEpochMs: this.counters ? this.counters.countedAtEpochMs : performance.timeOrigin + now,
      scheme: this.params.scheme,
      cc: this.params.cc,
      transport: this.params.transport,
      content: this.params.content,
      state: this.state,
      topBitrateKbps: this.topKbps,
      ...this.prefetchReport(),
      playerStatesSent: this.streamFetcher?.counters.playerStatesSent ?? 0,
      playerStateFailures: this.streamFetcher?.counters.playerStateFailures ?? 0,
      streamState: this.streamFetcher?.state() ?? null,
      errors: this.errors.slice(),
      transportSessions: this.fetcher?.sessions ?? null,
      startup: this.startupTimeline(snapshot.startupDelayS),
    };
  }

  private prefetchReport(): Pick<SessionReport, 'prefetch' | 'prefetchIssued' | 'prefetchHits' | 'prefetchCancelled' | 'prefetchBytes' | 'prefetchWasteBytes' | 'segmentGapCount' | 'segmentGapMeanMs' | 'segmentGapP50Ms' | 'segmentGapP95Ms' | 'stream'> {
    const s = this.streamFetcher?.counters;
    const c = s ? {
      prefetchIssued: s.streamsOpened, prefetchHits: s.segmentsServed, prefetchCancelled: s.streamsCancelled,
      prefetchBytes: s.streamBytes, prefetchWasteBytes: s.wasteBytes, segmentGapsMs: s.segmentGapsMs,
    } : this.mediaFetcher?.counters;
    const gaps = (c?.segmentGapsMs ?? []).slice().sort((a, b) => a - b);
    const at = (q: number): number | null => (gaps.length === 0 ? null : gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))]!);
    return {
      prefetch: this.params.prefetch,
      stream: this.params.stream,
      prefetchIssued: c?.prefetchIssued ?? 0, prefetchHits: c?.prefetchHits ?? 0, prefetchCancelled: c?.prefetchCancelled ?? 0,
      prefetchBytes: c?.prefetchBytes ?? 0, prefetchWasteBytes: c?.prefetchWasteBytes ?? 0,
      segmentGapCount: gaps.length,
      segmentGapMeanMs: gaps.length === 0 ? null : gaps.reduce((a, b) => a + b, 0) / gaps.length,
      segmentGapP50Ms: at(0.5), segmentGapP95Ms: at(0.95),
    };
  }

  /** performance.now() at which the session's clock (its series' tS, its stall intervals) starts. */
  get clockStartMs(): number {
    return this.startedMs;
  }

  /** The session clock (s) at which it finished, or null while it runs. */
  get finishedAtS(): number | null {
    return this.finishedMs === null ? null : (this.finishedMs - this.startedMs) / 1000;
  }

  /** The viewer's Stop: the metrics freeze now (a stall in progress ends here, counted up to now) and the session
   *  releases its player and transport; window.pccPlayer.metrics() keeps returning the frozen figures. */
  finish(): void {
    if (this.finishedMs !== null) return;
    const now = performance.now();
    if (this.state !== 'error') this.metrics.setPosition(this.pane.video.currentTime);
    this.metrics.onEnded(now);
    this.markFinished('stopped', now);
    try {
      this.stop();
    } catch {
      // dash.js may throw while resetting a half-initialised player; nothing is left to release then
    }
    if (this.state !== 'error') this.pane.logEvent('stopped by the viewer');
    this.setState('ended');
  }

  private markFinished(reason: 'ended' | 'stopped', nowMs = performance.now()): void {
    if (this.finishedMs !== null) return;
    this.finishedMs = nowMs;
    this.onFinished?.(reason);
  }

  stop(): void {
    this.mediaFetcher?.close();
    this.streamFetcher?.close();
    if (this.sampler) clearInterval(this.sampler);
    if (this.watchdog) clearTimeout(this.watchdog);
    this.player?.reset();
    this.fetcher?.close();
  }

  private setState(state: 'loading' | 'playing' | 'stalled' | 'ended' | 'error'): void {
    if (this.state === 'error') return;
    this.state = state;
    this.pane.setState(state);
  }

  /** Media bytes received so far, over whichever transport the session uses. */
  private receivedBytes(): number {
    return this.counters ? this.counters.bytesReceived : this.httpFetcher?.bytesReceived ?? 0;
  }

  private note(message: string): void {
    this.pane.logEvent(message, 'error');
    this.errors.push(message);
    if (this.errors.length > 50) this.errors.shift();
  }

  private fail(message: string): void {
    if (this.state === 'error') return;
    this.note(message);
    this.pane.showError(message);
    this.state = 'error';
    this.onFatal(`${this.params.label}: ${message}`);
    // Stop retrying and release the session; the charts keep what they showed.
    try {
      this.stop();
    } catch {
      // dash.js may throw while resetting a half-initialised player; nothing is left to release then
    }
  }
}
