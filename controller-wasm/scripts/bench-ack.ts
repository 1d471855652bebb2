// Cost of one acknowledged packet (its send event + its ack) through the controller library:
//   native (C loop, build/pcc-bench-ack), WASM from Node batched (the Controller wrapper: events written
//   into WASM memory, one call per batch), WASM unbatched (flush after every event) and WASM direct
//   (one export call per event, no buffer). Same traffic everywhere: packet j sent at j·10 µs, acked one
//   30 ms RTT later with deterministic jitter, no loss; the pacing rate is read every 64 packets. Each ack carries
//   the receiver's receive time, as the origin's do (datagram-sender.ts), so the MI's receiver-time work (its
//   one-way-delay regression, monitor_interval.c) is counted; --receive-times off passes 0 (no receive time), as
//   this benchmark did before.
// Figures are CPU time per ack (the machine is shared, so wall time mostly measures the neighbours; it
// is reported too), best of --repeats runs after a JIT warm-up.
// Prints a table and writes build/bench/ack-cost.json. Target (issue 2): ≤ 100 ns per ack, WASM batched.
//   npm run -s bench:ack -w controller-wasm [-- --packets N] [--algorithms vivace,cubic] [--receive-times on|off]
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadControllerModule, type AlgorithmName, type Controller } from '../ts/index.ts';
import { loadRuntime } from '../ts/load.ts';

const SPACING_US = 10;
const BASE_RTT_US = 30_000;
const IN_FLIGHT_PACKETS = BASE_RTT_US / SPACING_US;
const PACKET_BYTES = 1200;
const ONE_WAY_US = BASE_RTT_US / 2;

const { values } = parseArgs({
  options: {
    packets: { type: 'string', default: '1000000' },
    algorithms: { type: 'string', default: 'vivace,cubic' },
    repeats: { type: 'string', default: '3' },
    'receive-times': { type: 'string', default: 'on' },
  },
});
const packets = Number(values.packets);
if (!Number.isInteger(packets) || packets <= IN_FLIGHT_PACKETS * 2) {
  console.error(`bench-ack: --packets must be an integer > ${IN_FLIGHT_PACKETS * 2}`);
  process.exit(2);
}
const algorithms = values.algorithms.split(',') as AlgorithmName[];
const repeats = Number(values.repeats);
if (!Number.isInteger(repeats) || repeats < 1) {
  console.error('bench-ack: --repeats must be a positive integer');
  process.exit(2);
}

if (values['receive-times'] !== 'on' && values['receive-times'] !== 'off') {
  console.error('bench-ack: --receive-times must be on or off');
  process.exit(2);
}
const receiveTimes = values['receive-times'] === 'on';
/** The ack of packet `acked`: its RTT and the receiver's receive time (0: none), jittered on their own periods. */
const rttUs = (acked: number): number => BASE_RTT_US + (acked % 17) * 10;
const recvTimeUs = (acked: number): number => (receiveTimes ? acked * SPACING_US + ONE_WAY_US + (acked % 13) * 10 : 0);

const log = (fields: Record<string, unknown>): void => {
  process.stderr.write(`${JSON.stringify({ component: 'bench-ack', ...fields })}\n`);
};

interface Row { algorithm: string; path: string; acks: number; nsPerAck: number; wallNsPerAck: number }

/** Best (lowest CPU time) of `repeats` runs of `body`, which returns its ack count. */
function measure(body: () => number): { acks: number; nsPerAck: number; wallNsPerAck: number } {
  let best = { acks: 0, nsPerAck: Infinity, wallNsPerAck: Infinity };
  for (let i = 0; i < repeats; i++) {
    const cpuStart = process.cpuUsage();
    const wallStart = process.hrtime.bigint();
    const acks = body();
    const wallNs = Number(process.hrtime.bigint() - wallStart);
    const cpu = process.cpuUsage(cpuStart);
    const cpuNs = (cpu.user + cpu.system) * 1000;
    if (cpuNs / acks < best.nsPerAck) best = { acks, nsPerAck: cpuNs / acks, wallNsPerAck: wallNs / acks };
  }
  return best;
}

function nativeRows(): Row[] {
  const binary = fileURLToPath(new URL('../build/pcc-bench-ack', import.meta.url));
  const best = new Map<string, Row>();
  for (let i = 0; i < repeats; i++) {
    const r = spawnSync(binary, [...(receiveTimes ? [] : ['--no-receive-times']), String(packets), ...algorithms], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`pcc-bench-ack failed (${r.status}): ${r.stderr}`);
    for (const line of r.stdout.trim().split('\n')) {
      const j = JSON.parse(line) as { algorithm: string; acks: number; ns_per_ack: number; wall_ns_per_ack: number };
      const row = { algorithm: j.algorithm, path: 'native (C)', acks: j.acks, nsPerAck: j.ns_per_ack, wallNsPerAck: j.wall_ns_per_ack };
      if (row.nsPerAck < (best.get(j.algorithm)?.nsPerAck ?? Infinity)) best.set(j.algorithm, row);
    }
  }
  return [...best.values()];
}

/** The wrapper's event path; `flushEvery` = 1 means one WASM call per event. */
function runController(c: Controller, count: number, flushEveryEvent: boolean): { acks: number; checksum: number } {
  let acks = 0;
  let checksum = 0;
  for (let pn = 0; pn < count; pn++) {
    const nowUs = pn * SPACING_US;
    c.packetSent(pn, PACKET_BYTES, nowUs);
    if (flushEveryEvent) c.flush();
    if (pn >= IN_FLIGHT_PACKETS) {
      const acked = pn - IN_FLIGHT_PACKETS;
      c.ack(acked, rttUs(acked), recvTimeUs(acked), nowUs);
      if (flushEveryEvent) c.flush();
      acks++;
    }
    if ((pn & 63) === 0) checksum += c.pacingRateBytesPerSec();
  }
  c.flush();
  return { acks, checksum };
}

async function wasmRows(algorithm: AlgorithmName): Promise<Row[]> {
  const mod = await loadControllerModule();
  const rows: Row[] = [];
  for (const [path, flushEveryEvent] of [['WASM batched', false], ['WASM unbatched (flush per event)', true]] as const) {
    const warmUp = mod.create(algorithm, { nowUs: 0, seed: 1 });
    runController(warmUp, 200_000, flushEveryEvent); // JIT warm-up
    warmUp.destroy();
    const m = measure(() => {
      const c = mod.create(algorithm, { nowUs: 0, seed: 1 });
      const { acks } = runController(c, packets, flushEveryEvent);
      c.destroy();
      return acks;
    });
    rows.push({ algorithm, path, ...m });
  }
  // Direct exports: one WASM call per event with no buffer, the floor of an unbatched design.
  const raw = (await loadRuntime()).mod;
  const direct = (count: number): number => {
    const h = raw._pccw_create(mod.algorithms().indexOf(algorithm), 1, 0, 1);
    let acks = 0;
    let checksum = 0;
    for (let pn = 0; pn < count; pn++) {
      const nowUs = pn * SPACING_US;
      raw._pccw_on_packet_sent(h, pn, PACKET_BYTES, nowUs);
      if (pn >= IN_FLIGHT_PACKETS) {
        const acked = pn - IN_FLIGHT_PACKETS;
        raw._pccw_on_ack(h, acked, rttUs(acked), recvTimeUs(acked), nowUs);
        acks++;
      }
      if ((pn & 63) === 0) checksum += raw._pccw_pacing_rate_bytes_per_s(h);
    }
    raw._pccw_destroy(h);
    if (!Number.isFinite(checksum)) throw new Error('non-finite pacing rate');
    return acks;
  };
  direct(200_000);
  rows.push({ algorithm, path: 'WASM direct export per event', ...measure(() => direct(packets)) });
  return rows;
}

log({ event: 'start', packets, algorithms, receiveTimes });
const rows: Row[] = nativeRows();
for (const algorithm of algorithms) {
  log({ event: 'wasm', algorithm });
  rows.push(...(await wasmRows(algorithm)));
}
rows.sort((a, b) => a.algorithm.localeCompare(b.algorithm) || a.nsPerAck - b.nsPerAck);

console.log(`cost per acknowledged packet (send event + ack), ${packets} packets, receive times ${receiveTimes ? 'on' : 'off'}, Node ${process.version}`);
console.log(`${'algorithm'.padEnd(10)} ${'path'.padEnd(34)} ${'CPU ns/ack'.padStart(11)} ${'wall ns/ack'.padStart(12)}`);
for (const r of rows) {
  console.log(`${r.algorithm.padEnd(10)} ${r.path.padEnd(34)} ${r.nsPerAck.toFixed(1).padStart(11)} ${r.wallNsPerAck.toFixed(1).padStart(12)}`);
}
const batched = rows.filter((r) => r.path === 'WASM batched');
const targetNs = 100;
for (const r of batched) console.log(`${r.algorithm}: WASM batched ${r.nsPerAck.toFixed(1)} ns/ack ${r.nsPerAck <= targetNs ? '<=' : '>'} target ${targetNs} ns`);

const outDir = fileURLToPath(new URL('../build/bench/', import.meta.url));
mkdirSync(outDir, { recursive: true });
const outFile = `${outDir}ack-cost.json`;
writeFileSync(outFile, JSON.stringify({ packets, repeats, receiveTimes, node: process.version, targetNsPerAck: targetNs, rows }, null, 2) + '\n');
log({ event: 'done', results: outFile });
