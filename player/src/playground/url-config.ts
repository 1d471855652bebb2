// The playground's settings in the page URL, so a link reproduces a run: ?cc=vivace,cubic&flows=2&rate=20&rtt=30
// &buffer=75&loss=0&duration=20&seed=1, plus rtt-schedule=MIN:MAX:PERIOD (ms, ms, s), gap (s between flow starts)
// and trace=NAME (an LTE trace; replaces rate). Each maps onto one pcc-sim flag (controller-wasm/ts/simulation.ts).
import { WASM_CONTROLLERS } from '@pcc-stream/protocol';
import type { AlgorithmName, SimulationConfig } from '@pcc-stream/controller';

/** A simulation as the playground runs it: the trace by name instead of its timestamps. */
export type PlaygroundConfig = Omit<SimulationConfig, 'traceMs' | 'samples' | 'extraArgs'> & { trace?: string };

export const DEFAULT_PLAYGROUND_CONFIG: PlaygroundConfig = { cc: ['vivace', 'cubic'], flows: 2, rateMbps: 20, rttMs: 30, bufferKb: 75, loss: 0, durationS: 20, startGapS: 0, seed: 1 };

function number(params: URLSearchParams, key: string): number | undefined {
  const raw = params.get(key);
  if (raw === null || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`?${key}=${raw} is not a number`);
  return value;
}

/** The configuration a page URL's query names; settings it leaves out take the defaults. */
export function configFromQuery(search: string): PlaygroundConfig {
  const params = new URLSearchParams(search);
  if (![...params.keys()].some((k) => k !== 'figure')) return { ...DEFAULT_PLAYGROUND_CONFIG };
  const ccList = (params.get('cc') ?? 'vivace').split(',').filter(Boolean);
  for (const cc of ccList) {
    if (!(WASM_CONTROLLERS as readonly string[]).includes(cc)) throw new Error(`?cc=${cc} is not a controller; choose from ${WASM_CONTROLLERS.join(', ')}`);
  }
  const config: PlaygroundConfig = { cc: (ccList.length === 1 ? ccList[0] : ccList) as AlgorithmName | AlgorithmName[] };
  const flows = number(params, 'flows');
  if (flows !== undefined) config.flows = flows;
  const rtt = params.get('rtt');
  if (rtt) {
    const list = rtt.split(',').map(Number);
    if (list.some((v) => !Number.isFinite(v))) throw new Error(`?rtt=${rtt} is not a number or a list of numbers`);
    config.rttMs = list.length === 1 ? (list[0] as number) : list;
  }
  const schedule = params.get('rtt-schedule');
  if (schedule) {
    const [minMs, maxMs, periodS] = schedule.split(':').map(Number);
    if (![minMs, maxMs, periodS].every((v) => v !== undefined && Number.isFinite(v))) throw new Error(`?rtt-schedule=${schedule} is not MIN_MS:MAX_MS:PERIOD_S`);
    config.rttSchedule = { minMs: minMs as number, maxMs: maxMs as number, periodS: periodS as number };
  }
  const trace = params.get('trace');
  if (trace) config.trace = trace;
  else {
    const rate = number(params, 'rate');
    if (rate !== undefined) config.rateMbps = rate;
  }
  const set = (key: string, field: 'bufferKb' | 'loss' | 'durationS' | 'startGapS' | 'seed'): void => {
    const value = number(params, key);
    if (value !== undefined) config[field] = value;
  };
  set('buffer', 'bufferKb');
  set('loss', 'loss');
  set('duration', 'durationS');
  set('gap', 'startGapS');
  set('seed', 'seed');
  return config;
}

/** The query string that reproduces `config` (configFromQuery's inverse). */
export function queryFromConfig(config: PlaygroundConfig): string {
  const params = new URLSearchParams();
  params.set('cc', Array.isArray(config.cc) ? config.cc.join(',') : config.cc);
  if (config.flows !== undefined) params.set('flows', String(config.flows));
  if (config.trace) params.set('trace', config.trace);
  else if (config.rateMbps !== undefined) params.set('rate', String(config.rateMbps));
  if (config.rttMs !== undefined) params.set('rtt', Array.isArray(config.rttMs) ? config.rttMs.join(',') : String(config.rttMs));
  if (config.rttSchedule) params.set('rtt-schedule', `${config.rttSchedule.minMs}:${config.rttSchedule.maxMs}:${config.rttSchedule.periodS}`);
  if (config.bufferKb !== undefined) params.set('buffer', String(config.bufferKb));
  if (config.loss !== undefined) params.set('loss', String(config.loss));
  if (config.durationS !== undefined) params.set('duration', String(config.durationS));
  if (config.startGapS !== undefined) params.set('gap', String(config.startGapS));
  if (config.seed !== undefined) params.set('seed', String(config.seed));
  // Commas and colons are legal in a query: left readable, so a shared link reads like the settings.
  return params.toString().replace(/%2C/gi, ',').replace(/%3A/gi, ':');
}
