// Public API of linkem (import from "@pcc-stream/bench/linkem").
export { startLinkem, LinkemStartError } from './shell.ts';
export { reclaimLinkem } from './reclaim.ts';
export type { LinkemShell, LinkemSummary, DirectionSummary, StartOptions } from './shell.ts';
export { parseCommandLine, validateOptions, forwarderArgs, UsageError, USAGE } from './options.ts';
export type { LinkemOptions, QueueKind } from './options.ts';
export { preflight, PreflightError, FORWARDER_PATH, PROBE_PATH } from './preflight.ts';
export { parseTrace, loadTrace, opportunitiesBetween, traceMeanRateBps, rateTraceWithOutages, TraceError, OPPORTUNITY_BYTES } from './trace.ts';
export type { TraceWindow } from './trace.ts';
export { mmLogLines, mmLogStartEpochMs, parseMmLog, parseMmLogEvent } from './mmlog.ts';
export type { MmLog, MmLogEvent } from './mmlog.ts';
