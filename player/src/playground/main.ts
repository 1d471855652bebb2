// The controller playground (/playground): pick controllers and a link, run the WASM simulator in a Web Worker, and
// see each flow's rate and RTT and the bottleneck's queue. window.pccPlayground.run(config) gives the report exactly
// as `npm run -s sim -- ARGS --json` prints it for the same configuration (e2e/test/playground.test.ts checks it).
import uPlot from 'uplot';
import { WASM_CONTROLLERS } from '@pcc-stream/protocol';
import type { SimulationConfig, SimulationOutcome, SimulationReport } from '@pcc-stream/controller';
import { CHART_PALETTE } from '../ui/live-charts.ts';
import '../ui/styles.css';
import './playground.css';
import { renderFigureButtons } from './paper-figures.ts';
import type {} from './playground-api.ts';
import type { WorkerReply, WorkerRequest } from './sim-worker.ts';
import { loadTrace, PLAYGROUND_TRACES } from './traces.ts';
import { configFromQuery, queryFromConfig, type PlaygroundConfig } from './url-config.ts';

const MAX_FLOWS = 4;
const FLOW_COLORS = [CHART_PALETTE.send, CHART_PALETTE.goodput, CHART_PALETTE.bitrate, CHART_PALETTE.buffer];

const form = document.getElementById('settings') as HTMLFormElement;
const statusLine = document.getElementById('status') as HTMLElement;
const reportTable = document.getElementById('report') as HTMLTableElement;
const chartsHolder = document.getElementById('charts') as HTMLElement;
const errorBanner = document.getElementById('page-error') as HTMLElement;

const worker = new Worker(new URL('./sim-worker.ts', import.meta.url), { type: 'module' });
let nextRequest = 1;
const pending = new Map<number, { resolve: (o: SimulationOutcome) => void; reject: (e: Error) => void }>();
worker.onmessage = (event: MessageEvent<WorkerReply>) => {
  const reply = event.data;
  const waiter = pending.get(reply.id);
  pending.delete(reply.id);
  if (!waiter) return;
  if (reply.ok) waiter.resolve(reply.outcome);
  else waiter.reject(new Error(reply.error));
};

async function simulate(config: PlaygroundConfig, samples: boolean): Promise<SimulationOutcome> {
  const { trace, ...rest } = config;
  const sim: SimulationConfig = { ...rest, samples };
  if (trace) sim.traceMs = await loadTrace(trace);
  return runInWorker(sim);
}

function runInWorker(sim: SimulationConfig): Promise<SimulationOutcome> {
  const id = nextRequest++;
  const request: WorkerRequest = { id, config: sim };
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage(request);
  });
}

// ---- the settings form ----

function field(label: string, name: string, value: string, attrs: Record<string, string> = {}): HTMLLabelElement {
  const holder = document.createElement('label');
  holder.textContent = label;
  const input = document.createElement('input');
  input.name = name;
  input.value = value;
  for (const [k, v] of Object.entries(attrs)) input.setAttribute(k, v);
  holder.append(input);
  return holder;
}

function select(label: string, name: string, options: readonly string[], value: string): HTMLLabelElement {
  const holder = document.createElement('label');
  holder.textContent = label;
  const el = document.createElement('select');
  el.name = name;
  for (const option of options) el.append(new Option(option || 'none (fixed rate)', option, false, option === value));
  holder.append(el);
  return holder;
}

function fieldset(legend: string, ...children: HTMLElement[]): HTMLFieldSetElement {
  const set = document.createElement('fieldset');
  const title = document.createElement('legend');
  title.textContent = legend;
  set.append(title, ...children);
  return set;
}

function renderForm(config: PlaygroundConfig): void {
  const ccs = Array.isArray(config.cc) ? config.cc : [config.cc];
  const flows = Math.min(MAX_FLOWS, Math.max(1, config.flows ?? ccs.length));
  const flowControls = Array.from({ length: MAX_FLOWS }, (_, i) => {
    const el = select(`flow ${i + 1}`, `cc${i}`, WASM_CONTROLLERS, ccs[i] ?? ccs[ccs.length - 1] ?? 'vivace');
    el.hidden = i >= flows;
    return el;
  });
  const flowsInput = field('flows', 'flows', String(flows), { type: 'number', min: '1', max: String(MAX_FLOWS), step: '1' });
  flowsInput.querySelector('input')?.addEventListener('input', (ev) => {
    const n = Number((ev.target as HTMLInputElement).value);
    flowControls.forEach((el, i) => (el.hidden = i >= n));
  });
  const rtt = Array.isArray(config.rttMs) ? config.rttMs[0] : config.rttMs;
  const schedule = config.rttSchedule;
  const run = document.createElement('button');
  run.type = 'submit';
  run.textContent = 'Run';
  run.id = 'run';
  form.replaceChildren(
    fieldset('Controllers', flowsInput, ...flowControls, field('start gap (s)', 'gap', String(config.startGapS ?? 0), { type: 'number', min: '0', step: 'any' })),
    fieldset('Link',
      field('rate (Mbit/s)', 'rate', String(config.rateMbps ?? 20), { type: 'number', min: '0.1', step: 'any' }),
      select('LTE trace', 'trace', ['', ...Object.keys(PLAYGROUND_TRACES)], config.trace ?? ''),
      field('RTT (ms)', 'rtt', String(rtt ?? 30), { type: 'number', min: '1', step: 'any' }),
      field('RTT schedule min:max:period (ms:ms:s), empty for none', 'rtt-schedule', schedule ? `${schedule.minMs}:${schedule.maxMs}:${schedule.periodS}` : '', { placeholder: '10:100:5' }),
      field('buffer (KB)', 'buffer', String(config.bufferKb ?? 75), { type: 'number', min: '1', step: 'any' }),
      field('random loss (fraction)', 'loss', String(config.loss ?? 0), { type: 'number', min: '0', max: '0.99', step: 'any' }),
    ),
    fieldset('Run', field('duration (s)', 'duration', String(config.durationS ?? 20), { type: 'number', min: '0.1', step: 'any' }), field('seed', 'seed', String(config.seed ?? 1), { type: 'number', min: '0', step: '1' })),
    run,
  );
}

/** The form's settings as a URL query (the one parser, configFromQuery, reads both). */
function formQuery(): string {
  const data = new FormData(form);
  const value = (key: string): string => String(data.get(key) ?? '').trim();
  const flows = Number(value('flows'));
  const params = new URLSearchParams();
  params.set('cc', Array.from({ length: flows }, (_, i) => value(`cc${i}`)).join(','));
  params.set('flows', String(flows));
  if (value('trace')) params.set('trace', value('trace'));
  else params.set('rate', value('rate'));
  params.set('rtt', value('rtt'));
  if (value('rtt-schedule')) params.set('rtt-schedule', value('rtt-schedule'));
  for (const key of ['buffer', 'loss', 'duration', 'gap', 'seed']) params.set(key, value(key));
  return params.toString();
}

// ---- results ----

function showReport(report: SimulationReport, wallMs: number): void {
  const head = '<tr><th>flow</th><th>cc</th><th>Mbit/s</th><th>p95 RTT ms</th><th>mean RTT ms</th><th>loss %</th></tr>';
  const rows = report.flows.map((f, i) => `<tr><td>${i + 1}</td><td>${f.cc}</td><td>${f.throughput_mbps.toFixed(2)}</td><td>${f.p95_rtt_ms.toFixed(1)}</td><td>${f.mean_rtt_ms.toFixed(1)}</td><td>${(100 * f.loss_rate).toFixed(2)}</td></tr>`);
  reportTable.innerHTML = head + rows.join('');
  statusLine.textContent = `done: ${report.duration_s} s simulated in ${(wallMs / 1000).toFixed(1)} s; capacity ${report.capacity_mbps.toFixed(2)} Mbit/s, utilization ${(100 * report.link_utilization).toFixed(1)}%, Jain index ${report.jain_index.toFixed(3)}, ${report.packets_simulated} packets`;
}

function chart(title: string, unit: string, times: number[], lines: Array<{ label: string; color: string; values: (number | null)[]; dash?: number[] }>): void {
  const holder = document.createElement('div');
  holder.className = 'chart';
  chartsHolder.append(holder);
  const axis = (label: string): uPlot.Axis => ({ label, stroke: CHART_PALETTE.axis, grid: { stroke: CHART_PALETTE.grid, width: 1 }, ticks: { stroke: CHART_PALETTE.grid, width: 1 } });
  const opts: uPlot.Options = {
    title, width: Math.max(320, chartsHolder.clientWidth || 640), height: 200,
    scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
    axes: [axis('time (s)'), axis(unit)], cursor: { show: false }, legend: { live: false },
    series: [{ label: 't (s)' }, ...lines.map((l) => ({ label: l.label, stroke: l.color, width: 2, spanGaps: true, points: { show: false }, ...(l.dash ? { dash: l.dash } : {}) }))],
  };
  new uPlot(opts, [times, ...lines.map((l) => l.values)] as unknown as uPlot.AlignedData, holder);
}

function showCharts(outcome: SimulationOutcome): void {
  chartsHolder.replaceChildren();
  const samples = outcome.samples ?? [];
  const times = [...new Set(samples.map((s) => s.timeUs))].sort((a, b) => a - b);
  const index = new Map(times.map((t, i) => [t, i]));
  const flows = outcome.report.flows.length;
  const column = (pick: (s: (typeof samples)[number]) => number | null, flow: number | null): (number | null)[] => {
    const out: (number | null)[] = times.map(() => null);
    for (const s of samples) if (flow === null ? s.flow === 0 : s.flow === flow) out[index.get(s.timeUs) as number] = pick(s);
    return out;
  };
  const timesS = times.map((t) => t / 1e6);
  const perFlow = (pick: (s: (typeof samples)[number]) => number | null) =>
    Array.from({ length: flows }, (_, f) => ({ label: `flow ${f + 1} (${outcome.report.flows[f]?.cc})`, color: FLOW_COLORS[f % FLOW_COLORS.length] as string, values: column(pick, f) }));
  chart('Rate', 'Mbit/s', timesS, [{ label: 'link capacity', color: CHART_PALETTE.capacity, values: column((s) => s.capacityBps / 1e6, null), dash: [6, 4] }, ...perFlow((s) => s.throughputBps / 1e6)]);
  chart('Bottleneck queue', 'ms', timesS, [{ label: 'queueing delay', color: CHART_PALETTE.queue, values: column((s) => s.queueDelayUs / 1e3, null) }]);
  // An interval without an acknowledgement has no RTT sample (0): a gap, not a zero.
  chart('RTT', 'ms', timesS, perFlow((s) => (s.rttUs > 0 ? s.rttUs / 1e3 : null)));
}

// ---- running ----

let lastReport: SimulationReport | null = null;

async function runFromPage(config: PlaygroundConfig): Promise<void> {
  const started = performance.now();
  const tick = setInterval(() => {
    statusLine.textContent = `running ${config.durationS ?? 10} s of simulated time in a worker… ${((performance.now() - started) / 1000).toFixed(0)} s elapsed`;
  }, 250);
  (document.getElementById('run') as HTMLButtonElement).disabled = true;
  try {
    const outcome = await simulate(config, true);
    lastReport = outcome.report;
    showReport(outcome.report, performance.now() - started);
    showCharts(outcome);
    errorBanner.hidden = true;
  } catch (error) {
    errorBanner.textContent = (error as Error).message;
    errorBanner.hidden = false;
    statusLine.textContent = 'failed';
  } finally {
    clearInterval(tick);
    (document.getElementById('run') as HTMLButtonElement).disabled = false;
  }
}

let current: PlaygroundConfig;
try {
  current = configFromQuery(location.search);
} catch (error) {
  errorBanner.textContent = `${(error as Error).message}; showing the defaults`;
  errorBanner.hidden = false;
  current = configFromQuery('');
}
renderForm(current);
const runFigure = renderFigureButtons(
  document.getElementById('figure-buttons') as HTMLElement, document.getElementById('figure-status') as HTMLElement,
  document.getElementById('figure-verdicts') as HTMLElement, document.getElementById('figure-table') as HTMLTableElement, runInWorker,
);
form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  try {
    current = configFromQuery(formQuery());
  } catch (error) {
    errorBanner.textContent = (error as Error).message;
    errorBanner.hidden = false;
    return;
  }
  history.replaceState(null, '', `?${queryFromConfig(current)}`);
  void runFromPage(current);
});

window.pccPlayground = {
  run: async (config) => {
    const outcome = await simulate(config, false);
    lastReport = outcome.report;
    return outcome.report;
  },
  config: () => structuredClone(current),
  lastReport: () => lastReport,
  runFigure,
};
// A shared link runs straight away: that is what the link is for.
if (location.search.length > 1) void runFromPage(current);


