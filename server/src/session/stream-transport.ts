// QUIC-stream delivery for one session (the quinn CUBIC/BBR/NewReno baseline): the body follows the
// RESPONSE frame on the request's own stream; congestion control is quinn's, chosen per connection.
import { DELIVERY_STREAM, type CmcdState, type CmsdDynamic, type RequestFrame } from '@pcc-stream/protocol';
import type { QuicCongestion, Session } from '@pcc-stream/quic';
import { nowUs } from '../clock.ts';
import type { OpenedBody } from '../media/media-store.ts';
import { MiTelemetry } from '../telemetry/mi-telemetry.ts';
import type { RequestStream } from './request-stream.ts';
import { serveTelemetryFeed } from './telemetry-feed.ts';
import { servedOutcome, type ResponseCmsd, type ServeOutcome, type TransportHandler } from './transport-handler.ts';

const WRITE_CHUNK_BYTES = 256 * 1024;
const STATS_INTERVAL_MS = 100;

export class StreamTransport implements TransportHandler {
  readonly transport = 'quic-stream';
  readonly telemetry: MiTelemetry;
  private readonly statsTimer: NodeJS.Timeout;
  private readonly startUs = nowUs();
  sentBytes = 0;
  private lastUdpTxBytes = -1;
  private closed = false;

  constructor(private readonly quic: Session, readonly algorithm: QuicCongestion, logDir: string | null) {
    this.telemetry = new MiTelemetry(quic.id, `quic-${algorithm}`, logDir, this.startUs);
    // quinn has no monitor intervals: report its connection statistics at a fixed period instead.
    this.statsTimer = setInterval(() => this.emitStats(), STATS_INTERVAL_MS);
    this.statsTimer.unref();
  }

  private emitStats(): void {
    if (this.closed) return;
    let s;
    try {
      s = this.quic.stats();
    } catch {
      return;
    }
    // Idle sessions stay silent (no CPU, no log growth): a line only when something was sent.
    if (s.udpTxBytes === this.lastUdpTxBytes) return;
    this.lastUdpTxBytes = s.udpTxBytes;
    this.telemetry.emit({
      t_ms: Math.round((nowUs() - this.startUs) / 100) / 10, session: this.quic.id, algorithm: `quic-${s.congestion}`,
      state: 'quinn', srtt_us: s.rttUs, min_rtt_us: s.minRttUs, cwnd_bytes: s.cwndBytes, sent_bytes: this.sentBytes,
      packets_lost: s.lostPackets, lost_bytes: s.lostBytes, udp_tx_bytes: s.udpTxBytes,
    });
  }

  /** quinn's own estimate: a congestion window per smoothed RTT (CMSD `etp`), and that RTT. */
  deliveryEstimate(): Pick<CmsdDynamic, 'etpKbps' | 'rttMs'> {
    let s;
    try {
      s = this.quic.stats();
    } catch {
      return {};
    }
    if (!(s.rttUs > 0)) return {};
    return { etpKbps: (s.cwndBytes * 8 * 1000) / s.rttUs, rttMs: s.rttUs / 1000 };
  }

  onPlayerState(state: CmcdState, nowUs: number): void {
    this.telemetry.player.set(state, nowUs);
  }

  async serveBody(request: RequestFrame, stream: RequestStream, opened: OpenedBody, cmsd: ResponseCmsd): Promise<ServeOutcome> {
    let sent = 0;
    const ended = (outcome: 'complete' | 'cancelled'): ServeOutcome => servedOutcome(outcome, sent, this.closed, stream);
    try {
      const ok = await stream.write({
        type: 'response', requestId: request.requestId, status: opened.status, delivery: DELIVERY_STREAM,
        totalSize: opened.totalSize, bodyOffset: opened.bodyOffset, bodyLength: opened.bodyLength,
        contentType: opened.contentType, reason: '', ...cmsd,
      });
      if (!ok) return ended('cancelled');
      let cancelled = false;
      void stream.untilCancelled().then(() => {
        cancelled = true;
      });
      const end = opened.bodyOffset + opened.bodyLength;
      for (let at = opened.bodyOffset; at < end; at += WRITE_CHUNK_BYTES) {
        if (cancelled || this.closed) {
          stream.reset(0x10);
          return ended('cancelled');
        }
        const n = Math.min(WRITE_CHUNK_BYTES, end - at);
        // The block cache's view is overwritten by the next read: copy before the async write.
        if (!(await stream.writeRaw(opened.body.read(at, n).slice()))) return ended('cancelled');
        this.sentBytes += n;
        sent += n;
      }
      // Written to QUIC and finished; a session closing after this but before quinn delivered it is not seen here.
      const finished = await stream.finish();
      return ended(finished ? 'complete' : 'cancelled');
    } finally {
      opened.body.close();
    }
  }

  serveTelemetry(request: RequestFrame, stream: RequestStream): Promise<void> {
    return serveTelemetryFeed(this.telemetry, request, stream);
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      clearInterval(this.statsTimer);
    }
    return this.telemetry.close();
  }

  stats(): Record<string, number | string> {
    return { algorithm: this.algorithm, sent_bytes: this.sentBytes, ...this.telemetry.player.fields(nowUs()) };
  }
}
