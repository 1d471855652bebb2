// Common Media Server Data (CTA-5006) the origin sends with each response: the `CMSD-Dynamic` value (a Structured
// Field list with one item per server on the path, its parameters the server's view of the delivery) and a
// `CMSD-Static` dictionary. Over HTTPS they are the headers themselves; over WebTransport the RESPONSE frame
// carries the same strings (PROTOCOL.md §2.2) and the player hands them to dash.js under the headers' names.
import { fail, ok, type Result } from './errors.ts';

export const CMSD_DYNAMIC_HEADER = 'CMSD-Dynamic';
export const CMSD_STATIC_HEADER = 'CMSD-Static';
/** The item naming our origin in CMSD-Dynamic (CTA-5006 §4.2: a string identifying the server). */
export const CMSD_SERVER_ID = 'pcc-origin';
/** Each CMSD string fits the RESPONSE frame's one-byte length. */
export const MAX_CMSD_CHARS = 255;
/** RFC 8941 integers have at most 15 digits. */
const SF_INTEGER_MAX = 999_999_999_999_999;

export interface CmsdDynamic {
  /** `etp`: estimated throughput from this server to the client, kbit/s. */
  etpKbps?: number;
  /** `rtt`: estimated round-trip time, ms. */
  rttMs?: number;
  /** `mb`: the highest bitrate the server wants the client to request, kbit/s. */
  mbKbps?: number;
}

function integerParam(key: string, value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value) || value < 0) return '';
  return `;${key}=${Math.min(Math.round(value), SF_INTEGER_MAX)}`;
}

/** `"pcc-origin";etp=41000;rtt=12;mb=8000`; absent or non-finite values are left out. */
export function encodeCmsdDynamic(d: CmsdDynamic): string {
  return `"${CMSD_SERVER_ID}"${integerParam('etp', d.etpKbps)}${integerParam('rtt', d.rttMs)}${integerParam('mb', d.mbKbps)}`;
}

/** Reads our own CMSD-Dynamic form back (tests and the Node client; dash.js has its own parser). */
export function decodeCmsdDynamic(value: string): Result<CmsdDynamic> {
  if (value.length > MAX_CMSD_CHARS) return fail('too-large', `CMSD-Dynamic longer than ${MAX_CMSD_CHARS} characters`);
  const m = /^"([^"\\]*)"((?:;[a-z]+=[0-9]{1,15})*)$/.exec(value);
  if (!m) return fail('invalid-field', `CMSD-Dynamic ${JSON.stringify(value.slice(0, 60))} is not one server item with integer parameters`);
  const out: CmsdDynamic = {};
  for (const param of m[2]!.split(';').slice(1)) {
    const [key, raw] = param.split('=') as [string, string];
    const n = Number(raw);
    if (key === 'etp') out.etpKbps = n;
    else if (key === 'rtt') out.rttMs = n;
    else if (key === 'mb') out.mbKbps = n;
  }
  return ok(out);
}

/** CMSD-Static for DASH objects: streaming format DASH (`sf=d`), and the object type when the origin knows it. */
export function encodeCmsdStatic(objectType?: 'v' | 'a' | 'm' | 'i'): string {
  return objectType ? `ot=${objectType},sf=d` : 'sf=d';
}
