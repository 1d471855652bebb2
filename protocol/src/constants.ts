// Protocol-wide constants (PROTOCOL.md §1).

export const PROTOCOL_VERSION = 3;

/**
 * Largest datagram a receiver accepts: a UDP payload in a 1500 B IPv4 packet. QUIC's own headers keep every real
 * DATAGRAM frame smaller; a server sends DATA as large as its connection allows (1421 B at QUIC's 1452 B MTU).
 */
export const MAX_DATAGRAM_BYTES = 1472;

/** 2^48 − 1: the largest value of a 48-bit field, also "unknown" for sizes and "open end" for ranges. */
export const U48_MAX = 0xffff_ffff_ffff;

export const DATAGRAM_TYPE_DATA = 0x01;
export const DATAGRAM_TYPE_ACK = 0x02;

export const FRAME_TYPE_REQUEST = 0x10;
export const FRAME_TYPE_RESPONSE = 0x11;
export const FRAME_TYPE_DONE = 0x12;
export const FRAME_TYPE_CANCEL = 0x13;

/** Stream frame payloads are at most this long (type u8 + length u16 prefix). */
export const MAX_FRAME_PAYLOAD_BYTES = 4096;
export const MAX_PATH_BYTES = 2048;
export const MAX_CONTENT_TYPE_BYTES = 255;
export const MAX_REASON_BYTES = 512;

/** Up to this many SACK ranges in one ACK datagram (23 + 4 + 8·63 = 531 B). */
export const MAX_ACK_RANGES = 64;

/** Reserved request path: the response is a JSONL stream of this session's controller telemetry per MI. */
export const TELEMETRY_PATH = '/.pcc/telemetry';
/** Its query argument: at most one line per this many ms (PROTOCOL.md §2.5). */
export const TELEMETRY_INTERVAL_QUERY_KEY = 'interval_ms';

export const DELIVERY_DATAGRAMS = 0;
export const DELIVERY_STREAM = 1;
export type Delivery = typeof DELIVERY_DATAGRAMS | typeof DELIVERY_STREAM;

/** Session close codes (WebTransport application error codes). */
export const CLOSE_NORMAL = 0;
export const CLOSE_PROTOCOL_VIOLATION = 1;
export const CLOSE_OPTIMISTIC_ACK = 2;
export const CLOSE_LIMIT_EXCEEDED = 3;
export const CLOSE_IDLE_TIMEOUT = 4;
export const CLOSE_SERVER_SHUTDOWN = 5;
export const CLOSE_BAD_SESSION_PARAMS = 6;

/** Stream reset code a client uses to cancel a request. */
export const RESET_CANCELLED = 0x10;
