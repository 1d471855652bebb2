// Playback quality bookkeeping for one session, driven by timestamped events so it is testable without a browser.
// Buffering ratio follows thesis §5.2 (time spent buffering relative to the session); startup delay is excluded from
// it and reported on its own, as the issue asks. A stall starts with `waiting` once playback has begun and ends at the
// next `playing`.
import { averageSegmentBitrateKbps, bufferingRatio, bufferingRatioWithStartup, playedBitrateKbps } from '@pcc-stream/protocol';

export interface SecondSample {
  /** Seconds since the session started. */
  tS: number;
  currentTimeS: number;
  bufferS: number;
  bitrateKbps: number;
  stalled: boolean;
  goodputBps: number;
  sendRateBps: number | null;
  rttUs: number | null;
  lossRate: number | null;
}

export interface MetricsSnapshot {
  startupDelayS: number | null;
  stallCount: number;
  totalStallS: number;
  playingS: number;
  /** stall / (stall + playing), startup excluded. */
  bufferingRatio: number;
  /** (startup + stall) / (startup + stall + playing): the ratio if startup counted as buffering. */
  bufferingRatioWithStartup: number;
  /** Mean nominal bitrate of the video segments downloaded, superseded copies included (averageSegmentBitrateKbps). */
  averageBitrateKbps: number;
  /** Nominal bitrate of the rendition on screen, weighted by playing time (playedBitrateKbps); 0 before any playing. */
  timeWeightedBitrateKbps: number;
  currentBitrateKbps: number;
  maxBitrateKbpsReached: number;
  switchCount: number;
  bytesReceived: number;
  datagramsReceived: number;
  /** DATA datagrams the sender sent that never arrived (network or browser drops). */
  datagramsDropped: number;
  /** Packets the sender declared lost; above datagramsDropped when late ACKs made it declare arrived packets lost. */
  datagramsDeclaredLost: number;
  acksSent: number;
  segmentsLoaded: number;
  playbackPositionS: number;
  /** Each stall's start and end in seconds since the session started (end null while it lasts), for the charts. */
  stallIntervalsS: Array<{ startS: number; endS: number | null }>;
  series: SecondSample[];
}

export class PlaybackMetrics {
  private readonly sessionStartMs: number;
  private playbackStartMs: number | null = null;
  private endedAtMs: number | null = null;
  private renderedKbps = 0;
  private renderedSinceMs = 0;
  private bitrateTimeProductClosed = 0; // kbps × ms over closed intervals of playing time
  private maxKbps = 0;
  private switches = 0;
  private segmentKbpsSum = 0;
  private segments = 0;
  private bytes = 0;
  private datagrams = 0;
  private dropped = 0;
  private declaredLost = 0;
  private acks = 0;
  private position = 0;
  private readonly samples: SecondSample[] = [];
  /** Every stall, in order; the last one is open (endMs null) while it lasts. Count and time derive from it. */
  private readonly stallIntervalsMs: Array<{ startMs: number; endMs: number | null }> = [];

  constructor(sessionStartMs: number) {
    this.sessionStartMs = sessionStartMs;
  }

  get hasStarted(): boolean {
    return this.playbackStartMs !== null;
  }

  get isStalled(): boolean {
    return this.stallIntervalsMs.at(-1)?.endMs === null;
  }

  onPlaying(nowMs: number): void {
    if (this.playbackStartMs === null) {
      this.playbackStartMs = nowMs;
      this.renderedSinceMs = nowMs;
      return;
    }
    if (this.isStalled) {
      this.stallIntervalsMs.at(-1)!.endMs = nowMs;
      this.renderedSinceMs = nowMs; // stall time does not count toward the time-weighted bitrate
    }
  }

  onWaiting(nowMs: number): void {
    if (this.playbackStartMs === null || this.isStalled || this.endedAtMs !== null) return;
    this.closeBitrateInterval(nowMs);
    this.stallIntervalsMs.push({ startMs: nowMs, endMs: null });
  }

  onEnded(nowMs: number): void {
    if (this.endedAtMs !== null) return;
    this.onPlaying(nowMs);
    this.closeBitrateInterval(nowMs);
    this.endedAtMs = nowMs;
  }

  /** The rendition now on screen (dash.js QUALITY_CHANGE_RENDERED for video). */
  onRenditionRendered(nowMs: number, kbps: number): void {
    if (this.renderedKbps !== 0 && kbps !== this.renderedKbps) this.switches += 1;
    this.closeBitrateInterval(nowMs);
    this.renderedKbps = kbps;
    this.maxKbps = Math.max(this.maxKbps, kbps);
  }

  onSegmentLoaded(kbps: number): void {
    this.segmentKbpsSum += kbps;
    this.segments += 1;
  }

  /** Total body bytes received so far by the transport (a running count, not an increment). */
  onBytesTotal(bytes: number): void {
    this.bytes = bytes;
  }

  setDatagramCounts(received: number, dropped: number, declaredLost: number, acksSent: number): void {
    this.datagrams = received;
    this.dropped = dropped;
    this.declaredLost = declaredLost;
    this.acks = acksSent;
  }

  setPosition(currentTimeS: number): void {
    this.position = currentTimeS;
  }

  addSecondSample(sample: Omit<SecondSample, 'stalled'>): void {
    this.samples.push({ ...sample, stalled: this.isStalled });
  }

  snapshot(nowMs: number): MetricsSnapshot {
    const endMs = this.endedAtMs ?? nowMs;
    const stallMs = this.stallIntervalsMs.reduce((sum, i) => sum + (i.endMs ?? endMs) - i.startMs, 0);
    const startupMs = this.playbackStartMs !== null ? this.playbackStartMs - this.sessionStartMs : null;
    const playingMs = this.playbackStartMs !== null ? Math.max(0, endMs - this.playbackStartMs - stallMs) : 0;
    const openBitrateMs = this.playbackStartMs !== null && !this.isStalled && this.endedAtMs === null
      ? Math.max(0, nowMs - this.renderedSinceMs) : 0;
    const bitrateTimeProduct = this.bitrateTimeProductClosed + openBitrateMs * this.renderedKbps;
    const startupForRatioMs = startupMs ?? endMs - this.sessionStartMs;
    return {
      startupDelayS: startupMs !== null ? startupMs / 1000 : null,
      stallCount: this.stallIntervalsMs.length,
      totalStallS: stallMs / 1000,
      playingS: playingMs / 1000,
      bufferingRatio: bufferingRatio(stallMs, playingMs),
      bufferingRatioWithStartup: bufferingRatioWithStartup(startupForRatioMs, stallMs, playingMs),
      averageBitrateKbps: averageSegmentBitrateKbps(this.segmentKbpsSum, this.segments),
      timeWeightedBitrateKbps: playedBitrateKbps(bitrateTimeProduct, playingMs),
      currentBitrateKbps: this.renderedKbps,
      maxBitrateKbpsReached: this.maxKbps,
      switchCount: this.switches,
      bytesReceived: this.bytes,
      datagramsReceived: this.datagrams,
      datagramsDropped: this.dropped,
      datagramsDeclaredLost: this.declaredLost,
      acksSent: this.acks,
      segmentsLoaded: this.segments,
      playbackPositionS: this.position,
      stallIntervalsS: this.stallIntervalsMs.map((i) => ({
        startS: (i.startMs - this.sessionStartMs) / 1000, endS: i.endMs === null ? null : (i.endMs - this.sessionStartMs) / 1000,
      })),
      series: this.samples.slice(),
    };
  }

  private closeBitrateInterval(nowMs: number): void {
    if (this.playbackStartMs !== null && !this.isStalled && this.endedAtMs === null) {
      this.bitrateTimeProductClosed += Math.max(0, nowMs - this.renderedSinceMs) * this.renderedKbps;
    }
    this.renderedSinceMs = nowMs;
  }
}
