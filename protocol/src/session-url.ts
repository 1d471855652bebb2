// Session parameters carried in the WebTransport CONNECT URL's query (PROTOCOL.md §1.2), e.g.
//   https://host:4433/pcc?cc=vivace&epsilon=0.05          datagram delivery paced by the vivace controller
//   https://host:4433/pcc?transport=quic-stream&cc=bbr    bodies on streams under quinn's BBR
import { fail, ok, type Result } from './errors.ts';
import { controllersOn } from './schemes.ts';

/** The transports a WebTransport session offers (tcp is the HTTPS origin's, not a session's). */
export type Transport = 'datagram' | 'quic-stream';

export interface SessionParams {
  transport: Transport;
  /** Controller name; undefined = the server's default. */
  cc?: string;
  /** Numeric controller parameter overrides (every other query key), e.g. rate_bps for `fixed`. */
  params: Record<string, number>;
}

/** What a controller parameter's name may be in the session URL (and wherever one is written before it goes there). */
export const CONTROLLER_PARAM_NAME = /^[a-z][a-z0-9_]{0,63}$/;

export function parseSessionUrl(url: string): Result<SessionParams> {
  let parsed: URL;
  try {
    parsed = new URL(url, 'https://localhost');
  } catch {
    return fail('invalid-field', `session URL ${JSON.stringify(url)} is not a URL`);
  }
  const out: SessionParams = { transport: 'datagram', params: {} };
  for (const [key, value] of parsed.searchParams) {
    if (key === 'transport') {
      if (value !== 'datagram' && value !== 'quic-stream') return fail('invalid-field', `transport must be datagram or quic-stream, got ${JSON.stringify(value)}`);
      out.transport = value;
    } else if (key === 'cc') {
      out.cc = value;
    } else {
      if (!CONTROLLER_PARAM_NAME.test(key)) return fail('invalid-field', `parameter name ${JSON.stringify(key)} is invalid`);
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n)) return fail('invalid-field', `parameter ${key} must be a finite number, got ${JSON.stringify(value)}`);
      out.params[key] = n;
    }
  }
  if (out.cc !== undefined) {
    const allowed: readonly string[] = controllersOn(out.transport);
    if (!allowed.includes(out.cc)) return fail('invalid-field', `cc=${out.cc} is not one of ${allowed.join(', ')} for transport=${out.transport}`);
  }
  if (out.transport === 'quic-stream' && Object.keys(out.params).length > 0) {
    return fail('invalid-field', 'transport=quic-stream takes no controller parameters');
  }
  return ok(out);
}
