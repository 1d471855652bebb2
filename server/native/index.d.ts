// Public API of @pcc-stream/quic (hand-written: the contract the origin codes against).
// `npm run build` also emits native-generated.d.ts from the Rust source, for comparison.

/** 'none' = permissive controller (constant 2^40 window: quinn neither windows nor paces
 * datagrams; the application's pacer is in sole charge). */
export type QuicCongestion = 'none' | 'cubic' | 'bbr' | 'newreno';

/** The bounds of EndpointOptions' datagramSendBufferBytes and datagramRecvBufferBytes, bytes (MAX_BUFFER_BYTES also
 * bounds receiveWindowBytes): what the addon accepts, for callers that check their own input first. */
export declare const MIN_DATAGRAM_BUFFER_BYTES: number;
export declare const MAX_BUFFER_BYTES: number;
/** The longest ClientOptions.connectionIdBytes, bytes (RFC 9000 §17.2). */
export declare const MAX_CONNECTION_ID_BYTES: number;

export interface EndpointOptions {
  /** Default controller for new connections (default 'none'). */
  congestion?: QuicCongestion;
  /** Initial QUIC MTU in bytes of UDP payload (default 1452, 1200..1472); the minimum MTU is set
   * equal to it so black-hole detection never shrinks datagrams below what the app sends. */
  initialMtu?: number;
  /** quinn's datagram send buffer (default 1 MiB); sendDatagram returns false when it is full. */
  datagramSendBufferBytes?: number;
  /** Received datagrams kept unread (default 4 MiB of payload, at most 16,384 datagrams); beyond it the oldest are
   * dropped (SessionStats.datagramsDroppedUnread). */
  datagramRecvBufferBytes?: number;
  /** Default 30000. */
  idleTimeoutMs?: number;
  /** Default min(5000, idleTimeoutMs / 2); 0 disables keep-alives. */
  keepAliveMs?: number;
  /** QUIC receive window, connection and per stream, in bytes (16 KiB..256 MiB; default quinn's): how much
   * stream data a peer may leave unread with us. */
  receiveWindowBytes?: number;
  /** Ask each peer, with QUIC's ACK-frequency extension, for a QUIC ACK every 16 ack-eliciting packets (or 25 ms;
   * a gap in packet numbers at once) instead of every second one (default false). Only peers that advertise the
   * extension (min_ack_delay) are asked: SessionStats.ackFrequencyFramesSent shows whether one was. */
  requestAckFrequency?: boolean;
}

export interface ServerOptions extends EndpointOptions {
  host: string;
  /** 0 = any free port (read it back from QuicServer.port). */
  port: number;
  certPem: string;
  keyPem: string;
  /** New handshakes per second one source address (an IPv6 address by its /64) may start; absent or 0 = no limit.
   *  Beyond it a connection attempt is refused before any TLS work, with a QUIC CONNECTION_REFUSED close. */
  handshakesPerAddressPerS?: number;
  /** Handshakes one address may start at once before the rate applies (1..1,000,000; default one second's worth). */
  handshakeBurstPerAddress?: number;
}

/** Handshakes refused from one address since its previous report; at most one report per address per second. */
export interface HandshakeRefusal {
  /** The source address, or an IPv6 /64 as "prefix::/64". */
  address: string;
  refused: number;
  limitPerS: number;
  burst: number;
}

export interface ClientOptions extends EndpointOptions {
  /** SHA-256 (hex) of the server certificate's DER; required: the client trusts only this certificate. */
  certSha256Hex?: string;
  /** QUIC handshake plus WebTransport CONNECT deadline (default 10000). */
  connectTimeoutMs?: number;
  /** Local IP address to send from (default: any), e.g. one of 127.0.0.0/8 to look like many clients on loopback. */
  localAddress?: string;
  /** Length in bytes (0..20, default 8, quinn's) of the connection IDs this client issues. Every packet the server
   * sends carries one (its destination CID): 0 saves 8 bytes a packet. Safe because each client session has its own
   * UDP socket (packets are routed by address) and never migrates (RFC 9000 §5.1, §9.5). */
  connectionIdBytes?: number;
}

export interface SelfSignedCert {
  certPem: string;
  keyPem: string;
  /** SHA-256 of the certificate DER, lowercase hex (WebTransport serverCertificateHashes). */
  certSha256Hex: string;
  /** base64 SHA-256 of the SubjectPublicKeyInfo (the certificate key's pin). */
  spkiSha256Base64: string;
}

/** ECDSA P-256, self-signed; validDays 1..14 (total validity stays under 14 days for Chromium). */
export function generateSelfSignedCert(names: string[], validDays: number): SelfSignedCert;
/** setsockopt(TCP_CONGESTION) on a TCP socket's fd; throws an Error with the errno text. */
export function setTcpCongestion(fd: number, algorithm: string): void;
export function getTcpCongestion(fd: number): string;

/** The kernel sender's own rate and RTT from TCP_INFO (rates bit/s, times µs); fields an older kernel does not fill
 *  are absent. */
export interface TcpInfo {
  /** sk_pacing_rate (BBR: gain x bandwidth; CUBIC: 1.2-2 x cwnd / srtt). */
  pacingRateBps?: number;
  deliveryRateBps?: number;
  deliveryRateAppLimited?: boolean;
  sndCwndPackets: number;
  sndMssBytes: number;
  srttUs: number;
  rttvarUs: number;
  minRttUs?: number;
  totalRetransPackets: number;
  bytesSent?: number;
}
/** getsockopt(TCP_INFO) on a TCP socket's fd. Throws an Error with the errno text for a non-TCP fd. */
export function getTcpInfo(fd: number): TcpInfo;

export class QuicServer {
  private constructor();
  static bind(options: ServerOptions): Promise<QuicServer>;
  readonly port: number;
  /** The next WebTransport session (after its HTTP/3 CONNECT was answered 200); null after close(). */
  accept(): Promise<Session | null>;
  /** Stops accepting and closes every connection of the endpoint. */
  close(): void;
  /** Handshakes refused for handshakesPerAddressPerS since bind. */
  readonly handshakesRefused: number;
  /** Of those, the ones dropped unanswered: beyond 10 refusals of one address in a second only the first 10 get a
   *  CONNECTION_REFUSED close. */
  readonly handshakesRefusedSilently: number;
  /** The next report of refused handshakes; null after close() or when no limit is set. */
  nextHandshakeRefusal(): Promise<HandshakeRefusal | null>;
}

export class QuicClient {
  private constructor();
  /** url: https://host:port/path?query */
  static connect(url: string, options: ClientOptions): Promise<Session>;
}

export interface SessionStats {
  /** Smoothed RTT. */
  rttUs: number;
  minRttUs: number;
  cwndBytes: number;
  /** Current path MTU (UDP payload bytes). */
  mtu: number;
  lostPackets: number;
  sentPackets: number;
  lostBytes: number;
  congestionEvents: number;
  udpTxBytes: number;
  udpRxBytes: number;
  udpTxDatagrams: number;
  udpRxDatagrams: number;
  /** QUIC DATAGRAM frames sent / received. */
  datagramFramesSent: number;
  datagramFramesReceived: number;
  /** QUIC ACK frames sent. */
  ackFramesSent: number;
  /** ACK_FREQUENCY frames sent / received (nonzero only where one end set requestAckFrequency and the other
   * advertised the extension). */
  ackFrequencyFramesSent: number;
  ackFrequencyFramesReceived: number;
  /** Payload bytes sendDatagram can queue now without being refused. */
  datagramSendBufferSpace: number;
  /** Received datagrams dropped unread (the oldest first) because datagramRecvBufferBytes was full. */
  datagramsDroppedUnread: number;
  /** The controller in effect (a setCongestion switch shows once applied). */
  congestion: QuicCongestion;
}

export interface PackedDatagrams {
  data: Buffer;
  lengths: Uint32Array;
  /** When each datagram was taken off the connection (as `TimedDatagrams.receivedAtNs`). */
  receivedAtNs: Float64Array;
}

export interface TimedDatagrams {
  datagrams: Buffer[];
  /** receivedAtNs[i]: when datagrams[i] was taken off the connection, ns of CLOCK_MONOTONIC (process.hrtime's
   * clock). The addon reads every session's datagrams as they arrive, on its own threads, so a batch JavaScript
   * gets to late still carries each datagram's own, earlier time. */
  receivedAtNs: Float64Array;
}

export interface CloseInfo {
  code: number;
  reason: string;
}

/** What a session's peer may send as datagrams (Session.limitInboundDatagrams), checked on the addon's threads as
 * each datagram arrives: by `now` the peer may have sent `base + perSent × (datagrams this side sent) + perSecond ×
 * (seconds since the session began)`, each starting with one of `allowedTypes`. */
export interface InboundDatagramLimits {
  base: number;
  perSent: number;
  perSecond: number;
  /** First bytes accepted; [] = no datagram at all. */
  allowedTypes: number[];
  /** Close code of a session that breaks the limits. */
  closeCode: number;
}

export class Session {
  private constructor();
  /** Process-unique id. */
  readonly id: number;
  /** Path and query of the CONNECT request, e.g. "/media?transport=quic-stream&cc=bbr". */
  readonly url: string;
  /** "ip:port" of the peer. */
  readonly remoteAddress: string;
  /** Largest payload sendDatagram accepts now (0 if the peer refuses datagrams). */
  maxDatagramSize(): number;
  /** Switch this connection's controller: allowed once (repeating the active choice is a no-op),
   * applied at the next packet sent or acknowledged; the new controller starts from its initial
   * window, so call it right after accept/connect, before application data. Throws on a bad name,
   * a second switch, or a closed session (that error's code is SESSION_CLOSED_CODE). */
  setCongestion(algorithm: QuicCongestion): void;
  /** Synchronous; copies payload. false = the send buffer is full: NOT queued and nothing older dropped.
   * Throws if the session is closed (error code SESSION_CLOSED_CODE) or payload.length > maxDatagramSize(). */
  sendDatagram(payload: Uint8Array): boolean;
  /** count datagrams packed back to back in payloads (datagram i is lengths[i] bytes); one copy and
   * one native call per batch. Returns how many were queued, in order (stops at the first that does
   * not fit). Throws before sending anything if a length exceeds maxDatagramSize() or the lengths
   * overrun payloads (or queuedAtNs is shorter than count), and with code SESSION_CLOSED_CODE once the session has
   * ended (a batch the close interrupts returns what was queued; the next call throws). queuedAtNs[i], when given, is set for each
   * queued datagram to the time quinn took it, ns of CLOCK_MONOTONIC (recvDatagramsTimed's clock): a send
   * time that excludes whatever delayed the JavaScript caller. */
  sendDatagramBatch(payloads: Uint8Array, lengths: Uint32Array, count: number, queuedAtNs?: Float64Array): number;
  /** Paced sending (the origin's `--pacer addon`; src/pacer.rs): queues count datagrams (packed as for
   * sendDatagramBatch) for the addon's pacer thread, which hands datagram i to QUIC at dueNs[i] (ns of CLOCK_MONOTONIC;
   * up to 100 µs early, never before the datagrams queued ahead of it, late only while QUIC's send buffer is full),
   * whatever the JavaScript thread is doing then. Returns how many were taken, in order (fewer only when 4096 already
   * wait). Throws as sendDatagramBatch does on a bad batch or a closed session (code SESSION_CLOSED_CODE). */
  sendDatagramsAt(payloads: Uint8Array, lengths: Uint32Array, count: number, dueNs: Float64Array): number;
  /** Moves into sentAtNs the departure stamps (ns of CLOCK_MONOTONIC, read as QUIC took each; NaN for one QUIC refused
   * for good) of paced datagrams released since the last call, in queue order; returns how many. */
  takeDepartures(sentAtNs: Float64Array): number;
  /** Drops the paced datagrams still waiting for their time (never sent); returns how many. */
  discardPaced(): number;
  /** Paced datagrams waiting for their time. */
  readonly pacedWaiting: number;
  /** Resolves with 1..max datagrams, oldest first, once at least one is available; [] after close (once every
   * datagram received before it was taken). */
  recvDatagrams(max: number): Promise<Buffer[]>;
  /** Same, with each datagram's receive time: RTTs and ack delays measured without the event loop's wait. */
  recvDatagramsTimed(max: number): Promise<TimedDatagrams>;
  /** Same, packed into one Buffer (datagram i is lengths[i] bytes): fewer JS objects at high
   * rates. At most max datagrams and maxBytes of payload (only a first datagram larger than
   * maxBytes exceeds it). Empty (lengths.length 0) after close. */
  recvDatagramsPacked(max: number, maxBytes: number): Promise<PackedDatagrams>;
  /** Push-style receive: calls onBatch(count, packed) on the JS thread with every datagram that waits (one call per
   * event-loop turn at most; no promise, Buffer or object per batch or datagram), and once with (0, null) when the
   * session has ended and every datagram was handed over. `packed` is one ArrayBuffer: `count` receive stamps
   * (Float64, as TimedDatagrams.receivedAtNs), `count` lengths (Uint32), then the payloads back to back (native byte
   * order; server/src/datagram/packed-datagrams.ts `unpackPushedBatch` views it). One reader per session: a second
   * call throws, and recvDatagrams* must not be used beside it. An exception thrown by onBatch is uncaught. */
  onDatagrams(onBatch: (count: number, packed: ArrayBuffer | null) => void): void;
  /** The next stream the peer opens; null after close. */
  acceptBi(): Promise<BiStream | null>;
  /** Rejects if the session is closed ("session closed: ..."; a rejection carries no SESSION_CLOSED_CODE). */
  openBi(): Promise<BiStream>;
  stats(): SessionStats;
  /** reason ≤ 1024 bytes; the peer sees code and reason. Pending receives resolve []/null, opens
   * and writes reject. */
  close(code: number, reason: string): void;
  /** From now on a datagram of a type not allowed, or beyond the budget, closes the session (closeCode and a reason
   * naming which) before it or any later one reaches JavaScript. Throws on a type that is not a byte. */
  limitInboundDatagrams(limits: InboundDatagramLimits): void;
  /** The code and reason this side closed the session with (close(), or its inbound limits); null while open or
   * when the peer closed it. */
  readonly localClose: CloseInfo | null;
  /** Resolves when the session ended, with the code and reason of whichever side closed it
   * (code 0 and a description for transport-level ends such as "idle timeout"). */
  closed(): Promise<CloseInfo>;
}

/** The `code` of the error sendDatagram, sendDatagramBatch and setCongestion throw, and BiStream reads and writes reject
 *  with, once the session has ended, whichever side ended it: a peer's close, not a failure. The message ("session closed: ...") stays for people. */
export declare const SESSION_CLOSED_CODE: 'ERR_PCC_SESSION_CLOSED';
/** True when `err` carries SESSION_CLOSED_CODE. */
export function isSessionClosedError(err: unknown): boolean;

export class BiStream {
  private constructor();
  /** Up to maxBytes (1..16 MiB) of the next data; null = the peer finished the stream. Rejects with code
   *  SESSION_CLOSED_CODE when the session ended under the read. */
  read(maxBytes: number): Promise<Buffer | null>;
  /** Copies data at once; resolves when QUIC took it (flow control permitting). Rejects with code SESSION_CLOSED_CODE
   *  when the session ended under the write. */
  write(data: Uint8Array): Promise<void>;
  /** Sends FIN after the data already written. */
  finish(): Promise<void>;
  /** Abort sending: the peer's reads fail with code; a pending write rejects. */
  reset(code: number): void;
  /** Abort receiving: asks the peer to stop sending; a pending read rejects. */
  stop(code: number): void;
}
