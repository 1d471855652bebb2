// Common Media Client Data (CTA-5004, version 1) as the player sends it: the `CMCD` query argument of a request
// path (CTA-5004 §2, query-argument transmission; PROTOCOL.md §2.6). One parser for the origin, the Node client's
// tests and anything else; pure and browser-safe. The payload is a Structured Field dictionary (RFC 8941) of
// integer, decimal, string, token and boolean members; we accept that subset and nothing else.
import { fail, ok, type Result } from './errors.ts';
import { requestQueryValues } from './request-query.ts';

/** The query argument's name (CTA-5004 §2.2). */
export const CMCD_QUERY_KEY = 'CMCD';
/** Longest CMCD payload we read; dash.js's full v1 key set with a long `nor` stays well below it. */
export const MAX_CMCD_CHARS = 1024;
export const MAX_CMCD_MEMBERS = 32;
/** CTA-5004 caps `sid` and `cid` at 64 characters. */
export const MAX_CMCD_ID_CHARS = 64;
export const MAX_CMCD_NOR_CHARS = 512;
export const MAX_CMCD_STRING_CHARS = 256;
/** Buffer, deadline and object durations beyond an hour are not a player's state but garbage. */
export const MAX_CMCD_DURATION_MS = 3_600_000;
/** Bitrates and throughputs beyond 100 Gbit/s likewise. */
export const MAX_CMCD_RATE_KBPS = 100_000_000;

/** The keys the origin uses, validated; other CTA-5004 keys are checked for syntax and kept raw. */
export interface CmcdState {
  /** `bl`: buffer length of the object's media type, ms. */
  bufferLengthMs?: number;
  /** `br`: encoded bitrate of the requested object, kbit/s. */
  encodedBitrateKbps?: number;
  /** `d`: playback duration of the requested object, ms. */
  objectDurationMs?: number;
  /** `dl`: deadline from the request until the buffer would run dry, ms (already divided by the playback rate). */
  deadlineMs?: number;
  /** `mtp`: the client's measured throughput, kbit/s. */
  measuredThroughputKbps?: number;
  /** `rtp`: the throughput the client asks the server to deliver at most, kbit/s. */
  requestedMaxThroughputKbps?: number;
  /** `tb`: top bitrate the client could play, kbit/s. */
  topBitrateKbps?: number;
  /** `nor`: the next object's path, resolved against the request path (starts with `/`, never leaves the root). */
  nextObjectPath?: string;
  /** `nrr`: the next request's byte range, `start-end` as in HTTP. */
  nextRange?: string;
  /** `su`: the object is needed urgently for startup, a seek or recovery from a stall. */
  startup: boolean;
  /** `bs`: the buffer ran dry since the previous request. */
  bufferStarvation: boolean;
  /** `ot`, `sf`, `st`: object type, streaming format, stream type tokens. */
  objectType?: string;
  streamingFormat?: string;
  streamType?: string;
  /** `sid`, `cid`: session and content identifiers. */
  sessionId?: string;
  contentId?: string;
  /** `pr`: playback rate (1 = real time). */
  playbackRate?: number;
  /** Syntactically valid keys this parser does not interpret (custom keys, newer versions), ignored per CTA-5004. */
  ignoredKeys: string[];
}

type SfValue = { kind: 'integer' | 'decimal'; value: number } | { kind: 'string' | 'token'; value: string } | { kind: 'boolean'; value: boolean };

const KEY = /^[a-z*][a-z0-9_\-.*]{0,63}$/;
const TOKEN = /^[A-Za-z*][A-Za-z0-9!#$%&'*+\-.^_`|~:/]{0,63}$/;
const INTEGER = /^-?[0-9]{1,15}$/;
const DECIMAL = /^-?[0-9]{1,12}\.[0-9]{1,3}$/;

function bad(message: string): Result<never> {
  return fail('invalid-field', `CMCD ${message}`);
}

/** Reads one member value at `i`; returns it and the index after it. */
function readValue(s: string, i: number, key: string): Result<{ value: SfValue; next: number }> {
  const c = s[i];
  if (c === '"') {
    let out = '';
    for (let j = i + 1; j < s.length; j++) {
      const ch = s[j]!;
      if (ch === '\\') {
        const esc = s[j + 1];
        if (esc !== '"' && esc !== '\\') return bad(`${key}: bad escape in string`);
        out += esc;
        j++;
      } else if (ch === '"') {
        return ok({ value: { kind: 'string', value: out }, next: j + 1 });
      } else {
        const code = ch.charCodeAt(0);
        if (code < 0x20 || code > 0x7e) return bad(`${key}: string holds a character outside printable ASCII`);
        out += ch;
      }
      if (out.length > MAX_CMCD_NOR_CHARS) return bad(`${key}: string longer than ${MAX_CMCD_NOR_CHARS} characters`);
    }
    return bad(`${key}: unterminated string`);
  }
  let end = s.indexOf(',', i);
  if (end < 0) end = s.length;
  const raw = s.slice(i, end).trimEnd();
  if (raw === '?0' || raw === '?1') return ok({ value: { kind: 'boolean', value: raw === '?1' }, next: end });
  if (INTEGER.test(raw)) return ok({ value: { kind: 'integer', value: Number(raw) }, next: end });
  if (DECIMAL.test(raw)) return ok({ value: { kind: 'decimal', value: Number(raw) }, next: end });
  if (TOKEN.test(raw)) return ok({ value: { kind: 'token', value: raw }, next: end });
  return bad(`${key}: value ${JSON.stringify(raw.slice(0, 40))} is not an integer, decimal, string, token or boolean`);
}

/** The Structured Field dictionary subset CMCD uses; duplicated keys are refused (a client never repeats one). */
function parseDictionary(s: string): Result<Map<string, SfValue>> {
  const members = new Map<string, SfValue>();
  let i = 0;
  while (i < s.length) {
    while (s[i] === ' ') i++;
    let keyEnd = i;
    while (keyEnd < s.length && s[keyEnd] !== '=' && s[keyEnd] !== ',') keyEnd++;
    const key = s.slice(i, keyEnd).trimEnd();
    if (!KEY.test(key)) return bad(`key ${JSON.stringify(key.slice(0, 40))} is not a valid key`);
    if (members.has(key)) return bad(`key ${key} appears twice`);
    if (members.size >= MAX_CMCD_MEMBERS) return bad(`has more than ${MAX_CMCD_MEMBERS} keys`);
    let value: SfValue;
    if (s[keyEnd] === '=') {
      const read = readValue(s, keyEnd + 1, key);
      if (!read.ok) return read;
      value = read.value.value;
      i = read.value.next;
    } else {
      value = { kind: 'boolean', value: true }; // a bare key is boolean true (RFC 8941 §3.2)
      i = keyEnd;
    }
    members.set(key, value);
    while (s[i] === ' ') i++;
    if (i < s.length) {
      if (s[i] !== ',') return bad(`expected "," after ${key}`);
      i++;
      if (i >= s.length) return bad('ends with ","');
    }
  }
  return ok(members);
}

function integerIn(key: string, v: SfValue, max: number): Result<number> {
  if (v.kind !== 'integer') return bad(`${key} must be an integer, got a ${v.kind}`);
  if (v.value < 0) return bad(`${key}=${v.value} is negative`);
  if (v.value > max) return bad(`${key}=${v.value} exceeds ${max}`);
  return ok(v.value);
}

function stringOf(key: string, v: SfValue, maxChars: number): Result<string> {
  if (v.kind !== 'string') return bad(`${key} must be a string, got a ${v.kind}`);
  if (v.value.length > maxChars) return bad(`${key} is longer than ${maxChars} characters`);
  return ok(v.value);
}

function tokenIn(key: string, v: SfValue, allowed: readonly string[]): Result<string> {
  if (v.kind !== 'token' || !allowed.includes(v.value)) return bad(`${key} must be one of ${allowed.join(', ')}`);
  return ok(v.value);
}

/**
 * Resolves a v1 `nor` (a URL-encoded path relative to the request's path, CTA-5004 §3.3) to a path from the media
 * root. A `nor` that would climb above the root, names another host, or is not a clean path is refused.
 */
export function resolveNextObjectPath(nor: string, requestPath: string): Result<string> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(nor);
  } catch {
    return bad('nor is not valid percent-encoding');
  }
  if (decoded.length === 0) return bad('nor is empty');
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) return bad('nor holds a control character or a backslash');
  if (/^[a-z][a-z0-9+.-]*:/i.test(decoded) || decoded.startsWith('//')) return bad('nor names another origin');
  const pathOnly = decoded.split(/[?#]/, 1)[0]!;
  const base = decoded.startsWith('/') ? [] : requestPath.split(/[?#]/, 1)[0]!.split('/').slice(1, -1);
  // The request's folder follows the same rules as the nor (the origin skips empty segments too): a raw base once
  // kept '' and '..' segments, so '/a//s.m4s' + '../x' gave '/a/x' and '/../s.m4s' + 'x' gave '/../x' (found by the
  // CMCD property test).
  if (base.some((segment) => /[\u0000-\u001f\u007f\\]/.test(segment))) return bad('request path holds a control character or a backslash');
  const segments: string[] = [];
  for (const segment of [...base, ...pathOnly.split('/')]) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return bad(`nor ${JSON.stringify(decoded.slice(0, 80))} leaves the media root`);
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  if (segments.length === 0) return bad('nor names no file');
  return ok('/' + segments.join('/'));
}

const OBJECT_TYPES = ['m', 'a', 'v', 'av', 'i', 'c', 'tt', 'k', 'o'] as const;
const TOKEN_KEYS = new Set(['ot', 'sf', 'st']);
const STREAMING_FORMATS = ['d', 'h', 's', 'o'] as const;
const STREAM_TYPES = ['v', 'l'] as const;

/**
 * Parses a CMCD v1 payload (the `CMCD` query argument's value, already URL-decoded once) sent with a request
 * for `requestPath`. Every key the origin uses is type- and range-checked; any malformed member refuses the whole
 * payload with a message naming the key.
 */
export function parseCmcd(payload: string, requestPath: string): Result<CmcdState> {
  if (payload.length > MAX_CMCD_CHARS) return bad(`payload is ${payload.length} characters, more than ${MAX_CMCD_CHARS}`);
  const dict = parseDictionary(payload);
  if (!dict.ok) return dict;
  const state: CmcdState = { startup: false, bufferStarvation: false, ignoredKeys: [] };
  for (const [key, v] of dict.value) {
    let r: Result<unknown>;
    switch (key) {
      case 'bl': r = integerIn(key, v, MAX_CMCD_DURATION_MS); if (r.ok) state.bufferLengthMs = r.value as number; break;
      case 'br': r = integerIn(key, v, MAX_CMCD_RATE_KBPS); if (r.ok) state.encodedBitrateKbps = r.value as number; break;
      case 'd': r = integerIn(key, v, MAX_CMCD_DURATION_MS); if (r.ok) state.objectDurationMs = r.value as number; break;
      case 'dl': r = integerIn(key, v, MAX_CMCD_DURATION_MS); if (r.ok) state.deadlineMs = r.value as number; break;
      case 'mtp': r = integerIn(key, v, MAX_CMCD_RATE_KBPS); if (r.ok) state.measuredThroughputKbps = r.value as number; break;
      case 'rtp': r = integerIn(key, v, MAX_CMCD_RATE_KBPS); if (r.ok) state.requestedMaxThroughputKbps = r.value as number; break;
      case 'tb': r = integerIn(key, v, MAX_CMCD_RATE_KBPS); if (r.ok) state.topBitrateKbps = r.value as number; break;
      case 'su':
      case 'bs':
        if (v.kind !== 'boolean') { r = bad(`${key} must be a boolean (bare key or ?0/?1), got a ${v.kind}`); break; }
        r = ok(v.value);
        if (key === 'su') state.startup = v.value; else state.bufferStarvation = v.value;
        break;
      case 'nor': {
        const s = stringOf(key, v, MAX_CMCD_NOR_CHARS);
        r = s.ok ? resolveNextObjectPath(s.value, requestPath) : s;
        if (r.ok) state.nextObjectPath = r.value as string;
        break;
      }
      case 'nrr': {
        r = stringOf(key, v, MAX_CMCD_STRING_CHARS);
        if (r.ok && !/^(\d{1,15}-\d{0,15}|-\d{1,15})$/.test(r.value as string)) r = bad('nrr must be a byte range "start-end"');
        if (r.ok) state.nextRange = r.value as string;
        break;
      }
      case 'ot': r = tokenIn(key, v, OBJECT_TYPES); if (r.ok) state.objectType = r.value as string; break;
      case 'sf': r = tokenIn(key, v, STREAMING_FORMATS); if (r.ok) state.streamingFormat = r.value as string; break;
      case 'st': r = tokenIn(key, v, STREAM_TYPES); if (r.ok) state.streamType = r.value as string; break;
      case 'sid': r = stringOf(key, v, MAX_CMCD_ID_CHARS); if (r.ok) state.sessionId = r.value as string; break;
      case 'cid': r = stringOf(key, v, MAX_CMCD_ID_CHARS); if (r.ok) state.contentId = r.value as string; break;
      case 'pr':
        if ((v.kind !== 'decimal' && v.kind !== 'integer') || !(v.value > 0 && v.value <= 100)) r = bad('pr must be a number in (0, 100]');
        else { r = ok(v.value); state.playbackRate = v.value; }
        break;
      case 'v':
        r = v.kind === 'integer' && v.value === 1 ? ok(1) : bad('v: only version 1 is understood');
        break;
      default:
        if (v.kind === 'string' && v.value.length > MAX_CMCD_STRING_CHARS) r = bad(`${key} is longer than ${MAX_CMCD_STRING_CHARS} characters`);
        else { r = ok(null); state.ignoredKeys.push(key); }
    }
    if (!r.ok) return r as Result<never>;
  }
  return ok(state);
}

/**
 * The CMCD of a request path's query (`/seg-1.m4s?CMCD=bl%3D21300%2Cbr%3D3200`): null when it carries none, an
 * error when it is malformed or the argument is repeated.
 */
export function cmcdFromRequestPath(requestPath: string): Result<CmcdState | null> {
  const values = requestQueryValues(requestPath, CMCD_QUERY_KEY);
  if (values.length === 0) return ok(null);
  if (values.length > 1) return bad('query argument appears more than once');
  return parseCmcd(values[0]!, requestPath.slice(0, requestPath.indexOf('?')));
}

/**
 * The CMCD query argument for a request (how the Node client and tests send it), keys sorted as CTA-5004 asks;
 * `nor` is URL-encoded inside its string as version 1 requires.
 */
export function cmcdQueryArgument(members: Record<string, number | boolean | string>): string {
  const parts: string[] = [];
  for (const key of Object.keys(members).sort()) {
    const v = members[key]!;
    if (v === false) continue;
    if (v === true) parts.push(key);
    else if (typeof v === 'number') parts.push(`${key}=${Math.round(v)}`);
    // ot, sf and st are tokens in CTA-5004 (the parser refuses them quoted; found by the CMCD property test).
    else if (TOKEN_KEYS.has(key) && TOKEN.test(v)) parts.push(`${key}=${v}`);
    else parts.push(`${key}="${(key === 'nor' ? encodeURIComponent(v) : v).replace(/[\\"]/g, (c) => '\\' + c)}"`);
  }
  return `${CMCD_QUERY_KEY}=${encodeURIComponent(parts.join(','))}`;
}
