// Node client of the pcc-stream protocol (tests, CLI, bulk benchmarks): one WebTransport session, requests on
// bidirectional streams, bodies reassembled from DATA datagrams (acknowledged with the shared
// DatagramReceiver) or read from the stream for transport=quic-stream.
import {
  AckScheduler, DELIVERY_DATAGRAMS, DatagramReceiver, TELEMETRY_PATH, U48_MAX, timerDelayMs, type AckStep, type ByteRange,
  type DoneFrame,
} from '@pcc-stream/protocol';
import { QuicClient, type Session } from '@pcc-stream/quic';
import { nowUs } from '../clock.ts';
import { receiveDatagramBatches } from '../datagram/receive-batches.ts';
import { RequestStream } from '../session/request-stream.ts';

export interface ConnectOptions {
  certSha256Hex: string;
  transport?: 'datagram' | 'quic-stream';
  cc?: string;
  /** Controller parameter overrides (datagram transport), e.g. { rate_bps: 5e7 }. */
  params?: Record<string, number>;
  /** Receive window (bytes) advertised to the server. */
  maxWindowBytes?: number;
  ackEveryPackets?: number;
  maxAckDelayUs?: number;
  /** Session path on the server (default /pcc). */
  sessionPath?: string;
  connectTimeoutMs?: number;
  /** Local IP address to send from (e.g. one of 127.0.0.0/8: many clients on loopback look like many hosts). */
  localAddress?: string;
  /** Length of the QUIC connection IDs this client issues (default QUIC_CONNECTION_ID_BYTES). */
  quicConnectionIdBytes?: number;
  /** Ask the origin for a QUIC ACK of this client's packets every 16, not every 2nd (default true). */
  quicRequestAckFrequency?: boolean;
}

/** Every packet the origin sends carries this client's connection ID: zero-length IDs save 8 bytes a packet (0.6% of
 *  a full-size DATA datagram; server/README.md). Safe: each session has its own socket and never migrates. */
export const QUIC_CONNECTION_ID_BYTES = 0;

export interface FetchOptions {
  range?: ByteRange;
  /** Receives the body in order; without it the body is collected into `FetchResult.body`. */
  onData?: (chunk: Uint8Array) => void;
  signal?: AbortSignal;
}

export interface FetchResult {
  status: number;
  reason: string;
  contentType: string;
  totalSize: number;
  bodyOffset: number;
  bodyLength: number;
  /** Body bytes received. */
  bytes: number;
  body?: Uint8Array;
  /** The response's CTA-5006 CMSD-Static / CMSD-Dynamic values (PROTOCOL.md §2.7), when the server sent them. */
  cmsdStatic?: string;
  cmsdDynamic?: string;
  /** The server's DONE statistics (datagram transport). */
  done: DoneFrame | null;
  aborted: boolean;
}

interface PendingBody {
  onChunk: (chunk: Uint8Array) => void;
  onComplete: () => void;
  onFail: (err: Error) => void;
}

export class PccClient {
  private readonly receiver: DatagramReceiver;
  /** The receiver's ACK policy (PROTOCOL.md §4.1), the same the browser worker runs. */
  private readonly ackScheduler: AckScheduler;
  private readonly pending = new Map<number, PendingBody>();
  private nextRequestId = 1;
  private ackTimer: NodeJS.Timeout | null = null;
  private closed = false;
  acksSent = 0;
  ackSendRefused = 0;
  readonly rttSamplesUs: number[] = [];
  private rttTimer: NodeJS.Timeout | null = null;

  private constructor(readonly quic: Session, readonly transport: 'datagram' | 'quic-stream', options: ConnectOptions) {
    this.receiver = new DatagramReceiver({
      maxWindowBytes: options.maxWindowBytes ?? 16 * 1024 * 1024,
      ...(options.ackEveryPackets !== undefined ? { ackEveryPackets: options.ackEveryPackets } : {}),
      ...(options.maxAckDelayUs !== undefined ? { maxAckDelayUs: options.maxAckDelayUs } : {}),
    });
    this.ackScheduler = new AckScheduler(this.receiver);
    if (transport === 'datagram') void this.receiveLoop();
    void quic.closed().then((info) => {
      this.closeInfo = info;
      this.failPending(new Error(`session closed (code ${info.code}: ${info.reason})`));
    });
  }

  /** How the session ended, once it has. */
  closeInfo: { code: number; reason: string } | null = null;

  private failPending(err: Error): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.onFail(err);
  }

  /** `origin` is https://HOST:PORT (any path is replaced by the session path and query). */
  static async connect(origin: string, options: ConnectOptions): Promise<PccClient> {
    const url = new URL(origin);
    url.pathname = options.sessionPath ?? '/pcc';
    url.search = '';
    const transport = options.transport ?? 'datagram';
    if (transport !== 'datagram') url.searchParams.set('transport', transport);
    if (options.cc) url.searchParams.set('cc', options.cc);
    for (const [k, v] of Object.entries(options.params ?? {})) url.searchParams.set(k, String(v));
    const quic = await QuicClient.connect(url.toString(), {
      certSha256Hex: options.certSha256Hex, congestion: 'none', connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      datagramRecvBufferBytes: 16 * 1024 * 1024, ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      connectionIdBytes: options.quicConnectionIdBytes ?? QUIC_CONNECTION_ID_BYTES,
      // The client's ACK datagrams are ack-eliciting and a full-size DATA packet has no room for an ACK frame, so
      // every QUIC ACK the origin sends is a ~67-byte packet of its own: one per two ACK datagrams without this.
      requestAckFrequency: options.quicRequestAckFrequency ?? true,
    });
    return new PccClient(quic, transport, options);
  }

  get datagramReceiver(): DatagramReceiver {
    return this.receiver;
  }

  private receiveLoop(): Promise<void> {
    // Each datagram's receive time from the addon: the ACK's delay then covers the time it waited for this
    // event loop, which the sender subtracts from its RTT sample, and its receive time is its own (PROTOCOL.md §3.2).
    return receiveDatagramBatches(this.quic, () => this.closed, (datagrams, now, receivedAtUs) => {
      const touched = new Set<number>();
      for (let i = 0; i < datagrams.length; i++) {
        const r = this.receiver.onDatagram(datagrams[i]!, receivedAtUs[i]!);
        if (r.ok && r.value.newBytes > 0) touched.add(r.value.requestId);
      }
      let bodyCompleted = false;
      for (const id of touched) bodyCompleted = this.deliver(id, now) || bodyCompleted;
      // A completed body is acknowledged at once (the policy's tail ACK).
      this.runAckStep(this.ackScheduler.onReceived(nowUs(), bodyCompleted));
    });
  }

  /** Hands in-order bytes to the request; returns true when this completed its body. */
  private deliver(requestId: number, now: number): boolean {
    const p = this.pending.get(requestId);
    if (!p) return false;
    for (const chunk of this.receiver.take(requestId, now)) p.onChunk(chunk);
    if (!this.receiver.isComplete(requestId)) return false;
    this.pending.delete(requestId);
    p.onComplete();
    return true;
  }

  /** Sends the ACK the policy chose, and arms the timer where it says. */
  private runAckStep(step: AckStep): void {
    if (this.closed) return;
    if (step.ack) {
      try {
        if (this.quic.sendDatagram(step.ack)) this.acksSent++;
        else this.ackSendRefused++;
      } catch {
        return;
      }
    }
    if (step.armTimerAtUs === null) return;
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.ackTimer = setTimeout(() => {
      this.ackTimer = null;
      this.runAckStep(this.ackScheduler.onTimer(nowUs()));
    }, timerDelayMs(step.armTimerAtUs, nowUs()));
  }

  private startRttSampling(): void {
    if (this.rttTimer) return;
    this.rttTimer = setInterval(() => {
      try {
        const rtt = this.quic.stats().rttUs;
        if (rtt > 0) this.rttSamplesUs.push(rtt);
      } catch {
        /* closed */
      }
    }, 10);
  }

  async fetch(path: string, options: FetchOptions = {}): Promise<FetchResult> {
    if (this.closed) throw new Error('client is closed');
    const requestId = this.nextRequestId++;
    const collected: Uint8Array[] = [];
    let bytes = 0;
    const onChunk = (chunk: Uint8Array): void => {
      bytes += chunk.byteLength;
      if (options.onData) options.onData(chunk);
      else collected.push(chunk);
    };
    if (this.transport === 'datagram') this.receiver.open(requestId);
    const stream = new RequestStream(await this.quic.openBi());
    this.startRttSampling();
    const result: FetchResult = {
      status: 0, reason: '', contentType: '', totalSize: 0, bodyOffset: 0, bodyLength: 0, bytes: 0, done: null, aborted: false,
    };
    let abortRequested = false;
    const onAbort = (): void => {
      abortRequested = true;
      void stream.write({ type: 'cancel', requestId }).then(() => stream.finish());
      const p = this.pending.get(requestId);
      this.pending.delete(requestId);
      p?.onComplete();
    };
    if (this.closeInfo) throw new Error(`session closed (code ${this.closeInfo.code}: ${this.closeInfo.reason})`);
    try {
      if (!(await stream.write({ type: 'request', requestId, path, windowBytes: this.receiver.windowBytes(), ...(options.range ? { range: options.range } : {}) }))) {
        throw new Error('could not send the request (session closed?)');
      }
      const head = await stream.readFrame();
      if (head.kind !== 'frame' || head.frame.type !== 'response') {
        throw new Error(`no response from the server (${head.kind === 'frame' ? head.frame.type : head.kind})`);
      }
      const response = head.frame;
      Object.assign(result, {
        status: response.status, reason: response.reason, contentType: response.contentType, totalSize: response.totalSize,
        bodyOffset: response.bodyOffset, bodyLength: response.bodyLength,
        ...(response.cmsdStatic ? { cmsdStatic: response.cmsdStatic } : {}), ...(response.cmsdDynamic ? { cmsdDynamic: response.cmsdDynamic } : {}),
      });
      if (response.status >= 300) return result;
      if (options.signal?.aborted) onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (response.delivery === DELIVERY_DATAGRAMS) {
        const set = this.receiver.setBodyLength(requestId, response.bodyLength);
        if (!set.ok) throw new Error(`bad response: ${set.error.message}`);
        const complete = new Promise<void>((resolve, reject) => this.pending.set(requestId, { onChunk, onComplete: resolve, onFail: reject }));
        const t = nowUs();
        if (this.deliver(requestId, t)) this.runAckStep(this.ackScheduler.onReceived(t, true)); // every byte overtook the RESPONSE
        await complete;
        if (!abortRequested) {
          const done = await withTimeout(stream.readFrame(), 5000);
          if (done && done.kind === 'frame' && done.frame.type === 'done') result.done = done.frame;
          await stream.finish();
        }
      } else {
        // Body on the stream (quic-stream transport, or the telemetry feed).
        const expected = response.bodyLength === U48_MAX ? Infinity : response.bodyLength;
        let received = 0;
        const initial = stream.takeBuffered();
        if (initial.byteLength > 0) {
          received += initial.byteLength;
          onChunk(initial);
        }
        while (received < expected && !abortRequested) {
          let chunk: Buffer | null;
          try {
            chunk = await stream.stream.read(1 << 20);
          } catch {
            break;
          }
          if (chunk === null) break;
          received += chunk.byteLength;
          onChunk(chunk);
        }
        if (!abortRequested) await stream.finish();
      }
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      this.pending.delete(requestId);
      this.receiver.close(requestId);
    }
    result.aborted = abortRequested;
    result.bytes = bytes;
    if (!options.onData) result.body = concat(collected, bytes);
    return result;
  }

  /** Subscribes to the session's telemetry (one JSON object per line); call the returned function to stop. */
  async telemetry(onRecord: (record: Record<string, unknown>) => void): Promise<() => void> {
    const controller = new AbortController();
    let partial = '';
    const decoder = new TextDecoder();
    const finished = this.fetch(TELEMETRY_PATH, {
      signal: controller.signal,
      onData: (chunk) => {
        partial += decoder.decode(chunk, { stream: true });
        let nl;
        while ((nl = partial.indexOf('\n')) >= 0) {
          const line = partial.slice(0, nl);
          partial = partial.slice(nl + 1);
          if (!line) continue;
          try {
            onRecord(JSON.parse(line) as Record<string, unknown>);
          } catch {
            /* a torn or invalid line is skipped */
          }
        }
      },
    });
    return () => {
      controller.abort();
      void finished.catch(() => undefined);
    };
  }

  close(code = 0, reason = 'client done'): void {
    if (this.closed) return;
    this.closed = true;
    if (this.ackTimer) clearTimeout(this.ackTimer);
    if (this.rttTimer) clearInterval(this.rttTimer);
    try {
      this.quic.close(code, reason);
    } catch {
      /* already closed */
    }
  }
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  const r = await Promise.race([p, timeout]);
  clearTimeout(timer);
  return r;
}
