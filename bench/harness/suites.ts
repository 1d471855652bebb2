// Built-in benchmark suites (issue 6), as lists of scenarios. Parameters follow the thesis §5.2 set-ups
// (Fig. 5.1: RTT redrawn in 10-100 ms every 5 s, 300 KB buffer, 0.01% loss, link 10% above the bitrate;
// Fig. 5.2: three players, 75 KB buffer, 100 ms RTT, 0.01% loss) and Fig. 4.3 for the bulk loss sweep.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCHMARKED_SCHEMES, PCC_VS_KERNEL_TCP } from '@pcc-stream/protocol';
import { parseScenario, type Scenario } from './scenario.ts';
import { EXTERNAL_SCHEME_NAMES } from './external-schemes.ts';
import { FAULT_CASES } from './faults/cases.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The mahimahi traces in the repository (bench/traces, see its PROVENANCE.md), or PCC_TRACES_DIR. */
export function tracesDir(): string {
  const candidates = [process.env.PCC_TRACES_DIR, join(repoRoot, 'bench', 'traces')];
  for (const dir of candidates) if (dir && existsSync(dir)) return dir;
  throw new Error(`no trace directory found (looked in ${candidates.filter(Boolean).join(', ')}); set PCC_TRACES_DIR`);
}

/** Every benchmarked scheme of the registry (@pcc-stream/protocol's SCHEMES). */
const BROWSER_SCHEMES = [...BENCHMARKED_SCHEMES];
const FIXED_BITRATES_MBPS = [4, 8, 15, 30];
/** The thesis's own setting (§5.2, Fig 5.1): these bitrates, each as one continuous stream (the `stream` aid, aids.ts)
 *  for every scheme, Allegro-Latency and Vivace beside kernel CUBIC and BBR. */
const THESIS_BITRATES_MBPS = [15, 30, 50, 95];
const THESIS_STREAM_SCHEMES = ['allegro-latency', 'vivace', 'tcp-cubic', 'tcp-bbr'].map((s) => `${s}+stream`);

// LTE traces of the `lte` suite, each with the uplink recorded with it (TMobile-LTE-driving has no uplink
// trace in the set; the TMobile-LTE-short uplink stands in for it).
const LTE_TRACES: ReadonlyArray<readonly [string, string, string]> = [
  ['tmobile-lte-short', 'TMobile-LTE-short.down', 'TMobile-LTE-short.up'],
  ['verizon-lte-short', 'Verizon-LTE-short.down', 'Verizon-LTE-short.up'],
  ['att-lte-driving-2016', 'ATT-LTE-driving-2016.down', 'ATT-LTE-driving-2016.up'],
  ['tmobile-lte-driving', 'TMobile-LTE-driving.down', 'TMobile-LTE-short.up'],
];

function scenario(json: Record<string, unknown>): Scenario {
  return parseScenario(json, repoRoot, `suite scenario ${String(json.name)}`);
}

const CHANGING_RTT_BASE = {
  duration_s: 60,
  repetitions: 3,
  delay: { rtt_pattern: { min_ms: 10, max_ms: 100, period_s: 5, seed: 1 } },
  loss: { down: 0.0001, up: 0 },
  players: 1,
};

/** Fig 5.1's link at each bitrate: 10% above it, 300 KB buffer. */
function changingRttFixed(bitratesMbps: readonly number[], schemes: readonly string[], suffix: string): Scenario[] {
  const base = { ...CHANGING_RTT_BASE, schemes };
  return bitratesMbps.map((bitrate) => {
    const rate = Number((bitrate * 1.1).toFixed(2));
    return scenario({
      ...base,
      name: `changing-rtt-${bitrate}mbps${suffix}`,
      link: { down: { rate_mbps: rate }, up: { rate_mbps: rate }, queue: { type: 'droptail', bytes: 300_000 } },
      media: { abr: false, bitrate_mbps: bitrate },
    });
  });
}

function changingRtt(): Scenario[] {
  const fixed = changingRttFixed(FIXED_BITRATES_MBPS, BROWSER_SCHEMES, '');
  const abr = scenario({
    ...CHANGING_RTT_BASE, schemes: BROWSER_SCHEMES,
    name: 'changing-rtt-abr',
    link: { down: { rate_mbps: 8.8 }, up: { rate_mbps: 8.8 }, queue: { type: 'droptail', bytes: 300_000 } },
    media: { abr: true },
  });
  return [...fixed, abr];
}

/** The multiflow players' picture: 320x180 at 10 fps, not 640x360 at 30, at the same 8 Mbit/s (CBR filler). On a
 *  2-core machine the three players' decoding and drawing compete with their own transport for the CPU, so buffering
 *  on an ample link is the machine's (bench/published/2026-11-25/multiflow-floor). */
const MULTIFLOW_PICTURE = { width: 320, height: 180, frame_rate: 10 };

function multiflow(schemes: readonly string[] = BROWSER_SCHEMES, suffix = ''): Scenario[] {
  return [
    scenario({
      name: `multiflow-3x8mbps${suffix}`,
      duration_s: 60,
      repetitions: 3,
      link: { down: { rate_mbps: 30 }, up: { rate_mbps: 30 }, queue: { type: 'droptail', bytes: 75_000 } },
      delay: { one_way_ms: 50 },
      loss: { down: 0.0001, up: 0 },
      media: { abr: false, bitrate_mbps: 8, picture: MULTIFLOW_PICTURE },
      players: 3,
      schemes,
    }),
  ];
}

function lte(): Scenario[] {
  const dir = tracesDir();
  return LTE_TRACES.map(([name, down, up]) =>
    scenario({
      name: `lte-${name}`,
      duration_s: 60,
      repetitions: 3,
      link: { down: { trace: join(dir, down) }, up: { trace: join(dir, up) }, queue: { type: 'droptail', bytes: 300_000 } },
      delay: { one_way_ms: 20 },
      loss: { down: 0, up: 0 },
      media: { abr: true },
      players: 1,
      schemes: BROWSER_SCHEMES,
    }),
  );
}

function bulk(): Scenario[] {
  const dir = tracesDir();
  // The external peers (PCC-Uspace) too: the CLI skips them, with a note, unless their option names a build.
  const schemes = [...BENCHMARKED_SCHEMES, ...EXTERNAL_SCHEME_NAMES];
  const traces = LTE_TRACES.map(([name, down, up]) =>
    scenario({
      name: `bulk-lte-${name}`, mode: 'bulk', duration_s: 60, repetitions: 1,
      link: { down: { trace: join(dir, down) }, up: { trace: join(dir, up) }, queue: { type: 'droptail', bytes: 300_000 } },
      delay: { one_way_ms: 20 }, schemes,
    }),
  );
  const lossy = [0, 0.01, 0.02, 0.03, 0.04, 0.05].map((loss) =>
    scenario({
      name: `bulk-100mbps-loss-${(loss * 100).toFixed(0)}pct`, mode: 'bulk', duration_s: 60, repetitions: 1,
      link: { down: { rate_mbps: 100 }, up: { rate_mbps: 100 }, queue: { type: 'droptail', bytes: 75_000 } },
      delay: { one_way_ms: 15 }, loss: { down: loss, up: 0 }, schemes,
    }),
  );
  return [...traces, ...lossy];
}

function smoke(): Scenario[] {
  return [
    scenario({
      name: 'smoke',
      duration_s: 20,
      repetitions: 1,
      link: { down: { rate_mbps: 12 }, up: { rate_mbps: 12 }, queue: { type: 'droptail', bytes: 300_000 } },
      delay: { one_way_ms: 15 },
      loss: { down: 0, up: 0 },
      media: { abr: true },
      players: 1,
      schemes: [...PCC_VS_KERNEL_TCP],
    }),
  ];
}

// Issue 17 item 1: the thesis's bulk set-ups, each run on the real path and in the simulator (fidelity.ts). Fig 4.3's
// loss sweep (100 Mbit/s, 30 ms, 75 KB: also the small buffer of Fig 4.5/4.7), Fig 4.7's 1 MB buffer, an LTE trace,
// a changing RTT, and one Chromium run (a stream above the link's rate, so the sender is rarely app-limited).
function fidelity(): Scenario[] {
  const dir = tracesDir();
  // PCC-Uspace beside ours in the bulk scenarios (skipped, with a note, without --uspace; it has no simulator twin).
  const common = { mode: 'bulk', duration_s: 30, repetitions: 3, schemes: ['vivace', ...EXTERNAL_SCHEME_NAMES] };
  const fig43 = (loss: number) => scenario({
    ...common, name: `fidelity-loss-${(loss * 100).toFixed(0)}pct`,
    link: { down: { rate_mbps: 100 }, up: { rate_mbps: 100 }, queue: { type: 'droptail', bytes: 75_000 } },
    delay: { one_way_ms: 15 }, loss: { down: loss, up: 0 },
  });
  return [
    ...[0, 0.01, 0.03].map(fig43),
    scenario({
      ...common, name: 'fidelity-buffer-1mb',
      link: { down: { rate_mbps: 100 }, up: { rate_mbps: 100 }, queue: { type: 'droptail', bytes: 1_000_000 } },
      delay: { one_way_ms: 15 },
    }),
    scenario({
      ...common, name: 'fidelity-lte-tmobile-short',
      link: { down: { trace: join(dir, 'TMobile-LTE-short.down') }, up: { trace: join(dir, 'TMobile-LTE-short.up') }, queue: { type: 'droptail', bytes: 300_000 } },
      delay: { one_way_ms: 20 },
    }),
    scenario({
      ...common, name: 'fidelity-changing-rtt',
      link: { down: { rate_mbps: 50 }, up: { rate_mbps: 50 }, queue: { type: 'droptail', bytes: 300_000 } },
      delay: { rtt_pattern: { min_ms: 10, max_ms: 100, period_s: 5, seed: 1 } },
    }),
    scenario({
      ...common, mode: 'browser', name: 'fidelity-chromium-6mbps', schemes: ['vivace'],
      link: { down: { rate_mbps: 6 }, up: { rate_mbps: 6 }, queue: { type: 'droptail', bytes: 75_000 } },
      delay: { one_way_ms: 15 }, media: { abr: false, bitrate_mbps: 8 }, players: 1,
    }),
  ];
}

// Issue 20: each fault case (faults/cases.ts) on its own scenario; the case runs it (faults/run-fault.ts).
function faults(): Scenario[] {
  return FAULT_CASES.map((c) => ({ ...scenario({ ...c.scenario, name: c.name }), fault: c.name }));
}

export const SUITES: Readonly<Record<string, () => Scenario[]>> = {
  'seed-changing-rtt': changingRtt,
  'seed-multiflow': () => multiflow(),
  // The thesis's setting, like for like (issue 18 item 9): one continuous stream per player for every scheme.
  'seed-changing-rtt-stream': () => changingRttFixed(THESIS_BITRATES_MBPS, THESIS_STREAM_SCHEMES, '-stream'),
  'seed-multiflow-stream': () => multiflow(THESIS_STREAM_SCHEMES, '-stream'),
  lte,
  bulk,
  smoke,
  fidelity,
  faults,
};

export function suiteScenarios(name: string): Scenario[] {
  const make = SUITES[name];
  if (!make) throw new Error(`unknown suite ${JSON.stringify(name)} (known: ${Object.keys(SUITES).join(', ')})`);
  return make();
}
