// One button per seed-paper figure that `npm run sim:paper` reproduces (controller-wasm/scripts/paper/figures.ts,
// the one set of definitions both use): runs the figure's default (not --long) simulations in the playground's
// Worker, one at a time with "run k of n", and shows each verdict, our number beside the paper's, as
// `sim:paper -- --only ID` prints it after "ours: ".
import { WASM_CONTROLLERS } from '@pcc-stream/protocol';
import type { SimulationConfig, SimulationOutcome } from '@pcc-stream/controller';
import { figures, type Figure, type FigureContext } from '@pcc-stream/controller/paper/figures';
import type { SimRun, SimSample } from '@pcc-stream/controller/paper/run-sim';
import { formatCell } from '@pcc-stream/controller/paper/table';
import type { FigureResult } from './playground-api.ts';
import { loadTrace } from './traces.ts';

/** Runs one configuration in the Worker. */
export type WorkerRun = (config: SimulationConfig) => Promise<SimulationOutcome>;

/** pcc-sim's arguments as the WASM runner's configuration: --cc by name, a trace by its bench/traces name, the rest
 * passed through to the same C parser. */
async function configFromArgs(args: string[], withSamples: boolean): Promise<SimulationConfig> {
  let cc: string | undefined;
  let trace: string | undefined;
  const extraArgs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--cc') cc = args[++i];
    else if (arg === '--trace') trace = args[++i];
    else extraArgs.push(arg);
  }
  if (cc === undefined) throw new Error(`figure run without --cc: ${args.join(' ')}`);
  const config: SimulationConfig = { cc: cc as Extract<SimulationConfig['cc'], string>, extraArgs, samples: withSamples };
  if (trace !== undefined) config.traceMs = await loadTrace(trace);
  return config;
}

/** The Worker's samples in the units of pcc-sim's --csv series, which the figures' statistics read. */
function csvSamples(outcome: SimulationOutcome): SimSample[] {
  return (outcome.samples ?? []).map((s) => ({
    timeS: s.timeUs / 1e6, flow: s.flow, pacingRateMbps: s.pacingRateBps / 1e6, throughputMbps: s.throughputBps / 1e6, rttMs: s.rttUs / 1e3, queueBytes: s.queueBytes,
  }));
}

export function renderFigureButtons(holder: HTMLElement, status: HTMLElement, verdictList: HTMLElement, table: HTMLTableElement, runInWorker: WorkerRun): (id: string) => Promise<FigureResult> {
  const buttons: HTMLButtonElement[] = [];
  const runFigure = async (figure: Figure): Promise<FigureResult> => {
    buttons.forEach((b) => (b.disabled = true));
    verdictList.replaceChildren();
    table.replaceChildren();
    const started = performance.now();
    status.textContent = `${figure.id}: starting`;
    const ctx: FigureContext = {
      quick: false, long: false, jobs: 1, available: new Set(WASM_CONTROLLERS),
      log: (event) => console.info(JSON.stringify({ time: new Date().toISOString(), ...event })),
      runSim: async (args, withSamples): Promise<SimRun> => {
        const runStarted = performance.now();
        const outcome = await runInWorker(await configFromArgs(args, withSamples));
        return { result: outcome.report, samples: csvSamples(outcome), wallMs: performance.now() - runStarted, stderr: '' };
      },
      // The Worker's runner loads traces by name (traces.ts).
      tracePath: (name) => name,
      onRun: (done, total) => {
        const elapsedS = (performance.now() - started) / 1000;
        const etaS = done < total ? (elapsedS / done) * (total - done) : 0;
        status.textContent = `${figure.id}: run ${done} of ${total}, ${elapsedS.toFixed(0)} s elapsed${done < total ? `, about ${etaS.toFixed(0)} s left` : ''}`;
      },
    };
    try {
      const out = await figure.run(ctx);
      const head = document.createElement('tr');
      for (const h of out.headers) head.append(Object.assign(document.createElement('th'), { textContent: h }));
      table.append(head);
      for (const row of out.rows) {
        const tr = document.createElement('tr');
        for (const cell of row) tr.append(Object.assign(document.createElement('td'), { textContent: formatCell(cell, out.digits) }));
        table.append(tr);
      }
      for (const line of out.verdicts) verdictList.append(Object.assign(document.createElement('li'), { textContent: line }));
      status.textContent = `done: ${out.title}; ${out.setup}; ${((performance.now() - started) / 1000).toFixed(1)} s`;
      return { id: out.id, verdicts: out.verdicts };
    } catch (error) {
      status.textContent = `${figure.id} failed: ${(error as Error).message}`;
      throw error;
    } finally {
      buttons.forEach((b) => (b.disabled = false));
    }
  };
  for (const figure of figures) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = figure.id;
    button.dataset.figure = figure.id;
    button.addEventListener('click', () => void runFigure(figure).catch(() => undefined));
    buttons.push(button);
  }
  holder.replaceChildren(...buttons);
  return (id) => {
    const figure = figures.find((f) => f.id === id);
    if (!figure) return Promise.reject(new Error(`unknown figure ${id}; the figures: ${figures.map((f) => f.id).join(', ')}`));
    return runFigure(figure);
  };
}
