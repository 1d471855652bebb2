// A deterministic workout of the module, run both in Node and in the Vite-built page of browser.test.ts.
import type { AlgorithmName, ControllerModule, ControllerTelemetry } from '../../index.ts';

export function runScenario(mod: ControllerModule): Record<string, ControllerTelemetry> {
  const results: Record<string, ControllerTelemetry> = {};
  for (const algorithm of mod.algorithms() as AlgorithmName[]) {
    const c = mod.create(algorithm, { nowUs: 0, seed: 42 });
    let nowUs = 0;
    for (let pn = 0; pn < 3000; pn++) {
      nowUs = pn * 400;
      c.packetSent(pn, 1200, nowUs);
      if (pn >= 75) {
        const acked = pn - 75;
        if (acked % 37 === 0) c.loss(acked, nowUs);
        else c.ack(acked, 30_000 + (acked % 13) * 250, nowUs - 15_000, nowUs);
      }
      if (pn % 10 === 0) c.tick(nowUs);
    }
    results[algorithm] = c.telemetry();
    c.destroy();
  }
  return results;
}
