// The sending half of one datagram session: turns request bodies into DATA datagrams at the controller's
// pacing rate, never more than min(cwnd, receiver window) in flight, with bursts of at most
// max(2 packets, 1 ms of the rate); applies ACKs, losses and retransmissions (PROTOCOL.md §4–§7).
// The pacer calls service(); the session feeds received datagrams to onDatagrams().
import type { Controller } from '@pcc-stream/controller';
import {
  CLOSE_OPTIMISTIC_ACK, CLOSE_PROTOCOL_VIOLATION, DATA_HEADER_BYTES, DATAGRAM_TYPE_ACK, MAX_DATAGRAM_BYTES,
  SentPacketTracker, decodeAckDatagram, writeDataHeader, type SentPacket,
} from '@pcc-stream/protocol';
import type { Chunk, OutgoingRequest } from './outgoing-request.ts';

/** What the sender needs from a QUIC session (the native Session satisfies it). */
export interface DatagramSink {
  sendDatagramBatch(payloads: Uint8Array, lengths: Uint32Array, count: number): number;
}

export interface SenderHooks {
  /** The peer broke the protocol: close the session with this code. */
  onFatal(code: number, reason: string): void;
  onRequestComplete(request: OutgoingRequest, nowUs: number): void;
  /** Called after ACK processing and timer work, for telemetry sampling. */
  onProgress(nowUs: number): void;
}

const MAX_BATCH_PACKETS = 64;
// One scratch area for the whole process: the pacer runs one session at a time and the addon copies
// the batch before returning.
const scratch = new Uint8Array(MAX_BATCH_PACKETS * MAX_DATAGRAM_BYTES);
const scratchLengths = new Uint32Array(MAX_BATCH_PACKETS);
const BACKPRESSURE_RETRY_US = 300;
const TICK_INTERVAL_US = 5000;
const ACK_STARVATION_US = 1_000_000;

interface BuiltPacket {
  packet: Omit<SentPacket, 'state'>;
  request: OutgoingRequest;
  chunk: Chunk;
}

export class DatagramSender {
  private readonly requests = new Map<number, OutgoingRequest>();
  private roundRobin: OutgoingRequest[] = [];
  private roundRobinIndex = 0;
  readonly tracker: SentPacketTracker;
  private tokensBytes = 0;
  private debtBytes = 0;
  private lastLimit: 'none' | 'tokens' | 'window' | 'backpressure' = 'none';
  private lastRefillUs: number;
  private peerWindowBytes: number;
  private windowFromLargestAcked = -1;
  /** Built, numbered packets the QUIC layer refused (send buffer full); sent first, in order. */
  private backlog: Array<BuiltPacket & { bytes: Uint8Array }> = [];
  private backpressured = false;
  private appLimitedSignalled = true;
  private lastTickUs = 0;
  private probeTimeoutsSeen = 0;
  /** Packets that may still go out beyond cwnd / the peer window after a probe timeout. */
  private probeCreditPackets = 0;
  private closed = false;
  private lastAckUs: number;
  private nowForBatchUs = 0;
  readonly maxPayloadBytes: number;
  readonly startUs: number;

  sentBytes = 0;
  /** Whole DATA datagrams handed to QUIC (what the pacing rate applies to). */
  sentDatagramBytes = 0;
  retransmittedBytes = 0;
  acksReceived = 0;
  /** Sum of the ack delays receivers reported (µs), for the mean in stats. */
  ackDelaySumUs = 0;
  batchesSent = 0;
  backpressureEvents = 0;
  /** Largest burst (bytes handed to QUIC in one service() call) and the pacing rate then. */
  maxBurstBytes = 0;

  constructor(
    private readonly controller: Controller,
    private readonly sink: DatagramSink,
    private readonly hooks: SenderHooks,
    options: { random: () => number; maxDatagramBytes: number; initialWindowBytes: number; nowUs: number },
  ) {
    this.tracker = new SentPacketTracker({ random: options.random });
    const datagramBytes = Math.min(MAX_DATAGRAM_BYTES, options.maxDatagramBytes);
    if (datagramBytes <= DATA_HEADER_BYTES) throw new Error(`datagrams of ${options.maxDatagramBytes} B are too small`);
    this.maxPayloadBytes = datagramBytes - DATA_HEADER_BYTES;
    this.peerWindowBytes = options.initialWindowBytes;
    this.lastRefillUs = options.nowUs;
    this.lastAckUs = options.nowUs;
    this.startUs = options.nowUs;
  }

  get maxDatagramBytes(): number {
    return this.maxPayloadBytes + DATA_HEADER_BYTES;
  }

  addRequest(request: OutgoingRequest, windowBytes: number): void {
    this.requests.set(request.requestId, request);
    this.roundRobin.push(request);
    // A REQUEST carries the receiver's current window too; the newest information wins until the next ACK.
    this.peerWindowBytes = windowBytes;
  }

  hasRequest(requestId: number): boolean {
    return this.requests.has(requestId);
  }

  /** Forgets a request (cancelled or complete); its in-flight packets are still accounted when acked or lost. */
  removeRequest(requestId: number): OutgoingRequest | undefined {
    const request = this.requests.get(requestId);
    if (!request) return undefined;
    this.requests.delete(requestId);
    this.roundRobin = this.roundRobin.filter((r) => r !== request);
    // Numbered but never sent: dropping them leaves holes the tracker treats like skipped numbers.
    this.backlog = this.backlog.filter((b) => b.request !== request);
    request.body.close();
    return request;
  }

  get activeRequests(): number {
    return this.requests.size;
  }

  private hasDataToSend(): boolean {
    if (this.backlog.length > 0) return true;
    for (const r of this.roundRobin) if (r.hasDataToSend()) return true;
    return false;
  }

  private nextRequestWithData(): OutgoingRequest | null {
    const n = this.roundRobin.length;
    for (let k = 0; k < n; k++) {
      const r = this.roundRobin[(this.roundRobinIndex + k) % n]!;
      if (r.hasDataToSend()) {
        this.roundRobinIndex = (this.roundRobinIndex + k + 1) % n;
        return r;
      }
    }
    return null;
  }

  /** Sends what pacing, cwnd and the window allow now; returns when it next needs to run (µs), or Infinity. */
  service(nowUs: number): number {
    if (this.closed) return Infinity;
    const timeout = this.tracker.onTimeout(nowUs);
    if (timeout.lost.length > 0) this.applyLosses(timeout.lost, nowUs);
    if (timeout.probes.length > 0 || this.tracker.probeTimeouts > this.probeTimeoutsSeen) {
      // A probe timeout is not a loss (RFC 9002 §6.2): the controller hears nothing; the oldest data is resent
      // and up to two packets may go out beyond cwnd and the window, so a cwnd-limited sender can probe.
      this.probeTimeoutsSeen = this.tracker.probeTimeouts;
      for (const p of timeout.probes) this.requests.get(p.requestId)?.requeue(p.offset, p.length);
      this.probeCreditPackets = 2;
    }
    if (nowUs - this.lastTickUs >= 1000) {
      this.controller.tick(nowUs);
      this.lastTickUs = nowUs;
    }
    const rateBytesPerSec = Math.max(1, this.controller.pacingRateBytesPerSec());
    const cwndBytes = this.controller.cwndBytes();
    const burstBytes = Math.max(2 * this.maxDatagramBytes, rateBytesPerSec / 1000);
    this.refill(nowUs, rateBytesPerSec, burstBytes);

    let burst = 0;
    this.nowForBatchUs = nowUs;
    if (this.tracker.packetsInFlight === 0) this.lastAckUs = Math.max(this.lastAckUs, nowUs - ACK_STARVATION_US / 2);
    let limitedBy: 'none' | 'tokens' | 'window' | 'backpressure' = 'none';
    this.backpressured = false;
    while (limitedBy === 'none') {
      const { count, bytes, limit } = this.buildBatch(cwndBytes);
      if (count === 0) {
        limitedBy = limit;
        break;
      }
      const accepted = this.sink.sendDatagramBatch(scratch.subarray(0, bytes), scratchLengths, count);
      this.batchesSent++;
      burst += this.commitBatch(accepted, count, nowUs);
      if (accepted < count) {
        this.backpressureEvents++;
        limitedBy = 'backpressure';
        this.backpressured = true;
      }
    }
    if (burst > this.maxBurstBytes) this.maxBurstBytes = burst;
    this.lastLimit = limitedBy;

    const hasData = this.hasDataToSend();
    if (!hasData && !this.appLimitedSignalled) {
      this.controller.appLimited(nowUs);
      this.appLimitedSignalled = true;
    } else if (hasData) {
      this.appLimitedSignalled = false;
    }
    this.hooks.onProgress(nowUs);

    let wakeUs = this.tracker.nextTimeoutUs() ?? Infinity;
    if (hasData) {
      if (limitedBy === 'backpressure') wakeUs = Math.min(wakeUs, nowUs + BACKPRESSURE_RETRY_US);
      else if (limitedBy === 'tokens') {
        // Run when one packet's worth has accrued, or later while the bucket still has ≥ 1 ms of room
        // before it fills: at low rates that lets the pacer sleep on a timer instead of spinning.
        const onePacketUs = ((this.maxDatagramBytes - this.tokensBytes) * 1e6) / rateBytesPerSec;
        const bucketFullUs = ((burstBytes - this.tokensBytes) * 1e6) / rateBytesPerSec;
        wakeUs = Math.min(wakeUs, nowUs + Math.max(1, Math.ceil(Math.max(onePacketUs, bucketFullUs - 1000))));
      }
      // limited by cwnd or window: an ACK wakes us (and the probe timeout covers a silent peer).
    }
    if (this.tracker.packetsInFlight > 0 || hasData) wakeUs = Math.min(wakeUs, nowUs + TICK_INTERVAL_US);
    return wakeUs;
  }

  /**
   * Token bucket holding at most one burst. Credit beyond it is lost when the sender was idle or blocked, but
   * when it was only waiting for tokens (the event loop ran late) up to 50 ms of it is kept as debt and repaid
   * at ≤ 25 % above the rate: bursts stay capped and the average rate holds on a busy machine.
   */
  private refill(nowUs: number, rateBytesPerSec: number, burstBytes: number): void {
    const accrued = ((nowUs - this.lastRefillUs) * rateBytesPerSec) / 1e6;
    this.lastRefillUs = nowUs;
    const repaid = Math.min(this.debtBytes, 0.25 * accrued);
    this.debtBytes -= repaid;
    this.tokensBytes += accrued + repaid;
    if (this.tokensBytes > burstBytes) {
      if (this.lastLimit === 'tokens') this.debtBytes = Math.min(rateBytesPerSec / 20, this.debtBytes + this.tokensBytes - burstBytes);
      else this.debtBytes = 0;
      this.tokensBytes = burstBytes;
    }
  }

  /** Fills the scratch area with packets (backlog first); stops at the first limit hit. */
  private buildBatch(cwndBytes: number): { count: number; bytes: number; limit: 'none' | 'tokens' | 'window' } {
    let count = 0;
    let at = 0;
    let limit: 'none' | 'tokens' | 'window' = 'none';
    let batchInFlight = 0;
    // A peer that stopped acknowledging for a second gets no more than two packets in flight (probes),
    // whatever a rate-based controller would allow: do not stream into a dead client.
    const starving = this.tracker.packetsInFlight > 0 && this.nowForBatchUs - this.lastAckUs > ACK_STARVATION_US;
    const allowedInFlight = Math.min(cwndBytes, this.peerWindowBytes, starving ? 2 * this.maxDatagramBytes : Infinity);
    this.batch.length = 0;
    while (count < MAX_BATCH_PACKETS) {
      if (this.tokensBytes < this.maxDatagramBytes) {
        limit = 'tokens';
        break;
      }
      const inFlight = this.tracker.bytesInFlight + batchInFlight;
      const windowProbe = inFlight === 0 && cwndBytes >= this.maxDatagramBytes;
      const overWindow = inFlight + this.maxDatagramBytes > allowedInFlight && !windowProbe;
      if (overWindow && this.probeCreditPackets === 0) {
        limit = 'window';
        break;
      }
      let built: BuiltPacket & { bytes?: Uint8Array };
      const fromBacklog = this.backlog.shift();
      if (fromBacklog) {
        scratch.set(fromBacklog.bytes, at);
        built = fromBacklog;
      } else {
        const request = this.nextRequestWithData();
        if (!request) break;
        const chunk = request.nextChunk(this.maxPayloadBytes)!;
        const packetNumber = this.tracker.allocatePacketNumber();
        // DATA offsets are relative to the body start (PROTOCOL.md §3.1).
        writeDataHeader(scratch, at, request.requestId, packetNumber, chunk.offset - request.bodyOffset);
        scratch.set(request.body.read(chunk.offset, chunk.length), at + DATA_HEADER_BYTES);
        built = {
          request,
          chunk,
          packet: {
            packetNumber, sentTimeUs: 0, bytes: DATA_HEADER_BYTES + chunk.length, requestId: request.requestId,
            offset: chunk.offset, length: chunk.length, retransmission: chunk.retransmission,
          },
        };
      }
      if (overWindow) this.probeCreditPackets--;
      const size = built.packet.bytes;
      scratchLengths[count] = size;
      this.batch.push(built);
      this.tokensBytes -= size;
      batchInFlight += size;
      at += size;
      count++;
      if (windowProbe && inFlight + size > allowedInFlight) {
        limit = 'window';
        break;
      }
    }
    return { count, bytes: at, limit: count === MAX_BATCH_PACKETS ? 'none' : limit };
  }

  private readonly batch: BuiltPacket[] = [];

  /** Records the accepted prefix as sent; keeps the refused rest (already numbered) for the next turn. */
  private commitBatch(accepted: number, count: number, nowUs: number): number {
    let sentBytes = 0;
    let at = 0;
    for (let i = 0; i < count; i++) {
      const b = this.batch[i]!;
      const size = b.packet.bytes;
      if (i < accepted) {
        b.packet.sentTimeUs = nowUs;
        this.tracker.onPacketSent(b.packet);
        this.controller.packetSent(b.packet.packetNumber, size, nowUs);
        b.request.onSent(b.chunk);
        this.sentBytes += b.chunk.length;
        this.sentDatagramBytes += size;
        if (b.chunk.retransmission) this.retransmittedBytes += b.chunk.length;
        sentBytes += size;
      } else {
        this.tokensBytes += size; // refund: it was not sent
        this.backlog.push({ ...b, bytes: scratch.slice(at, at + size) });
      }
      at += size;
    }
    return sentBytes;
  }

  /**
   * Handles datagrams from the client: only ACKs are legal (PROTOCOL.md §3, §7). `receivedAtUs`: when they arrived,
   * if known more precisely than `nowUs` (it ends RTT samples; everything else runs at `nowUs`).
   */
  onDatagrams(datagrams: Uint8Array[], nowUs: number, receivedAtUs: number = nowUs): void {
    for (const d of datagrams) {
      if (this.closed) return;
      if (d.byteLength === 0 || d[0] !== DATAGRAM_TYPE_ACK) {
        this.fatal(CLOSE_PROTOCOL_VIOLATION, `datagram of type ${d.byteLength === 0 ? 'empty' : '0x' + d[0]!.toString(16)} from the client; only ACK is allowed`);
        return;
      }
      const decoded = decodeAckDatagram(d);
      if (!decoded.ok) {
        this.fatal(CLOSE_PROTOCOL_VIOLATION, `malformed ACK: ${decoded.error.message}`);
        return;
      }
      this.acksReceived++;
      this.lastAckUs = nowUs;
      // ACKs never outnumber DATA by much (one per packet at most, plus window updates and timers).
      const allowance = this.tracker.packetsSent + 64 + ((nowUs - this.startUs) / 1e6) * 1000;
      if (this.acksReceived > allowance) {
        this.fatal(CLOSE_PROTOCOL_VIOLATION, `ACK flood: ${this.acksReceived} ACKs for ${this.tracker.packetsSent} packets`);
        return;
      }
      const ack = decoded.value;
      this.ackDelaySumUs += ack.ackDelayUs;
      const outcome = this.tracker.onAck(ack, nowUs, receivedAtUs);
      if (!outcome.ok) {
        const code = outcome.error.code === 'optimistic-ack' || outcome.error.code === 'ack-of-unsent' ? CLOSE_OPTIMISTIC_ACK : CLOSE_PROTOCOL_VIOLATION;
        this.fatal(code, outcome.error.message);
        return;
      }
      const largest = ack.ranges[0]!.largest;
      if (largest >= this.windowFromLargestAcked) {
        this.windowFromLargestAcked = largest;
        this.peerWindowBytes = ack.windowBytes;
      }
      const rttUs = outcome.value.rttSampleUs === null ? 0 : Math.max(1, Math.round(outcome.value.rttSampleUs));
      const recvTimeUs = Math.round(ack.largestRecvTimeUs);
      for (const p of outcome.value.newlyAcked) {
        this.controller.ack(p.packetNumber, rttUs, recvTimeUs, nowUs);
        const request = this.requests.get(p.requestId);
        if (!request) continue;
        request.onAcked(p.offset, p.length);
        if (request.complete) this.completeRequest(request, nowUs);
      }
      this.applyLosses(outcome.value.lost, nowUs);
    }
    this.hooks.onProgress(nowUs);
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
    for (const id of [...this.requests.keys()]) this.removeRequest(id);
    this.backlog = [];
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get isBackpressured(): boolean {
    return this.backpressured;
  }
}
