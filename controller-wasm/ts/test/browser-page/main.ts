// The page imports the package exactly as the player does and publishes what it computed.
import { loadControllerModule, runSimulation } from '../../index.ts';
import { runScenario } from './scenario.ts';

const out = document.getElementById('result')!;
try {
  const mod = await loadControllerModule();
  const telemetry = runScenario(mod);
  const simulation = await runSimulation({ cc: ['vivace', 'cubic'], flows: 2, rateMbps: 20, durationS: 1, seed: 4 });
  out.textContent = JSON.stringify({ ok: true, telemetry, simulationJson: simulation.json });
} catch (err) {
  out.textContent = JSON.stringify({ ok: false, error: String(err) });
}
