// npm run -s bench:sim: simulator speed in simulated packets (and events) per second, native build, from
// pcc-sim's own --timing record: per CPU second (robust on a shared machine) and per wall-clock second.
// Each scenario runs `repeats` times; the best run is reported (least disturbed by other load).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertSimBuilt, controllerDir, runSim } from './paper/run-sim.ts';
import { renderTable } from './paper/table.ts';

const scenarios: Array<{ name: string; args: string[] }> = [
  { name: 'vivace 1 flow 100 Mbit/s 60 s', args: ['--cc', 'vivace', '--rate-mbps', '100', '--duration-s', '60'] },
  { name: 'cubic 1 flow 100 Mbit/s 1% loss 60 s', args: ['--cc', 'cubic', '--rate-mbps', '100', '--loss', '0.01', '--duration-s', '60'] },
  { name: 'bbr 1 flow 100 Mbit/s 60 s', args: ['--cc', 'bbr', '--rate-mbps', '100', '--duration-s', '60'] },
  { name: 'vivace 4 flows 100 Mbit/s 60 s', args: ['--cc', 'vivace', '--flows', '4', '--rate-mbps', '100', '--duration-s', '60'] },
  { name: 'vivace 32 flows 256 Mbit/s 30 s', args: ['--cc', 'vivace', '--flows', '32', '--rate-mbps', '256', '--buffer-kb', '800', '--duration-s', '30'] },
  { name: 'vivace 1 flow 1 Gbit/s 10 s', args: ['--cc', 'vivace', '--rate-mbps', '1000', '--buffer-kb', '750', '--duration-s', '10'] },
];

async function main(): Promise<void> {
  assertSimBuilt();
  const repeats = Number(process.env.BENCH_REPEATS ?? 3);
  const rows: Array<Array<string | number>> = [];
  const results: unknown[] = [];
  for (const scenario of scenarios) {
    let bestCpuS = Infinity;
    let bestWallS = Infinity;
    let packets = 0;
    let events = 0;
    for (let i = 0; i < repeats; i++) {
      const run = await runSim([...scenario.args, '--timing']);
      const line = run.stderr.split('\n').find((l) => l.includes('"sim_timing"'));
      if (!line) throw new Error(`pcc-sim gave no timing record for ${scenario.name}`);
      const timing = JSON.parse(line) as { wall_s: number; cpu_s: number };
      bestCpuS = Math.min(bestCpuS, timing.cpu_s);
      bestWallS = Math.min(bestWallS, timing.wall_s);
      packets = run.result.packets_simulated;
      events = run.result.events_processed;
    }
    const packetsPerS = packets / bestCpuS;
    const eventsPerS = events / bestCpuS;
    process.stderr.write(JSON.stringify({ event: 'scenario_done', name: scenario.name, cpu_s: bestCpuS, wall_s: bestWallS, packets }) + '\n');
    rows.push([scenario.name, packets, bestCpuS, packetsPerS / 1e6, eventsPerS / 1e6, packets / bestWallS / 1e6]);
    results.push({ name: scenario.name, args: scenario.args, packets_simulated: packets, events_processed: events, cpu_s: bestCpuS, wall_s: bestWallS, packets_per_cpu_s: packetsPerS, events_per_cpu_s: eventsPerS, packets_per_wall_s: packets / bestWallS });
  }
  process.stdout.write(renderTable(['scenario', 'packets', 'cpu_s', 'Mpackets/cpu_s', 'Mevents/cpu_s', 'Mpackets/wall_s'], rows, 3) + '\n');
  const outDir = join(controllerDir, 'build', 'bench');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'sim-speed.json'), JSON.stringify({ repeats, results }, null, 1) + '\n');
  process.stdout.write(`results: ${join(outDir, 'sim-speed.json')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench-sim: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
