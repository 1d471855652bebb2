/// <reference lib="webworker" />
// Dedicated worker owning the WebTransport session: it reads every datagram, reassembles bodies and sends ACKs
// (protocol/PROTOCOL.md, via @pcc-stream/protocol's DatagramReceiver), so ACK timing does not jitter with the page's
// rendering and the datagram queue is drained even while the main thread is busy decoding video.
import {
  AckScheduler, DELIVERY_DATAGRAMS, DatagramReceiver, RESET_CANCELLED, StreamFrameReader, TELEMETRY_INTERVAL_QUERY_KEY, TELEMETRY_PATH, U48_MAX,
  encodeStreamFrame, timerDelayMs, type AckStep, type ResponseFrame,
} from '@pcc-stream/protocol';
import { BodyBuffer, DEFAULT_PROGRESS_MODE, dueProgress, type ProgressMode } from './body-buffer.ts';
import { ProgressPacer } from './progress-pacer.ts';
import type { ByteRange } from './media-fetcher.ts';
import type { ConnectOptions, FromWorker, TelemetryPoint, ToWorker } from './worker-messages.ts';
import { TelemetryDecoder } from './telemetry-decoder.ts';

declare const self: DedicatedWorkerGlobalScope;

// Chromium's default incoming datagram queue is small; at 50 Mbit/s (≈ 5k datagrams/s) a render hiccup would
// overflow it and the browser would drop datagrams silently (FIELD-NOTES "WebTransport").
const incomingHighWaterMarkDatagrams = 8192;
const countersIntervalMs = 250;
// The charts take a point per second from the telemetry feed: two lines a second are plenty, where a line per
// monitor interval (~700 B every ~50 ms) costs ~100 kbit/s of the link the media shares (PROTOCOL.md §2.5).
const TELEMETRY_INTERVAL_MS = 500;

interface ActiveRequest {
  id: number;
  stream: WebTransportBidirectionalStream | null;
  /** Our side of the request stream stays open until the body is complete: finishing it early cancels (§2.4). */
  writer: WritableStreamDefaultWriter<Uint8Array> | null;
  response: ResponseFrame | null;
  /** Only the bytes that arrived (and, with `chunks`, not yet posted): never a buffer of the announced length. */
  body: BodyBuffer | null;
  /** When the page hears of the body's progress (progress-pacer.ts). */
  progress: ProgressPacer;
  done: boolean;
  /** Body handed over in progress messages as it arrives (worker-messages.ts `chunks`). */
  chunks: boolean;
}

let transport: WebTransport | null = null;
let datagramWriter: WritableStreamDefaultWriter<Uint8Array> | null = null;
// The receiver's ACK policy (PROTOCOL.md §4.1) with its default delayed-ACK time, as the Node client runs it.
const receiver = new DatagramReceiver();
const ackScheduler = new AckScheduler(receiver);
const requests = new Map<number, ActiveRequest>();
let ackTimer: ReturnType<typeof setTimeout> | null = null;
let acksSent = 0;
let closed = false;
/** What progress counts as `loaded` (body-buffer.ts: every byte received, or only the in-order ones). */
let progressMode: ProgressMode = DEFAULT_PROGRESS_MODE;
/** The start-up timeline's worker steps (worker-messages.ts SessionOpenTiming). */
const workerRunningEpochMs = performance.timeOrigin + performance.now();
let connectStartEpochMs = 0;

const nowUs = (): number => performance.now() * 1000;
const post = (msg: FromWorker, transfer: Transferable[] = []): void => self.postMessage(msg, transfer);

function describe(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const clean = hex.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(clean)) throw new Error(`certificate hash "${clean.slice(0, 80)}" is not 64 hex digits`);
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

async function connect(options: ConnectOptions): Promise<void> {
  const init: WebTransportOptions = {};
  if (options.certHashHex) init.serverCertificateHashes = [{ algorithm: 'sha-256', value: hexToBytes(options.certHashHex) }];
  connectStartEpochMs = performance.timeOrigin + performance.now();
  progressMode = options.progress ?? DEFAULT_PROGRESS_MODE;
  try {
    transport = new WebTransport(options.sessionUrl, init);
  } catch (err) {
    throw new Error(`cannot open a WebTransport session to ${options.sessionUrl}: ${describe(err)}`);
  }
  transport.datagrams.incomingHighWaterMark = incomingHighWaterMarkDatagrams;
  // The page builds dash.js once it hears this (an inline worker, playback-session.ts): until then its main thread
  // stays free for the steps of the worker's start that run there, the last being the hand-over of `connect`.
  post({ type: 'connecting', scriptProtocol: self.location.protocol });
  try {
    await transport.ready;
  } catch (err) {
    throw new Error(`the WebTransport session to ${options.sessionUrl} failed to open (${describe(err)}); is the origin running?`);
  }
  datagramWriter = transport.datagrams.writable.getWriter();
  transport.closed.then(
    (info) => onClosed(`closed by the server (code ${info.closeCode ?? 0}${info.reason ? `: ${info.reason}` : ''})`),
    (err: unknown) => onClosed(`lost: ${describe(err)}`),
  );
  void readDatagrams(transport);
  setInterval(postCounters, countersIntervalMs);
  if (options.telemetry) void readTelemetry();
}

function onClosed(reason: string): void {
  if (closed) return;
  closed = true;
  for (const r of requests.values()) if (!r.done) post({ type: 'failed', id: r.id, message: `session ${reason}` });
  requests.clear();
  post({ type: 'closed', reason });
}

function postCounters(): void {
  post({
    type: 'counters',
    counters: {
      datagramsReceived: receiver.datagramsReceived,
      datagramsLost: datagramsNeverArrived,
      datagramsDeclaredLost: packetsLostBySender,
      bytesReceived: datagramBodyBytesReceived + streamBytesReceived,
      acksSent,
      countedAtEpochMs: performance.timeOrigin + performance.now(),
    },
  });
}

let streamBytesReceived = 0;
/** Body bytes the DATA datagrams brought, each byte once: what an HTTP body counts (receiver.bytesReceived also
 *  counts our DATA headers and duplicates, which are transport overhead, not media). */
let datagramBodyBytesReceived = 0;
let packetsLostBySender = 0;
let datagramsNeverArrived = 0;
/** DATA datagrams received per request id, until its DONE frame settles the count. */
const datagramsPerRequest = new Map<number, number>();
async function readDatagrams(wt: WebTransport): Promise<void> {
  const reader = wt.datagrams.readable.getReader();
  for (;;) {
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await reader.read();
    } catch {
      return; // the session closed; onClosed reports it
    }
    if (result.done) return;
    // One clock read per datagram: this loop runs ~5k times/s at 50 Mbit/s.
    const t = nowUs();
    const outcome = receiver.onDatagram(result.value, t);
    let bodyCompleted = false;
    if (outcome.ok) {
      const { requestId, newBytes } = outcome.value;
      datagramBodyBytesReceived += newBytes;
      datagramsPerRequest.set(requestId, (datagramsPerRequest.get(requestId) ?? 0) + 1);
      if (newBytes > 0) {
        const active = requests.get(requestId);
        if (active) bodyCompleted = drainBody(active, t);
      }
    }
    // A completed body is acknowledged at once (the policy's tail ACK).
    runAckStep(ackScheduler.onReceived(t, bodyCompleted), t);
  }
}

/** Sends the ACK the policy chose, and arms the timer where it says. */
function runAckStep(step: AckStep, t: number): void {
  if (step.ack && datagramWriter) {
    acksSent++;
    datagramWriter.write(step.ack).catch(() => { /* session closing */ });
  }
  if (step.armTimerAtUs === null) return;
  if (ackTimer !== null) clearTimeout(ackTimer);
  ackTimer = setTimeout(() => {
    ackTimer = null;
    const now = nowUs();
    runAckStep(ackScheduler.onTimer(now), now);
  }, timerDelayMs(step.armTimerAtUs, t));
}

/** Moves in-order bytes into the body; returns true when this completed it. */
function drainBody(r: ActiveRequest, tUs: number): boolean {
  if (r.done || !r.body) return false;
  for (const chunk of receiver.take(r.id, tUs)) r.body.append(chunk);
  maybeProgress(r, tUs / 1000);
  if (!r.body.complete) return false;
  finish(r);
  return true;
}

function maybeProgress(r: ActiveRequest, now: number): void {
  if (!r.body) return;
  // `loaded` counts the bytes received out of order too (the reassembly's count): dash.js reads the path's delivery
  // mid-download, not how far resends have filled the holes (body-buffer.ts). A chunked body's `bytes` stay in order.
  for (const m of dueProgress(r.body, r.progress, progressMode, receiver.body(r.id)?.receivedBytes, now)) {
    post({ type: 'progress', id: r.id, ...m }, m.bytes ? [m.bytes] : []);
  }
}

function finish(r: ActiveRequest): void {
  if (r.done || !r.response || !r.body) return;
  r.done = true;
  requests.delete(r.id);
  receiver.close(r.id);
  // A chunked body already went out in the progress messages (the last one at completion, maybeProgress).
  const body = r.chunks ? new ArrayBuffer(0) : r.body.whole();
  post({
    type: 'response', id: r.id, status: r.response.status, statusText: r.response.reason, contentType: r.response.contentType, body,
    cmsdStatic: r.response.cmsdStatic ?? '', cmsdDynamic: r.response.cmsdDynamic ?? '',
  }, [body]);
}

function failRequest(r: ActiveRequest, message: string): void {
  if (r.done) return;
  r.done = true;
  requests.delete(r.id);
  receiver.close(r.id);
  r.writer?.abort(RESET_CANCELLED).catch(() => {});
  post({ type: 'failed', id: r.id, message });
}

/** Opens a request stream, writes REQUEST, and reads frames (and a stream-delivered body) until the end. */
async function runRequest(id: number, path: string, range: ByteRange | null, chunks: boolean): Promise<void> {
  const wt = transport;
  if (!wt || closed) {
    post({ type: 'failed', id, message: 'no WebTransport session' });
    return;
  }
  const r: ActiveRequest = { id, stream: null, writer: null, response: null, body: null, progress: new ProgressPacer(), done: false, chunks };
  requests.set(id, r);
  receiver.open(id); // before REQUEST: datagrams may overtake the RESPONSE frame
  try {
    const stream = await wt.createBidirectionalStream();
    r.stream = stream;
    const writer = stream.writable.getWriter();
    r.writer = writer;
    await writer.write(encodeStreamFrame({
      type: 'request', requestId: id, path, windowBytes: receiver.windowBytes(),
      ...(range ? { range: range.lastByte === null ? { start: range.firstByte } : { start: range.firstByte, end: range.lastByte } } : {}),
    }));
    await readResponseStream(r, stream.readable);
  } catch (err) {
    if (!r.done) failRequest(r, `request ${path} failed: ${describe(err)}`);
  }
}

async function readResponseStream(r: ActiveRequest, readable: ReadableStream<Uint8Array>): Promise<void> {
  const reader = readable.getReader();
  const frames = new StreamFrameReader();
  let streamBody = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (streamBody) {
      if (!r.done) appendStreamBody(r, value);
      continue;
    }
    frames.push(value);
    for (;;) {
      const next = frames.next();
      if (!next.ok) throw new Error(`bad frame from server: ${next.error.message}`);
      const frame = next.value;
      if (frame === null) break;
      if (frame.type === 'response') {
        r.response = frame;
        const length = frame.bodyLength === U48_MAX ? null : frame.bodyLength;
        if (length === null) throw new Error('response without a body length');
        r.body = new BodyBuffer(length, r.chunks);
        if (frame.delivery === DELIVERY_DATAGRAMS) {
          const set = receiver.setBodyLength(r.id, length);
          if (!set.ok) throw new Error(set.error.message);
          const t = nowUs();
          if (drainBody(r, t)) runAckStep(ackScheduler.onReceived(t, true), t); // every datagram overtook the RESPONSE frame
          if (length === 0) finish(r);
        } else {
          streamBody = true;
          receiver.close(r.id);
          if (length === 0) finish(r);
          const rest = frames.takeRaw();
          if (rest.byteLength > 0) appendStreamBody(r, rest);
          break;
        }
      }
      // DONE carries the sender's statistics (the body is complete as soon as every byte has arrived, which may be
      // before DONE): its lost-packet count covers datagrams the network or the browser dropped.
      if (frame.type === 'done') {
        packetsLostBySender += frame.packetsLost;
        // Exact drop count: DATA datagrams sent for this request that never arrived here. (The sender's own loss
        // count also includes packets it declared lost because their ACKs came late.)
        datagramsNeverArrived += Math.max(0, frame.packetsSent - (datagramsPerRequest.get(r.id) ?? 0));
        datagramsPerRequest.delete(r.id);
      }
    }
  }
  // The server finished its side (after DONE for datagram delivery): finish ours. Finishing earlier would cancel
  // the request (PROTOCOL.md §2.4) and lose DONE's loss statistics.
  r.writer?.close().catch(() => { /* already reset */ });
  if (!r.done) {
    if (!r.response) throw new Error('the server closed the request stream without a response');
    // Datagram delivery: bytes may still be arriving after the stream ended; drainBody finishes the request.
    if (r.response.delivery !== DELIVERY_DATAGRAMS) throw new Error(`stream body ended after ${r.body?.filled} of ${r.body?.declaredBytes} bytes`);
  }
}

function appendStreamBody(r: ActiveRequest, chunk: Uint8Array): void {
  if (!r.body) return;
  r.body.append(chunk);
  streamBytesReceived += chunk.byteLength;
  maybeProgress(r, performance.now());
  if (r.body.complete) finish(r);
}

function cancel(id: number): void {
  const r = requests.get(id);
  if (!r) return;
  r.done = true;
  requests.delete(id);
  receiver.close(id);
  // Resetting the request stream tells the server to stop sending this body (PROTOCOL.md: client cancel).
  r.writer?.abort(RESET_CANCELLED).catch(() => {});
  r.stream?.readable.cancel(RESET_CANCELLED).catch(() => {});
}

/** Reads the session's JSONL telemetry stream (one object per monitor interval) and forwards chart points. */
async function readTelemetry(): Promise<void> {
  const wt = transport;
  if (!wt) return;
  try {
    const stream = await wt.createBidirectionalStream();
    // The writable side stays open: finishing it would cancel the subscription (PROTOCOL.md §2.4).
    const writer = stream.writable.getWriter();
    const path = `${TELEMETRY_PATH}?${TELEMETRY_INTERVAL_QUERY_KEY}=${TELEMETRY_INTERVAL_MS}`;
    await writer.write(encodeStreamFrame({ type: 'request', requestId: 0xffff_fff0, path, windowBytes: 0 }));
    const reader = stream.readable.getReader();
    const frames = new StreamFrameReader();
    const decoder = new TextDecoder();
    const telemetry = new TelemetryDecoder();
    let text = '';
    let inBody = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      let chunk = value;
      if (!inBody) {
        frames.push(value);
        const next = frames.next();
        if (!next.ok) return;
        if (next.value === null) continue;
        if (next.value.type !== 'response' || next.value.status !== 200) return;
        inBody = true;
        chunk = frames.takeRaw();
      }
      text += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = text.indexOf('\n')) >= 0) {
        const line = text.slice(0, nl).trim();
        text = text.slice(nl + 1);
        if (line === '') continue;
        try {
          const point: TelemetryPoint | null = telemetry.decode(JSON.parse(line) as unknown, performance.now());
          if (point) post({ type: 'telemetry', point });
        } catch { /* a malformed line is skipped, the feed goes on */ }
      }
    }
  } catch {
    // Telemetry is optional (e.g. quic-stream sessions may not offer it): the charts show only player data.
  }
}

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  switch (msg.type) {
    case 'connect':
      connect(msg.options).then(() => post({ type: 'ready', timing: { workerRunningEpochMs, connectStartEpochMs, readyEpochMs: performance.timeOrigin + performance.now() } }), (err: unknown) => post({ type: 'fatal', message: describe(err) }));
      break;
    case 'fetch':
      void runRequest(msg.id, msg.path, msg.range, msg.chunks === true);
      break;
    case 'cancel':
      cancel(msg.id);
      break;
    case 'close':
      closed = true;
      transport?.close({ closeCode: 0, reason: 'player closed' });
      break;
  }
};
