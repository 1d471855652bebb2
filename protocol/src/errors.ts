// Typed protocol errors. Decoders and state machines return them in a Result instead of throwing, so
// hostile input from the network can never surface as an unhandled exception in the caller.

export type ProtocolErrorCode =
  | 'truncated' // fewer bytes than the layout needs
  | 'unknown-type' // first byte is not a known frame type
  | 'unsupported-version'
  | 'invalid-field' // a field value outside its allowed domain
  | 'too-large' // a length beyond the protocol's limits
  | 'bad-ack-range' // ranges overlap, underflow below 0, or are not descending
  | 'ack-of-unsent' // an ack for a packet number above the largest sent
  | 'optimistic-ack' // an ack for a packet number the sender skipped on purpose
  | 'out-of-bounds'; // body bytes outside the announced body

export interface ProtocolError {
  readonly code: ProtocolErrorCode;
  readonly message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ProtocolError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(code: ProtocolErrorCode, message: string): Result<T> {
  return { ok: false, error: { code, message } };
}

/** Errors that mean the peer is broken or hostile: the session must be closed. */
export function isSessionFatal(code: ProtocolErrorCode): boolean {
  return code === 'ack-of-unsent' || code === 'optimistic-ack' || code === 'bad-ack-range';
}
