#!/usr/bin/env python3
"""pcc-sim, the bench's lte setting as lte-fade-cut-regain/fade_regain_sim.py runs it (its BASE, the real-path RTT noise
model and the page-like player: --rtt-noise real-path --video-abandon-s 4 --video-abr-samples 5) on Verizon- and
TMobile-LTE-short: vivace-video with slow_start_persistent_queue on (its default) and off, vivace (off, its default)
and vivace with it on, and the sim's BBR. Usage: slow_start_sim.py SIM_BINARY OUT_DIR [SEEDS]  (one run at a time
under nice -n 19). Prints markdown tables: per arm means ± 95 % t over seeds, and paired differences. Besides
fade_regain_sim.py's metrics, the start-up: when the first slow start ended, the share of the capacity delivered in
link s 0-10, and the first link second whose mean pacing rate reached 0.9 x its mean capacity. Writes the runs (CSV) and
sim-results.jsonl into OUT_DIR."""
import csv, json, os, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..'))
sys.path.insert(0, os.path.join(HERE, '..', 'lte-fade-cut-regain'))
from student_t import mean_ci95  # noqa: E402
import fade_regain_sim as frs  # noqa: E402


def vv(rule):
    return ['--cc', 'vivace-video', '--cc-param', f'slow_start_persistent_queue={rule}']


ARMS = {
    'vv': vv(1),  # vivace-video's defaults
    'vv-off': vv(0),
    'v': ['--cc', 'vivace'],
    'v-on': ['--cc', 'vivace', '--cc-param', 'slow_start_persistent_queue=1'],
    'bbr': ['--cc', 'bbr'],
}
PAIRS = (('vv', 'vv-off'), ('v-on', 'v'), ('vv', 'v'), ('vv', 'bbr'), ('vv-off', 'bbr'))
STARTUP_S = 10


def startup(path):
    rows = list(csv.DictReader(open(path)))
    exit_s = next((float(r['time_s']) for r in rows if r['cc_state'] not in ('slow_start', '')), float('nan'))
    early = [r for r in rows if float(r['time_s']) <= STARTUP_S]
    cap = sum(float(r['capacity_mbps']) for r in early)
    delivered = sum(float(r['throughput_mbps']) for r in early)
    reach = float(STARTUP_S * 4)
    for second in range(int(STARTUP_S * 4)):
        sec = [r for r in rows if second < float(r['time_s']) <= second + 1]
        if sec and sum(float(r['pacing_rate_mbps']) for r in sec) >= 0.9 * sum(float(r['capacity_mbps']) for r in sec):
            reach = float(second)
            break
    return {'ss_exit_s': exit_s, 'delivered_over_cap_0_10s': delivered / cap if cap > 0 else 0.0, 'reach_09_cap_s': reach}


def main():
    sim, out = sys.argv[1], sys.argv[2]
    seeds = range(1, int(sys.argv[3]) + 1) if len(sys.argv) > 3 else range(1, 11)
    os.makedirs(out, exist_ok=True)
    results = {}
    for trace, name in frs.TRACES.items():
        base = list(frs.BASE)
        base[frs.TRACE_AT] = os.path.join(frs.ROOT, 'bench', 'traces', name)
        for arm, args in ARMS.items():
            for seed in seeds:
                path = os.path.join(out, f'{trace}-{arm}-{seed}.csv')
                cmd = ['nice', '-n', '19', sim, *args, *base, *frs.REAL_PATH, '--seed', str(seed), '--csv', path, '--json']
                doc = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
                results[(trace, arm, seed)] = {**frs.metrics(path, doc, trace), **startup(path)}
    with open(os.path.join(out, 'sim-results.jsonl'), 'w') as f:
        for (trace, arm, seed), m in results.items():
            f.write(json.dumps({'trace': trace, 'noise': 'real-path', 'arm': arm, 'seed': seed, **m}) + '\n')
    for trace in frs.TRACES:
        keys = list(next(m for k, m in results.items() if k[0] == trace))
        print(f'\n### {trace}, real-path noise (means ± 95 % t over seeds {seeds.start}-{seeds.stop - 1})\n')
        print('| arm | ' + ' | '.join(keys) + ' |')
        print('|' + ' --- |' * (len(keys) + 1))
        for arm in ARMS:
            cells = ['%.2f ± %.2f' % mean_ci95([results[(trace, arm, s)][k] for s in seeds]) for k in keys]
            print(f'| {arm} | ' + ' | '.join(cells) + ' |')
        print(f'\nPaired ({trace}, same seed)\n')
        print('| pair | ' + ' | '.join(keys) + ' |')
        print('|' + ' --- |' * (len(keys) + 1))
        for a, b in PAIRS:
            cells = ['%+.2f ± %.2f' % mean_ci95([results[(trace, a, s)][k] - results[(trace, b, s)][k] for s in seeds])
                     for k in keys]
            print(f'| {a} − {b} | ' + ' | '.join(cells) + ' |')


if __name__ == '__main__':
    main()
