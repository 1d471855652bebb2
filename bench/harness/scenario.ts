// Benchmark scenario files: the JSON shape of issue 6, parsed and validated with clear errors.
// A scenario describes one emulated path, one media configuration and the schemes to compare on it.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { TraceFileError, traceFile } from '@pcc-stream/protocol/node/trace-file';
import {
  BENCHMARKED_SCHEMES, CONTROLLER_PARAM_NAME, SCHEME_NAMES, WASM_CONTROLLERS, parseScheme, type SchemeName, type WasmControllerName,
} from '@pcc-stream/protocol';
import type { Picture } from '@pcc-stream/player/media';
import { parseAidedScheme, type AidedSchemeName } from './aids.ts';
import { EXTERNAL_SCHEME_NAMES, isExternalScheme, type ExternalSchemeName } from './external-schemes.ts';

/** Scheme names are the registry's (@pcc-stream/protocol's SCHEMES) and the bench's external peers
 *  (external-schemes.ts, bulk only); ALL_SCHEMES are those a scenario runs by default (no external one). */
export const ALL_SCHEMES = BENCHMARKED_SCHEMES;
export type Scheme = SchemeName | ExternalSchemeName | AidedSchemeName;

export type LinkDirection = { rateMbps: number } | { tracePath: string };
export type QueueSpec = { type: 'infinite' } | { type: 'droptail' | 'drophead'; bytes?: number; packets?: number };
export type DelaySpec =
  | { oneWayMs: number }
  | { rttPattern: { minMs: number; maxMs: number; periodS: number; seed: number } };
/** Generated media (named by these parameters, made before the run) or the user's own DASH manifest. `durationS`
 *  absent: long enough for the run (bench/harness/media.ts). */
export type MediaSpec =
  | { abr: true; durationS?: number; segmentS: number; vbr: boolean }
  | { abr: false; bitrateMbps: number; durationS?: number; segmentS: number; vbr: boolean; picture?: Picture }
  | { mpdPath: string };
/** Parameter overrides of the WASM controllers, per datagram scheme: {"vivace": {"epsilon_min": 0.02}}. */
export type ControllerParams = Partial<Record<WasmControllerName, Record<string, number>>>;

/** Segment duration of generated media unless a scenario names one. */
export const DEFAULT_SEGMENT_S = 2;

export interface Scenario {
  name: string;
  durationS: number;
  repetitions: number;
  link: { down: LinkDirection; up: LinkDirection; queue: QueueSpec };
  delay: DelaySpec;
  loss: { down: number; up: number };
  media: MediaSpec;
  players: number;
  schemes: Scheme[];
  /** Sent to the origin with each session of that scheme; recorded with every run. */
  controllerParams: ControllerParams;
  /** 'browser' plays video in Chromium; 'bulk' downloads with the Node client (no browser). */
  mode: 'browser' | 'bulk';
  /** A case of the `faults` suite (bench/harness/faults/cases.ts) that runs this scenario its own way; absent for
   *  every other scenario. Set by the suite, never read from a file. */
  fault?: string;
  /** Extra player page parameters (`--player-param NAME=VALUE`, e.g. abrThroughput=dashjs), every scheme alike;
   *  recorded as player_params with every run. Set by the command line, never read from a file. */
  playerParams?: Record<string, string>;
}

/** Thrown for any problem with a scenario; the message names the field and what was expected. */
export class ScenarioError extends Error {
  constructor(where: string, message: string) {
    super(`${where}: ${message}`);
    this.name = 'ScenarioError';
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireObject(value: Json | undefined, where: string): JsonObject {
  if (!isObject(value)) throw new ScenarioError(where, 'expected an object');
  return value;
}

function requireNumber(value: Json | undefined, where: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ScenarioError(where, 'expected a finite number');
  if (value < min || value > max) throw new ScenarioError(where, `expected a number in [${min}, ${max}], got ${value}`);
  return value;
}

function optionalNumber(value: Json | undefined, where: string, min: number, max: number, fallback: number): number {
  return value === undefined ? fallback : requireNumber(value, where, min, max);
}

function rejectUnknownKeys(object: JsonObject, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) throw new ScenarioError(`${where}.${key}`, `unknown field (allowed: ${allowed.join(', ')})`);
  }
}

function parseDirection(value: Json | undefined, where: string, baseDir: string): LinkDirection {
  const object = requireObject(value, where);
  rejectUnknownKeys(object, ['rate_mbps', 'trace'], where);
  if (object.rate_mbps !== undefined && object.trace !== undefined) {
    throw new ScenarioError(where, 'give either rate_mbps or trace, not both');
  }
  if (object.rate_mbps !== undefined) return { rateMbps: requireNumber(object.rate_mbps, `${where}.rate_mbps`, 0.01, 10_000) };
  if (typeof object.trace === 'string' && object.trace.length > 0) {
    // Relative to the scenario file; a trace stored as NAME.gz is decompressed once and its plain copy used. A bad
    // .gz is this scenario's problem, reported as such (it escaped as a TraceFileError; found by the property test).
    try {
      return { tracePath: traceFile(isAbsolute(object.trace) ? object.trace : resolve(baseDir, object.trace)) };
    } catch (error) {
      if (error instanceof TraceFileError) throw new ScenarioError(`${where}.trace`, error.message);
      throw error;
    }
  }
  throw new ScenarioError(where, 'expected {"rate_mbps": N} or {"trace": "path"}');
}

function parseQueue(value: Json | undefined, where: string): QueueSpec {
  if (value === undefined) return { type: 'infinite' };
  const object = requireObject(value, where);
  rejectUnknownKeys(object, ['type', 'bytes', 'packets'], where);
  const type = object.type;
  if (type === 'infinite') return { type };
  if (type !== 'droptail' && type !== 'drophead') {
    throw new ScenarioError(`${where}.type`, 'expected "infinite", "droptail" or "drophead"');
  }
  const queue: QueueSpec = { type };
  if (object.bytes !== undefined) queue.bytes = requireNumber(object.bytes, `${where}.bytes`, 1504, 1e9);
  if (object.packets !== undefined) queue.packets = requireNumber(object.packets, `${where}.packets`, 1, 1e7);
  if (queue.bytes === undefined && queue.packets === undefined) {
    throw new ScenarioError(where, `a ${type} queue needs "bytes" and/or "packets"`);
  }
  return queue;
}

function parseDelay(value: Json | undefined, where: string): DelaySpec {
  const object = requireObject(value, where);
  rejectUnknownKeys(object, ['one_way_ms', 'rtt_pattern'], where);
  if (object.one_way_ms !== undefined) return { oneWayMs: requireNumber(object.one_way_ms, `${where}.one_way_ms`, 0, 10_000) };
  const pattern = requireObject(object.rtt_pattern, `${where}.rtt_pattern`);
  rejectUnknownKeys(pattern, ['min_ms', 'max_ms', 'period_s', 'seed'], `${where}.rtt_pattern`);
  const minMs = requireNumber(pattern.min_ms, `${where}.rtt_pattern.min_ms`, 0, 10_000);
  const maxMs = requireNumber(pattern.max_ms, `${where}.rtt_pattern.max_ms`, minMs, 10_000);
  const periodS = requireNumber(pattern.period_s, `${where}.rtt_pattern.period_s`, 0.1, 3600);
  const seed = optionalNumber(pattern.seed, `${where}.rtt_pattern.seed`, 0, 2 ** 31, 1);
  return { rttPattern: { minMs, maxMs, periodS, seed: Math.floor(seed) } };
}

/** {"width": 320, "height": 180, "frame_rate": 10}: a cheaper picture for a CBR rendition; whether it can be encoded is
 *  ladder.ts's shapeProblem's to say (bench/harness/media.ts reports it against the scenario). */
function parsePicture(value: Json | undefined, where: string): Picture {
  const object = requireObject(value, where);
  rejectUnknownKeys(object, ['width', 'height', 'frame_rate'], where);
  return {
    width: requireNumber(object.width, `${where}.width`, 1, 10_000),
    height: requireNumber(object.height, `${where}.height`, 1, 10_000),
    framesPerSecond: requireNumber(object.frame_rate, `${where}.frame_rate`, 1, 1000),
  };
}

function parseMedia(value: Json | undefined, where: string, baseDir: string): MediaSpec {
  if (value === undefined) return { abr: true, segmentS: DEFAULT_SEGMENT_S, vbr: false };
  const object = requireObject(value, where);
  rejectUnknownKeys(object, ['abr', 'bitrate_mbps', 'duration_s', 'segment_s', 'vbr', 'mpd', 'picture'], where);
  if (object.mpd !== undefined) {
    const others = Object.keys(object).filter((k) => k !== 'mpd');
    if (others.length > 0) throw new ScenarioError(`${where}.${others[0]}`, 'bring-your-own media ("mpd") takes no other fields: its manifest says what it is');
    if (typeof object.mpd !== 'string' || object.mpd === '') throw new ScenarioError(`${where}.mpd`, 'expected the path of a DASH manifest (.mpd)');
    return { mpdPath: isAbsolute(object.mpd) ? object.mpd : resolve(baseDir, object.mpd) };
  }
  if (object.vbr !== undefined && typeof object.vbr !== 'boolean') throw new ScenarioError(`${where}.vbr`, 'expected true or false');
  const shape = {
    segmentS: optionalNumber(object.segment_s, `${where}.segment_s`, 0.5, 10, DEFAULT_SEGMENT_S),
    vbr: object.vbr === true,
    ...(object.duration_s === undefined ? {} : { durationS: requireNumber(object.duration_s, `${where}.duration_s`, 1, 24 * 3600) }),
  };
  const abr = object.abr ?? (object.bitrate_mbps === undefined);
  if (abr === true && object.picture !== undefined) throw new ScenarioError(`${where}.picture`, 'an ABR ladder has its own pictures: a picture is for one CBR bitrate ("abr": false)');
  if (abr === true) {
    if (object.bitrate_mbps !== undefined) throw new ScenarioError(`${where}.bitrate_mbps`, 'an ABR ladder has its own bitrates: use "abr": false to play one bitrate');
    return { abr: true, ...shape };
  }
  if (abr === false) {
    const bitrateMbps = requireNumber(object.bitrate_mbps, `${where}.bitrate_mbps`, 0.05, 1000);
    return { abr: false, bitrateMbps, ...shape, ...(object.picture === undefined ? {} : { picture: parsePicture(object.picture, `${where}.picture`) }) };
  }
  throw new ScenarioError(`${where}.abr`, 'expected true or false');
}

function parseSchemes(value: Json | undefined, where: string, mode: Scenario['mode']): Scheme[] {
  if (value === undefined) return [...ALL_SCHEMES];
  if (!Array.isArray(value) || value.length === 0) throw new ScenarioError(where, 'expected a non-empty array of scheme names');
  const schemes: Scheme[] = [];
  for (const [i, name] of value.entries()) {
    if (typeof name === 'string' && isExternalScheme(name)) {
      // An external peer has its own sender and receiver, no player: it runs in bulk scenarios only.
      if (mode !== 'bulk') throw new ScenarioError(`${where}[${i}]`, `${name} runs in bulk scenarios only ("mode": "bulk")`);
      if (!schemes.includes(name)) schemes.push(name);
      continue;
    }
    if (typeof name === 'string' && name.includes('+')) {
      // An aided scheme (aids.ts): vivace+prefetch, tcp-cubic+prefetch.
      const aided = parseAidedScheme(name);
      if (!aided.ok) throw new ScenarioError(`${where}[${i}]`, aided.error.message);
      if (!schemes.includes(aided.value)) schemes.push(aided.value);
      continue;
    }
    // Aliases (cubic@tcp) are accepted and stored as the canonical name (tcp-cubic).
    const scheme = typeof name === 'string' ? parseScheme(name) : null;
    if (scheme === null || !scheme.ok) {
      throw new ScenarioError(`${where}[${i}]`, `unknown scheme ${JSON.stringify(name)} (known: ${[...SCHEME_NAMES, ...EXTERNAL_SCHEME_NAMES].join(', ')})`);
    }
    const canonical: Scheme = scheme.value.name;
    if (!schemes.includes(canonical)) schemes.push(canonical);
  }
  return schemes;
}

/** Parses {"vivace": {"epsilon_min": 0.02}}: keys are datagram schemes (the only ones with WASM controllers), values
 *  objects of finite numbers. Whether the controller knows a name is checked by the origin, which fails the run. */
export function parseControllerParams(value: Json | undefined, where: string): ControllerParams {
  if (value === undefined) return {};
  const object = requireObject(value, where);
  const out: ControllerParams = {};
  for (const [scheme, params] of Object.entries(object)) {
    if (!(WASM_CONTROLLERS as readonly string[]).includes(scheme)) {
      throw new ScenarioError(`${where}.${scheme}`, `controller parameters apply to the datagram schemes only (${WASM_CONTROLLERS.join(', ')})`);
    }
    const entries = requireObject(params, `${where}.${scheme}`);
    const parsed: Record<string, number> = {};
    for (const [name, v] of Object.entries(entries)) {
      if (!CONTROLLER_PARAM_NAME.test(name)) throw new ScenarioError(`${where}.${scheme}.${name}`, 'expected a parameter name of lower case letters, digits and "_"');
      parsed[name] = requireNumber(v, `${where}.${scheme}.${name}`, -Number.MAX_VALUE, Number.MAX_VALUE);
    }
    out[scheme as keyof ControllerParams] = parsed;
  }
  return out;
}

/** Validates a parsed JSON value as a scenario. `baseDir` resolves relative trace paths. */
export function parseScenario(value: unknown, baseDir: string, where = 'scenario'): Scenario {
  const object = requireObject(value as Json, where);
  rejectUnknownKeys(object, ['name', 'duration_s', 'repetitions', 'link', 'delay', 'loss', 'media', 'players', 'schemes', 'controller_params', 'mode', 'description'], where);
  if (typeof object.name !== 'string' || !/^[A-Za-z0-9._-]{1,80}$/.test(object.name)) {
    throw new ScenarioError(`${where}.name`, 'expected 1-80 characters of letters, digits, ".", "_" or "-"');
  }
  const link = requireObject(object.link, `${where}.link`);
  rejectUnknownKeys(link, ['down', 'up', 'queue'], `${where}.link`);
  const loss = object.loss === undefined ? {} : requireObject(object.loss, `${where}.loss`);
  rejectUnknownKeys(loss, ['down', 'up'], `${where}.loss`);
  const mode = object.mode ?? 'browser';
  if (mode !== 'browser' && mode !== 'bulk') throw new ScenarioError(`${where}.mode`, 'expected "browser" or "bulk"');
  return {
    name: object.name,
    durationS: requireNumber(object.duration_s, `${where}.duration_s`, 1, 24 * 3600),
    repetitions: Math.floor(optionalNumber(object.repetitions, `${where}.repetitions`, 1, 1000, 1)),
    link: {
      down: parseDirection(link.down, `${where}.link.down`, baseDir),
      up: parseDirection(link.up, `${where}.link.up`, baseDir),
      queue: parseQueue(link.queue, `${where}.link.queue`),
    },
    delay: parseDelay(object.delay ?? { one_way_ms: 0 }, `${where}.delay`),
    loss: {
      down: optionalNumber(loss.down, `${where}.loss.down`, 0, 1, 0),
      up: optionalNumber(loss.up, `${where}.loss.up`, 0, 1, 0),
    },
    media: parseMedia(object.media, `${where}.media`, baseDir),
    players: Math.floor(optionalNumber(object.players, `${where}.players`, 1, 16, 1)),
    schemes: parseSchemes(object.schemes, `${where}.schemes`, mode),
    controllerParams: parseControllerParams(object.controller_params, `${where}.controller_params`),
    mode,
  };
}

/** Reads and validates a scenario file; any problem becomes a ScenarioError naming the file. */
export function loadScenarioFile(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ScenarioError(path, `cannot read scenario file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(path, `not valid JSON (${(error as Error).message})`);
  }
  return parseScenario(value, dirname(resolve(path)), path);
}
