#!/usr/bin/env python3
"""gradient_span_ms (issue 18, lte-fade-cut-regain/why-tmobile.md finding 3) in pcc-sim: the bench's lte setting
(lte-fade-cut-regain/fade_regain_sim.py's BASE, metrics and real-path noise) on TMobile-LTE-short and
Verizon-LTE-short, vivace-video and vivace each with the span at 0 (off), 100, 150 (vivace-video's default) and 300 ms,
seeds paired; and bulk flows on fixed 30-ms links with a 1-MB buffer (20 and 100 Mbit/s), where queueing must not grow.
Usage: gradient_span_sim.py SIM_BINARY OUT_DIR [SEEDS]  (runs one at a time under nice -n 10; ~0.1 s each). Prints
markdown tables: per arm means ± 95 % t over seeds, and paired differences span − off."""
import csv, json, os, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..'))
sys.path.insert(0, os.path.join(HERE, '..', 'lte-fade-cut-regain'))
from student_t import mean_ci95  # noqa: E402
import fade_regain_sim as frs  # noqa: E402

SPANS = [0, 100, 150, 300]
CCS = {'vv': 'vivace-video', 'v': 'vivace'}
FIXED = {'fixed20': ['--rate-mbps', '20'], 'fixed100': ['--rate-mbps', '100']}
FIXED_BASE = ['--rtt-ms', '30', '--buffer-kb', '1000', '--duration-s', '30', '--sample-ms', '100']
NOISES = {'rp': frs.REAL_PATH, 'j0': ['--jitter-sd-us', '0']}


def rate_over_cap(rows, after_s=3.0):
    rows = [r for r in rows if float(r['time_s']) > after_s and float(r['capacity_mbps']) > 0]
    return sum(float(r['pacing_rate_mbps']) for r in rows) / sum(float(r['capacity_mbps']) for r in rows)


def lte_settings():
    """(trace, noise) -> the simulator's arguments: fade_regain_sim.py's lte setting on that trace, with that noise."""
    out = {}
    for trace, file in frs.TRACES.items():
        args = [os.path.join(frs.ROOT, 'bench', 'traces', file) if i == frs.TRACE_AT else a for i, a in enumerate(frs.BASE)]
        for noise, noise_args in NOISES.items():
            out[(trace, noise)] = [*args, *noise_args]
    return out


def run(sim, args, path):
    cmd = ['nice', '-n', '10', sim, *args, '--csv', path, '--json']
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def main():
    sim, out = sys.argv[1], sys.argv[2]
    seeds = range(1, (int(sys.argv[3]) if len(sys.argv) > 3 else 10) + 1)
    os.makedirs(out, exist_ok=True)
    rows = []
    for cc, name in CCS.items():
        for span in SPANS:
            arm = ['--cc', name, '--cc-param', f'gradient_span_ms={span}']
            for (trace, noise), setting_args in lte_settings().items():
                for seed in seeds:
                    path = os.path.join(out, f'{trace}-{noise}-{cc}-{span}-{seed}.csv')
                    doc = run(sim, [*arm, *setting_args, '--seed', str(seed)], path)
                    m = frs.metrics(path, doc, trace)
                    m['rate_over_cap'] = rate_over_cap(list(csv.DictReader(open(path))))
                    rows.append({'setting': f'{trace}-{noise}', 'cc': cc, 'span_ms': span, 'seed': seed, **m})
            for link, link_args in FIXED.items():
                for seed in seeds:
                    path = os.path.join(out, f'{link}-{cc}-{span}-{seed}.csv')
                    doc = run(sim, [*arm, *link_args, *FIXED_BASE, '--seed', str(seed)], path)
                    q = [float(r['queue_delay_ms']) for r in csv.DictReader(open(path)) if float(r['time_s']) > 3]
                    rows.append({'setting': link, 'cc': cc, 'span_ms': span, 'seed': seed,
                                 'throughput_mbps': doc['flows'][0]['throughput_mbps'],
                                 'mean_queue_ms': sum(q) / len(q), 'p95_queue_ms': frs.p95(q)})
    with open(os.path.join(out, 'sim-results.jsonl'), 'w') as f:
        for r in rows:
            f.write(json.dumps(r) + '\n')
    report(rows)


def fmt(values):
    m, h = mean_ci95(values)
    return f'{m:.2f} ± {h:.2f}'


def report(rows):
    keys = ['bitrate_mbps', 'buffering_pct', 'p95_queue_ms', 'throughput_mbps', 'rate_over_cap']
    fixed_keys = ['throughput_mbps', 'mean_queue_ms', 'p95_queue_ms']
    for setting in dict.fromkeys(r['setting'] for r in rows):
        ks = fixed_keys if setting.startswith('fixed') else keys
        sel = [r for r in rows if r['setting'] == setting]
        print(f'\n### {setting} (mean ± 95 % t over seeds; paired: span − off, same seed)\n')
        print('| cc | span ms | ' + ' | '.join(ks) + ' | ' + ' | '.join(f'Δ {k}' for k in ks) + ' |')
        print('|' + ' --- |' * (2 + 2 * len(ks)))
        for cc in CCS:
            off = {r['seed']: r for r in sel if r['cc'] == cc and r['span_ms'] == 0}
            for span in SPANS:
                arm = sorted((r for r in sel if r['cc'] == cc and r['span_ms'] == span), key=lambda r: r['seed'])
                cells = [fmt([r[k] for r in arm]) for k in ks]
                deltas = ['' if span == 0 else fmt([r[k] - off[r['seed']][k] for r in arm]) for k in ks]
                print(f'| {cc} | {span} | ' + ' | '.join(cells) + ' | ' + ' | '.join(deltas) + ' |')


if __name__ == '__main__':
    main()
