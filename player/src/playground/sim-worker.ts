// The playground's Web Worker: runs the packet-level simulator (controller-wasm's WASM build) off the page's
// thread, so the page stays responsive during a long run. One request in, one outcome (or error) out.
import { runSimulation, type SimulationConfig, type SimulationOutcome } from '@pcc-stream/controller';

export interface WorkerRequest {
  id: number;
  config: SimulationConfig;
}

export type WorkerReply =
  | { id: number; ok: true; outcome: SimulationOutcome; wallMs: number }
  | { id: number; ok: false; error: string };

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const { id, config } = event.data;
  const started = performance.now();
  let reply: WorkerReply;
  try {
    const outcome = await runSimulation(config);
    reply = { id, ok: true, outcome, wallMs: performance.now() - started };
  } catch (error) {
    reply = { id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  (self as unknown as Worker).postMessage(reply);
};
