// Datagram delivery for one session: the per-session controller, the sender registered with the
// process-wide send loop, the ACK receive loop and per-MI telemetry.
import type { Controller } from '@pcc-stream/controller';
import { CLOSE_PROTOCOL_VIOLATION, DELIVERY_DATAGRAMS, type CmcdState, type CmsdDynamic, type RequestFrame } from '@pcc-stream/protocol';
import { isSessionClosedError, type Session } from '@pcc-stream/quic';
import type { Pacer } from '../datagram/departure-schedule.ts';
import { nowUs } from '../clock.ts';
import { cryptoRandom } from '../crypto-random.ts';
import { DatagramSender, OUT_OF_ORDER_SEND } from '../datagram/datagram-sender.ts';
import { OutgoingRequest } from '../datagram/outgoing-request.ts';
import { receiveDatagramBatches } from '../datagram/receive-batches.ts';
import type { SendLoop, SendLoopMember } from '../datagram/send-loop.ts';
import { errorMessage, log } from '../log.ts';
import type { OpenedBody } from '../media/media-store.ts';
import { MiTelemetry } from '../telemetry/mi-telemetry.ts';
import type { RequestStream } from './request-stream.ts';
import { serveTelemetryFeed } from './telemetry-feed.ts';
import { servedOutcome, type ResponseCmsd, type ServeOutcome, type TransportHandler } from './transport-handler.ts';

const TELEMETRY_SAMPLE_INTERVAL_US = 1000;

/** Where CMSD `etp` comes from (--etp-source): `pacing` (default), the controller's rate from the first RTT sample,
 *  its initial rate included; `measured`, the controller's rate once it rests on what the path delivered. `pacing`
 *  stays the default: on the real path `measured` asked for 4000 kbit/s sooner but showed less
 *  (bench/published/2026-11-25/cmsd-etp-startup). PROTOCOL.md §2.7. */
export const ETP_SOURCES = ['measured', 'pacing'] as const;
export type EtpSource = (typeof ETP_SOURCES)[number];
export const DEFAULT_ETP_SOURCE: EtpSource = 'pacing';

/** The controllers' start-up phases (telemetry `state`: vivace's and cubic's slow start, allegro's starting, bbr's and
 *  pcp's startup; cubic's HyStart++ conservative slow start): the rate doubles from an initial or base rate until
 *  the path pushes back, so it is a probe, not an estimate of what the path carries. */
export const START_UP_STATES: ReadonlySet<string> = new Set(['slow_start', 'conservative_slow_start', 'starting', 'startup']);

/**
 * CMSD `etp` (kbit/s) from the controller, or undefined for none. `measured`: the pacing rate once the controller has
 * heard a delivery (an ACK) and is out of its start-up phase. Before that its rate is the initial 1000 kbit/s or a
 * doubling of it, and dash.js blends etp into its first throughput samples, whose harmonic mean keeps the blend for
 * five downloads (bench/published/2026-11-25/lte-fade-cut-regain/why-abr.md §2). `fixed` has no start-up: its set
 * rate goes out from the first ACK. Not max(pacing, delivery rate): over a monitor interval delivery cannot exceed
 * what was sent, so the max only differs right after the controller cut its rate, when the older delivery rate is the
 * stale figure. `pacing`: the pacing rate (the caller sends etp only once the sender has an RTT sample).
 */
export function controllerEtpKbps(source: EtpSource, controller: Controller): number | undefined {
  if (source === 'measured') {
    const t = controller.telemetry();
    if (t.packetsAcked <= 0 || START_UP_STATES.has(t.state)) return undefined;
  }
  return (controller.pacingRateBytesPerSec() * 8) / 1000;
}

export class DatagramTransport implements TransportHandler, SendLoopMember {
  readonly transport = 'datagram';
  readonly sender: DatagramSender;
  readonly telemetry: MiTelemetry;
  /** Per request being served: called with `true` when its body is acknowledged, `false` when the session closed first. */
  private readonly completions = new Map<number, (acknowledged: boolean) => void>();
  private lastTelemetrySampleUs = -Infinity;
  private closed = false;

  constructor(
    private readonly quic: Session,
    private readonly controller: Controller,
    private readonly sendLoop: SendLoop,
    logDir: string | null,
    private readonly onFatal: (code: number, reason: string) => void,
    maxPacketsInFlight = Infinity,
    pacing: { burstUs?: number; pacer?: Pacer } = {},
    private readonly etpSource: EtpSource = DEFAULT_ETP_SOURCE,
  ) {
    const now = nowUs();
    this.telemetry = new MiTelemetry(quic.id, controller.algorithm, logDir, now);
    this.sender = new DatagramSender(controller, quic, {
      onFatal: (code, reason) => this.onFatal(code, reason),
      onRequestComplete: (request) => this.completions.get(request.requestId)?.(true),
      onProgress: (t) => this.sampleTelemetry(t),
      // A bug of ours, not the peer's: the session is closed for it (onFatal follows).
      onOutOfOrderSend: (packetNumber, largestSentNumber) => log('error', OUT_OF_ORDER_SEND, {
        session: this.quic.id, packet_number: packetNumber, largest_sent: largestSentNumber,
      }),
    }, { random: cryptoRandom, maxDatagramBytes: quic.maxDatagramSize(), initialWindowBytes: 1 << 20, nowUs: now, maxPacketsInFlight,
      ...(pacing.burstUs === undefined ? {} : { pacingBurstUs: pacing.burstUs }), ...(pacing.pacer === undefined ? {} : { pacer: pacing.pacer }) });
    sendLoop.add(this);
    void this.receiveLoop().catch((err: unknown) => {
      // ACK processing threw (a bug of ours): as for a failed send turn, only this session is closed. Unhandled, the
      // rejection would end the origin process, every other session with it.
      if (isSessionClosedError(err)) return; // it ended meanwhile: its release follows from closed()
      this.closeForOwnBug('session.ack_processing_failed', errorMessage(err));
    });
  }

  get algorithm(): string {
    return this.controller.algorithm;
  }

  private receiveLoop(): Promise<void> {
    // RTT samples use the time the addon took the ACKs off the connection: the send loop sleeps up to
    // 1 ms between turns, and at loopback RTTs that wait would read as a rising RTT.
    return receiveDatagramBatches(this.quic, () => this.closed, (datagrams, now, receivedAtUs) => {
      this.sender.onDatagrams(datagrams, now, receivedAtUs);
      this.sendLoop.wake(this);
    });
  }

  service(now: number): number {
    return this.sender.service(now);
  }

  onServiceError(err: unknown): void {
    const message = errorMessage(err);
    // The addon's sends throw with this code once the session has ended, whichever side ended it.
    if (isSessionClosedError(err)) {
      // The peer closed the session (or it timed out) after this turn was due and before quic.closed() told us:
      // a player abandoning a segment does this. Its release follows from closed(); it is neither our failure nor
      // the client's violation, which is what closing it with code 1 here used to count it as.
      log('info', 'send_loop.session_ended', { session: this.quic.id, reason: message.slice(0, 200) });
      return;
    }
    this.closeForOwnBug('send_loop.session_failed', message);
  }

  /** A bug of ours, not the peer's, broke this session: log it and close only this session (code 1, `internal error`). */
  private closeForOwnBug(event: string, message: string): void {
    log('error', event, { session: this.quic.id, error: message });
    this.onFatal(CLOSE_PROTOCOL_VIOLATION, `internal error: ${message}`);
  }

  private sampleTelemetry(now: number): void {
    // Lines start with the first packet sent: the send loop's first turn (at the session's start) would otherwise write
    // an MI-0 line, and a file, for every session, the hostile ones that never ask for media included.
    if (this.sender.tracker.packetsSent === 0) return;
    if (now - this.lastTelemetrySampleUs < TELEMETRY_SAMPLE_INTERVAL_US) return;
    this.lastTelemetrySampleUs = now;
    this.telemetry.sample(this.controller.telemetry(), {
      sentBytes: this.sender.sentBytes, sentDatagramBytes: this.sender.sentDatagramBytes, retransmittedBytes: this.sender.retransmittedBytes, packetsLost: this.sender.tracker.packetsLost,
    }, now);
  }

  /**
   * CMSD `etp` is the controller's rate once it is an estimate of what the path carries (controllerEtpKbps), which a
   * download time stretched by request gaps and ramps is not (issue 18 item 6); `rtt` the sender's smoothed RTT.
   */
  deliveryEstimate(): Pick<CmsdDynamic, 'etpKbps' | 'rttMs'> {
    const rtt = this.sender.tracker.rtt;
    if (!Number.isFinite(rtt.minUs)) return {};
    const etpKbps = controllerEtpKbps(this.etpSource, this.controller);
    return { ...(etpKbps === undefined ? {} : { etpKbps }), rttMs: rtt.smoothedUs / 1000 };
  }

  /**
   * The player's state from CMCD (PROTOCOL.md §2.6): the latest report is recorded for /status and every telemetry
   * line; the controller's application-state event (buffer, bitrate, deadline; issue 18 item 2) gets the binding
   * state over the media types the player fetches (datagram/binding-player-state.ts).
   */
  onPlayerState(state: CmcdState, nowUs: number): void {
    this.telemetry.player.set(state, nowUs);
    this.sender.onPlayerState(state, nowUs);
  }

  async serveBody(request: RequestFrame, stream: RequestStream, opened: OpenedBody, cmsd: ResponseCmsd): Promise<ServeOutcome> {
    const id = request.requestId;
    const responded = await stream.write({
      type: 'response', requestId: id, status: opened.status, delivery: DELIVERY_DATAGRAMS, totalSize: opened.totalSize,
      bodyOffset: opened.bodyOffset, bodyLength: opened.bodyLength, contentType: opened.contentType, reason: '', ...cmsd,
    });
    if (!responded || this.closed) {
      opened.body.close();
      return servedOutcome('cancelled', 0, this.closed, stream);
    }
    const outgoing = new OutgoingRequest(id, opened.body, opened.bodyOffset, opened.bodyLength, nowUs());
    if (opened.bodyLength > 0) {
      const done = new Promise<boolean>((resolve) => this.completions.set(id, resolve));
      this.sender.addRequest(outgoing, request.windowBytes);
      this.sendLoop.wake(this);
      const cancelled = stream.untilCancelled();
      const winner = await Promise.race([done, cancelled]);
      this.completions.delete(id);
      if (winner !== true) {
        this.sender.removeRequest(id);
        // Our session's end resolves `done` with false; the peer's fails the stream's read.
        const ended = servedOutcome('cancelled', outgoing.bytesSent, winner === false || this.closed, stream);
        if (ended.outcome === 'interrupted') return ended;
        log('info', 'request.cancelled', { session: this.quic.id, request: id, why: winner, acked_bytes: outgoing.ackedBytes });
        await stream.finish();
        return { outcome: 'cancelled', bodyBytesSent: outgoing.bytesSent };
      }
    } else {
      opened.body.close();
    }
    // Every body byte is acknowledged, but the client learns the request ended only from DONE.
    const told = await stream.write({
      type: 'done', requestId: id, bytesSent: outgoing.bytesSent, retransmittedBytes: outgoing.retransmittedBytes,
      packetsSent: outgoing.packetsSent, packetsLost: outgoing.packetsLost, durationUs: nowUs() - outgoing.startedUs,
    });
    const finished = told && (await stream.finish());
    if (!finished) return { outcome: 'interrupted', bodyBytesSent: outgoing.bytesSent, why: stream.sessionClosed ?? (told ? null : 'DONE could not be written') };
    stream.stopReading();
    return servedOutcome('complete', outgoing.bytesSent, this.closed, stream);
  }

  serveTelemetry(request: RequestFrame, stream: RequestStream): Promise<void> {
    return serveTelemetryFeed(this.telemetry, request, stream);
  }

  close(): Promise<void> {
    if (this.closed) return this.telemetry.close();
    this.closed = true;
    this.sendLoop.remove(this);
    // A session that never sent (a hostile one closed at once) has no stalls to tell.
    if (this.sender.tracker.packetsSent > 0) log('info', 'session.stall_reasons', { session: this.quic.id, ...this.sender.stallReasons.fields() });
    this.sender.close();
    for (const resolve of this.completions.values()) resolve(false);
    this.completions.clear();
    const filesClosed = this.telemetry.close();
    this.controller.destroy();
    return filesClosed;
  }

  stats(): Record<string, number | string> {
    return {
      algorithm: this.controller.algorithm,
      sent_bytes: this.sender.sentBytes,
      sent_datagram_bytes: this.sender.sentDatagramBytes,
      // A closed session's controller is destroyed; it may still be listed until QUIC reports the close.
      pacing_rate_bps: this.closed ? 0 : Math.round(this.controller.pacingRateBytesPerSec() * 8),
      retransmitted_bytes: this.sender.retransmittedBytes,
      packets_sent: this.sender.tracker.packetsSent,
      packets_lost: this.sender.tracker.packetsLost,
      lost_by_packet_threshold: this.sender.tracker.lostByPacketThreshold,
      lost_by_time_threshold: this.sender.tracker.lostByTimeThreshold,
      probe_timeouts: this.sender.tracker.probeTimeouts,
      packets_probed: this.sender.tracker.packetsProbed,
      spurious_losses: this.sender.tracker.spuriousLosses,
      out_of_order_sends: this.sender.tracker.outOfOrderSends,
      acks_received: this.sender.acksReceived,
      srtt_us: Math.round(this.sender.tracker.rtt.smoothedUs),
      min_rtt_us: Number.isFinite(this.sender.tracker.rtt.minUs) ? Math.round(this.sender.tracker.rtt.minUs) : 0,
      mean_ack_delay_us: this.sender.acksReceived === 0 ? 0 : Math.round(this.sender.ackDelaySumUs / this.sender.acksReceived),
      max_burst_bytes: this.sender.maxBurstBytes,
      service_turns: this.sender.serviceTurns,
      batches_sent: this.sender.batchesSent,
      mean_handover_lag_us: this.sender.tracker.packetsSent === 0 ? 0 : Math.round(this.sender.handoverLagSumUs / this.sender.tracker.packetsSent),
      max_handover_lag_us: this.sender.handoverLagMaxUs,
      backpressure_events: this.sender.backpressureEvents,
      pacer: this.sender.pacer,
      pacing_late_credit_bytes: Math.round(this.sender.pacingLateCreditBytes),
      pacing_repaid_bytes: Math.round(this.sender.pacingRepaidBytes),
      ...this.sender.stallReasons.fields(),
      active_requests: this.sender.activeRequests,
      tracked_packets: this.sender.tracker.trackedPackets,
      bytes_in_flight: this.sender.tracker.bytesInFlight,
      ...this.telemetry.player.fields(nowUs()),
    };
  }
}

