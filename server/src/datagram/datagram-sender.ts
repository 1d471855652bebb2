// The sending half of one datagram session (PROTOCOL.md §4–§7). Each job is its own module; this class runs
// them in order on every turn the send loop gives it (service) and on every batch of client datagrams:
//   token-bucket.ts         pacing at the controller's rate, bursts ≤ max(2 packets, 1 ms of the rate by default)
//   departure-schedule.ts   …or (--pacer addon) departure times a few ms ahead, sent at their times by the addon
//   request-round-robin.ts  which request's data goes next
//   packetizer.ts           DATA datagrams in batches for QUIC; what QUIC refused goes first next time
//   flight-limit.ts         bytes in flight ≤ min(cwnd, receiver window); a silent peer gets two packets
//   probe-timeouts.ts       probe timeouts: oldest data resent beyond those limits, no loss reported
//   ack-guard.ts            only valid ACKs within the session's budget; anything else closes the session
//   controller-ticker.ts    controller ticks and app-limited signals
import type { Controller } from '@pcc-stream/controller';
import { CLOSE_PROTOCOL_VIOLATION, SentPacketTracker, type CmcdState, type SentPacket } from '@pcc-stream/protocol';
import { monotonicNsFromUs, nowUs as processNowUs, usFromMonotonicNs } from '../clock.ts';
import { AckGuard } from './ack-guard.ts';
import { BUSY_SERVICE_INTERVAL_US, ControllerTicker } from './controller-ticker.ts';
import { DepartureSchedule, type Pacer } from './departure-schedule.ts';
import { FlightLimit } from './flight-limit.ts';
import type { OutgoingRequest } from './outgoing-request.ts';
import { MAX_BATCH_PACKETS, Packetizer, type BuiltPacket, type DatagramSink, type PacedDatagramSink } from './packetizer.ts';
import { ProbeTimeouts } from './probe-timeouts.ts';
import { RequestRoundRobin } from './request-round-robin.ts';
import { StallReasons } from './stall-reasons.ts';
import { TokenBucket } from './token-bucket.ts';

export type { DatagramSink, PacedDatagramSink } from './packetizer.ts';

export interface SenderHooks {
  /**
   * Close the session with this code: the peer broke the protocol, or a bug of ours was caught (code 1, the reason
   * `internal error: ` and the bug's name). The sender has stopped already.
   */
  onFatal(code: number, reason: string): void;
  onRequestComplete(request: OutgoingRequest, nowUs: number): void;
  /** Called after ACK processing and timer work, for telemetry sampling. */
  onProgress(nowUs: number): void;
  /**
   * The tracker refused a packet QUIC had taken because a higher number was recorded before it: a bug in the send
   * path (OUT_OF_ORDER_SEND). Called once, just before onFatal closes the session for it.
   */
  onOutOfOrderSend?(packetNumber: number, largestSentNumber: number): void;
}

/**
 * The bug a packet recorded after a higher number shows (the log event, and the name in the close reason). Untracked,
 * that packet would never be declared lost, so its data would never be resent: a silent hole in the body. Nothing
 * the peer does leads here, so the session is closed (code 1) rather than go on.
 */
export const OUT_OF_ORDER_SEND = 'session.out_of_order_send';

/** After QUIC refused datagrams (its send buffer was full), try again this much later: time for it to drain some. */
const BACKPRESSURE_RETRY_US = 300;

/** What stopped a send turn. */
type Limit = 'none' | 'tokens' | 'window' | 'backpressure';

// Scratch for the addon pacer's due times and departure stamps: the send loop runs one session at a time.
const scratchDueUs = new Float64Array(MAX_BATCH_PACKETS);
const scratchDueNs = new Float64Array(MAX_BATCH_PACKETS);
const scratchDepartures = new Float64Array(256);

export class DatagramSender {
  private readonly requests = new Map<number, OutgoingRequest>();
  private readonly rotation = new RequestRoundRobin<OutgoingRequest>();
  readonly tracker: SentPacketTracker;
  private readonly bucket: TokenBucket;
  /** --pacer addon: the departure schedule, and the packets handed over whose departure is not yet collected, oldest first. */
  private readonly schedule: DepartureSchedule | null;
  private readonly pacedSink: PacedDatagramSink | null;
  // Two parallel arrays (a packet and its due time µs) rather than an object per packet on the per-datagram path.
  private awaiting: SentPacket[] = [];
  private awaitingDueUs: number[] = [];
  private awaitingHead = 0;
  /** The rate (B/s) of the turn under way: what a refused packet's schedule time is given back at. */
  private turnRateBytesPerSec = 1;
  private readonly packetizer: Packetizer;
  private readonly flight: FlightLimit;
  private readonly probes = new ProbeTimeouts();
  private readonly ackGuard: AckGuard;
  private readonly ticker: ControllerTicker;
  /** Why turns sent nothing and what held the sender in each pause between sends (issue 17). */
  readonly stallReasons = new StallReasons();
  private lastLimit: Limit = 'none';
  /** Send time of the newest packet (µs): a turn's later controller events are not dated before it. */
  private lastSentUs = 0;
  private backpressured = false;
  private closed = false;
  readonly startUs: number;

  sentBytes = 0;
  /** Whole DATA datagrams handed to QUIC (what the pacing rate applies to). */
  sentDatagramBytes = 0;
  retransmittedBytes = 0;
  /** Calls into QUIC (sendDatagramBatch), one per batch. */
  batchesSent = 0;
  /** service() calls: the turns this session had. */
  serviceTurns = 0;
  backpressureEvents = 0;
  /** Largest burst (bytes handed to QUIC in one service() call). */
  maxBurstBytes = 0;
  /**
   * How much later than its turn began QUIC took each datagram (µs; JS work and event-loop stalls in between); with
   * --pacer addon, how much later than its due time the addon's pacer handed it to QUIC.
   */
  handoverLagSumUs = 0;
  handoverLagMaxUs = 0;

  constructor(
    private readonly controller: Controller,
    private readonly sink: DatagramSink,
    private readonly hooks: SenderHooks,
    options: {
      random: () => number; maxDatagramBytes: number; initialWindowBytes: number; nowUs: number; maxPacketsInFlight?: number;
      /** The pacing burst's duration at the rate (token-bucket.ts; the origin's --pacing-burst-us). */
      pacingBurstUs?: number;
      /** Who paces (departure-schedule.ts; the origin's --pacer): the send loop's turns (when not given), or the addon's pacer (the sink must be a PacedDatagramSink). */
      pacer?: Pacer;
    },
  ) {
    this.tracker = new SentPacketTracker({ random: options.random });
    this.packetizer = new Packetizer(options.maxDatagramBytes);
    this.bucket = new TokenBucket(options.nowUs, options.pacingBurstUs);
    if (options.pacer === 'addon') {
      if (!isPacedSink(sink)) throw new TypeError('--pacer addon needs a sink with sendDatagramsAt, takeDepartures and discardPaced');
      this.pacedSink = sink;
      this.schedule = new DepartureSchedule(options.nowUs, this.bucket.burstDurationUs);
    } else {
      this.pacedSink = null;
      this.schedule = null;
    }
    this.flight = new FlightLimit(options.initialWindowBytes, options.nowUs, options.maxPacketsInFlight);
    this.ackGuard = new AckGuard();
    this.ticker = new ControllerTicker(controller);
    this.startUs = options.nowUs;
    // The controller plans in packets (an MI's minimum packet count, slow start's steps, windows): it counts the
    // datagrams this session really sends, not the library's 1200 B default (issue 17). A session URL's
    // mss_bytes is overridden: the path, not the user, decides the packet size.
    controller.setParam('mss_bytes', this.maxDatagramBytes);
  }

  /** Who paces this session (--pacer). */
  get pacer(): Pacer {
    return this.schedule ? 'addon' : 'loop';
  }

  get maxPayloadBytes(): number {
    return this.packetizer.maxPayloadBytes;
  }

  get maxDatagramBytes(): number {
    return this.packetizer.maxDatagramBytes;
  }

  /** Pacing credit late turns lost, and how much of it was repaid (token-bucket.ts), bytes. */
  get pacingLateCreditBytes(): number {
    return this.bucket.lateCreditBytes;
  }

  get pacingRepaidBytes(): number {
    return this.bucket.repaidBytes;
  }

  get acksReceived(): number {
    return this.ackGuard.acksReceived;
  }

  /** Sum of the ack delays receivers reported (µs), for the mean in stats. */
  get ackDelaySumUs(): number {
    return this.ackGuard.ackDelaySumUs;
  }

  addRequest(request: OutgoingRequest, windowBytes: number): void {
    this.requests.set(request.requestId, request);
    this.rotation.add(request);
    this.flight.onRequestWindow(windowBytes);
  }

  hasRequest(requestId: number): boolean {
    return this.requests.has(requestId);
  }

  /** Forgets a request (cancelled or complete); its in-flight packets are still accounted when acked or lost. */
  removeRequest(requestId: number): OutgoingRequest | undefined {
    const request = this.requests.get(requestId);
    if (!request) return undefined;
    this.requests.delete(requestId);
    this.rotation.remove(request);
    this.packetizer.dropRequest(request);
    request.body.close();
    return request;
  }

  get activeRequests(): number {
    return this.requests.size;
  }

  private hasDataToSend(): boolean {
    return this.packetizer.hasBacklog || this.rotation.hasDataToSend();
  }

  /** The player's state from CMCD (buffer, bitrate, deadline) for the controller's app-state event (cc_on_app_state). */
  onPlayerState(cmcd: CmcdState, nowUs: number): void {
    if (!this.closed) this.ticker.playerState(cmcd, nowUs);
  }

  /** Sends what pacing, cwnd and the window allow at `nowUs`; returns when it next needs to run (µs), or Infinity. */
  service(nowUs: number): number {
    if (this.closed) return Infinity;
    this.serviceTurns++;
    this.collectDepartures(nowUs);
    this.stallReasons.turnStarted(nowUs);
    const lost = this.probes.run(this.tracker, nowUs, (p) => this.requests.get(p.requestId)?.requeue(p.offset, p.length));
    if (lost.length > 0) this.applyLosses(lost, nowUs);
    this.ticker.tick(nowUs);
    const rateBytesPerSec = Math.max(1, this.controller.pacingRateBytesPerSec());
    const cwndBytes = this.controller.cwndBytes();
    const capBytes = this.bucket.capBytes(rateBytesPerSec, this.maxDatagramBytes);
    this.bucket.refill(nowUs, rateBytesPerSec, capBytes, this.lastLimit === 'tokens');
    this.schedule?.startTurn(nowUs);
    this.turnRateBytesPerSec = rateBytesPerSec;
    this.flight.onTurn(nowUs, this.tracker.packetsInFlight);

    let burst = 0;
    let limitedBy: Limit = 'none';
    this.backpressured = false;
    while (limitedBy === 'none') {
      const limit = this.buildBatch(nowUs, cwndBytes);
      const count = this.packetizer.count;
      if (count === 0) {
        limitedBy = limit;
        break;
      }
      const accepted = this.pacedSink ? this.packetizer.sendAt(this.pacedSink, scratchDueNs) : this.packetizer.send(this.sink);
      this.batchesSent++;
      burst += this.settleBatch(accepted, nowUs);
      // Closed for a bug found settling the batch: its controller may be gone already.
      if (this.closed) return Infinity;
      if (accepted < count) {
        this.backpressureEvents++;
        limitedBy = 'backpressure';
        this.backpressured = true;
      }
      // Otherwise build again even if this batch hit a limit: the next one finds which limit holds now.
    }
    if (burst > this.maxBurstBytes) this.maxBurstBytes = burst;
    this.lastLimit = limitedBy;

    const hasData = this.hasDataToSend();
    this.ticker.afterTurn(hasData, Math.max(nowUs, this.lastSentUs));
    this.hooks.onProgress(nowUs);

    let wakeUs = this.tracker.nextTimeoutUs() ?? Infinity;
    if (hasData) {
      if (limitedBy === 'backpressure') wakeUs = Math.min(wakeUs, nowUs + BACKPRESSURE_RETRY_US);
      else if (limitedBy === 'tokens') {
        const waitUs = this.schedule ? this.schedule.waitUs(nowUs) : this.bucket.waitUs(this.maxDatagramBytes, rateBytesPerSec, capBytes);
        wakeUs = Math.min(wakeUs, nowUs + waitUs);
      }
      // limited by cwnd or window: an ACK wakes us (and the probe timeout covers a silent peer).
    }
    if (this.tracker.packetsInFlight > 0 || hasData) wakeUs = Math.min(wakeUs, nowUs + BUSY_SERVICE_INTERVAL_US);
    const heldBy = !hasData ? 'app-limited'
      : limitedBy === 'window' ? this.flight.binding(nowUs, cwndBytes, this.tracker.packetsInFlight, this.maxDatagramBytes)
      : limitedBy === 'none' ? null : limitedBy;
    this.stallReasons.turnEnded(heldBy, wakeUs, burst === 0);
    return wakeUs;
  }

  /** Fills a batch (refused datagrams first) until a limit is hit or the batch is full ('none'). */
  private buildBatch(nowUs: number, cwndBytes: number): Limit {
    const schedule = this.schedule;
    const packetBytes = this.maxDatagramBytes;
    const allowedInFlight = this.flight.allowedBytes(nowUs, cwndBytes, this.tracker.packetsInFlight, packetBytes);
    let batchInFlight = 0;
    this.packetizer.startBatch();
    while (!this.packetizer.full) {
      if (schedule ? !schedule.allows(nowUs) : !this.bucket.allows(packetBytes)) return 'tokens';
      const inFlight = this.tracker.bytesInFlight + batchInFlight;
      // A window probe (PROTOCOL.md §6): with nothing in flight one datagram goes whatever the window says.
      const windowProbe = inFlight === 0 && cwndBytes >= packetBytes;
      const overWindow = inFlight + packetBytes > allowedInFlight && !windowProbe;
      if (overWindow && this.probes.creditPackets === 0) return 'window';
      const built = this.packetizer.addFromBacklog() ?? this.addNextChunk();
      if (!built) return 'none';
      if (overWindow) this.probes.spend();
      const size = built.packet.bytes;
      if (schedule) {
        const index = this.packetizer.count - 1;
        scratchDueUs[index] = schedule.take(size, this.turnRateBytesPerSec);
        scratchDueNs[index] = monotonicNsFromUs(scratchDueUs[index]!);
      } else {
        this.bucket.take(size);
      }
      batchInFlight += size;
      if (windowProbe && inFlight + size > allowedInFlight) return this.packetizer.full ? 'none' : 'window';
    }
    return 'none';
  }

  /** The next request's next chunk, requests taken in turn; null when none has data. */
  private addNextChunk(): BuiltPacket | null {
    for (;;) {
      const request = this.rotation.next();
      if (!request) return null;
      const built = this.packetizer.addNext(request, this.tracker);
      if (built) return built;
      // Its only queued data was acknowledged meanwhile (nextChunk dropped it): the next request's turn.
    }
  }

  /**
   * Records the accepted prefix as sent and refunds the tokens of the refused rest; returns the bytes sent. A packet's
   * send time is when QUIC took it (the addon's stamp, the clock of the ACK arrival stamps), so time the turn spent
   * before the hand-over (building the batch, a stalled event loop) does not read as RTT; `nowUs` for a sink that
   * stamps nothing. A packet the tracker refuses (OUT_OF_ORDER_SEND) closes the session once the batch is settled:
   * neither it nor anything after it in the batch is counted or marked sent.
   */
  private settleBatch(accepted: number, nowUs: number): number {
    if (this.schedule) return this.settlePacedBatch(accepted, nowUs);
    let sentBytes = 0;
    let stampsNowUs = NaN;
    // The first packet the tracker refused (OUT_OF_ORDER_SEND), and the largest number recorded before it; -1: none.
    let refusedNumber = -1;
    let largestBeforeRefused = -1;
    this.packetizer.settle(accepted, (b, queuedAtNs) => {
      if (refusedNumber >= 0) return;
      const size = b.packet.bytes;
      let sentUs = nowUs;
      if (!Number.isNaN(queuedAtNs)) {
        if (Number.isNaN(stampsNowUs)) stampsNowUs = processNowUs();
        sentUs = Math.max(nowUs, usFromMonotonicNs(queuedAtNs, stampsNowUs));
        this.handoverLagSumUs += sentUs - nowUs;
        if (sentUs - nowUs > this.handoverLagMaxUs) this.handoverLagMaxUs = sentUs - nowUs;
      }
      b.packet.sentTimeUs = sentUs;
      if (!this.tracker.onPacketSent(b.packet)) {
        refusedNumber = b.packet.packetNumber;
        largestBeforeRefused = this.tracker.largestSent;
        return;
      }
      this.controller.packetSent(b.packet.packetNumber, size, sentUs);
      this.lastSentUs = sentUs;
      this.stallReasons.sent(sentUs);
      b.request.onSent(b.chunk);
      this.sentBytes += b.chunk.length;
      this.sentDatagramBytes += size;
      if (b.chunk.retransmission) this.retransmittedBytes += b.chunk.length;
      sentBytes += size;
    }, (b) => this.bucket.refund(b.packet.bytes));
    this.closeIfRefused(refusedNumber, largestBeforeRefused);
    return sentBytes;
  }

  /** A packet the tracker refused (OUT_OF_ORDER_SEND; -1: none) closes the session. */
  private closeIfRefused(refusedNumber: number, largestBeforeRefused: number): void {
    if (refusedNumber < 0) return;
    this.hooks.onOutOfOrderSend?.(refusedNumber, largestBeforeRefused);
    this.fatal(CLOSE_PROTOCOL_VIOLATION, `internal error: ${OUT_OF_ORDER_SEND}: packet ${refusedNumber} was sent after packet ${largestBeforeRefused}`);
  }

  /**
   * --pacer addon: the accepted prefix went to the addon's pacer. Each packet is recorded by the tracker now, in number
   * order (bytes in flight count it from hand-over; the OUT_OF_ORDER_SEND guard as for a direct send), with its due time
   * as send time until its departure is collected; the controller is told of it only then (collectDepartures), at
   * its real departure, so its clock and its MIs see what left when. Returns the bytes handed over.
   */
  private settlePacedBatch(accepted: number, nowUs: number): number {
    let sentBytes = 0;
    let refusedNumber = -1;
    let largestBeforeRefused = -1;
    let index = 0;
    this.packetizer.settle(accepted, (b) => {
      const dueUs = scratchDueUs[index++]!;
      if (refusedNumber >= 0) return;
      b.packet.sentTimeUs = Math.max(nowUs, dueUs);
      if (!this.tracker.onPacketSent(b.packet)) {
        refusedNumber = b.packet.packetNumber;
        largestBeforeRefused = this.tracker.largestSent;
        return;
      }
      this.awaiting.push(b.packet as SentPacket);
      this.awaitingDueUs.push(dueUs);
      b.request.onSent(b.chunk);
      this.sentBytes += b.chunk.length;
      this.sentDatagramBytes += b.packet.bytes;
      if (b.chunk.retransmission) this.retransmittedBytes += b.chunk.length;
      sentBytes += b.packet.bytes;
    }, (b) => this.schedule!.refund(b.packet.bytes, this.turnRateBytesPerSec));
    this.closeIfRefused(refusedNumber, largestBeforeRefused);
    return sentBytes;
  }

  /**
   * --pacer addon: tells the controller of every packet the addon's pacer has sent since the last call, in order, at
   * its departure (the addon's stamp as QUIC took it; one QUIC refused for good counts as sent at its due time, and
   * is then lost as any other). Called before each turn's and each ACK batch's controller events, so an ACK is never
   * reported before the send it acknowledges.
   */
  private collectDepartures(nowUs: number): void {
    if (!this.pacedSink) return;
    for (;;) {
      const count = this.pacedSink.takeDepartures(scratchDepartures);
      for (let i = 0; i < count; i++) {
        const packet = this.awaiting[this.awaitingHead];
        const dueUs = this.awaitingDueUs[this.awaitingHead++]!;
        if (!packet) throw new Error('the addon reported more departures than datagrams were handed to it');
        const stamp = scratchDepartures[i]!;
        const departedUs = Number.isNaN(stamp) ? Math.min(nowUs, dueUs) : usFromMonotonicNs(stamp, nowUs);
        // Never dated before a send the controller was already told of: its clock is monotonic.
        const sentUs = Math.max(this.lastSentUs, departedUs);
        const lateUs = Math.max(0, Math.round(sentUs - dueUs));
        this.handoverLagSumUs += lateUs;
        if (lateUs > this.handoverLagMaxUs) this.handoverLagMaxUs = lateUs;
        packet.sentTimeUs = sentUs;
        this.controller.packetSent(packet.packetNumber, packet.bytes, sentUs);
        this.lastSentUs = sentUs;
        this.stallReasons.sent(sentUs);
      }
      if (count < scratchDepartures.length) break;
    }
    if (this.awaitingHead === this.awaiting.length) {
      this.awaiting.length = 0;
      this.awaitingDueUs.length = 0;
      this.awaitingHead = 0;
    } else if (this.awaitingHead > 1024) {
      this.awaiting = this.awaiting.slice(this.awaitingHead);
      this.awaitingDueUs = this.awaitingDueUs.slice(this.awaitingHead);
      this.awaitingHead = 0;
    }
  }

  /**
   * Handles datagrams from the client: only ACKs are legal (PROTOCOL.md §3, §7). `receivedAtUs[i]`: when datagram i
   * arrived (the addon's stamp on this process's clock), if known more precisely than `nowUs`. An ACK's arrival
   * dates everything it tells the controller (its acks, the losses it reveals) and ends its RTT sample, as the
   * simulator delivers an ACK at its arrival: the time the event loop took to get to it is not the path's, and would
   * otherwise squeeze a batch of ACKs that arrived apart into one instant (ack compression in the controller's
   * monitor intervals, Vivace §4.3's delivery rates and RTT gradients). Stamps are in arrival order, so the
   * controller's clock stays monotonic across the batch; request completion and the turn the batch wakes run at `nowUs`.
   */
  onDatagrams(datagrams: Uint8Array[], nowUs: number, receivedAtUs?: ArrayLike<number>): void {
    if (!this.closed) this.collectDepartures(nowUs);
    for (let i = 0; i < datagrams.length; i++) {
      if (this.closed) return;
      const arrivedUs = receivedAtUs === undefined ? nowUs : Math.min(nowUs, receivedAtUs[i]!);
      const checked = this.ackGuard.check(datagrams[i]!, this.tracker, nowUs, arrivedUs);
      if (!checked.ok) {
        this.fatal(checked.rejection.closeCode, checked.rejection.reason);
        return;
      }
      const { ack, outcome } = checked;
      this.flight.onAck(arrivedUs, ack.ranges[0]!.largest, ack.windowBytes);
      const rttUs = outcome.rttSampleUs === null ? 0 : this.controllerRttUs(ack.ackDelayUs);
      const recvTimeUs = Math.round(ack.largestRecvTimeUs);
      for (const p of outcome.newlyAcked) {
        this.controller.ack(p.packetNumber, rttUs, recvTimeUs, arrivedUs);
        const request = this.requests.get(p.requestId);
        if (!request) continue;
        request.onAcked(p.offset, p.length);
        if (request.complete) this.completeRequest(request, nowUs);
      }
      this.applyLosses(outcome.lost, arrivedUs);
    }
    // The caller wakes the send loop for these ACKs: a turn is due now.
    this.stallReasons.woken(nowUs);
    this.hooks.onProgress(nowUs);
  }

  /**
   * The RTT sample the controller gets: the ACK's arrival less the whole delay the receiver reported holding it.
   * The loss-recovery estimator (the tracker's, RFC 9002 §5.3) caps that delay at max_ack_delay, so a receiver
   * whose event loop stalled 125 ms (the Node client on a busy machine, issue 17) reads there as 120 ms of RTT; to
   * a delay-based controller that is a queue that never was, and Vivace left slow start at a third of the link on
   * one such stall. Never below the lowest RTT seen: a receiver that overstates its delay only hides its own
   * queueing from its own session's controller. Called only when the ACK gave an RTT sample: the tracker's latest
   * is its raw length (arrival less send time).
   */
  private controllerRttUs(ackDelayUs: number): number {
    const rtt = this.tracker.rtt;
    return Math.round(Math.max(rtt.minUs, rtt.latestUs - ackDelayUs));
  }

  private applyLosses(lost: SentPacket[], nowUs: number): void {
    for (const p of lost) {
      this.controller.loss(p.packetNumber, nowUs);
      this.requests.get(p.requestId)?.onLost(p.offset, p.length);
    }
  }

  private completeRequest(request: OutgoingRequest, nowUs: number): void {
    if (!this.requests.has(request.requestId)) return;
    this.removeRequest(request.requestId);
    this.hooks.onRequestComplete(request, nowUs);
  }

  private fatal(code: number, reason: string): void {
    if (this.closed) return;
    this.close();
    this.hooks.onFatal(code, reason);
  }

  /** Stops sending and releases every request's body. */
  close(): void {
    this.closed = true;
    // What the addon's pacer still holds is never sent (a closed session's pacer drops it anyway).
    if (this.pacedSink) {
      try {
        this.pacedSink.discardPaced();
      } catch {
        /* the session is gone */
      }
      this.awaiting = [];
      this.awaitingDueUs = [];
      this.awaitingHead = 0;
    }
    for (const id of [...this.requests.keys()]) this.removeRequest(id);
    this.packetizer.clear();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get isBackpressured(): boolean {
    return this.backpressured;
  }
}

function isPacedSink(sink: DatagramSink): sink is PacedDatagramSink {
  const paced = sink as Partial<PacedDatagramSink>;
  return typeof paced.sendDatagramsAt === 'function' && typeof paced.takeDepartures === 'function' && typeof paced.discardPaced === 'function';
}
