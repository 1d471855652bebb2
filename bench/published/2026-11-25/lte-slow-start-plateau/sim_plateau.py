#!/usr/bin/env python3
"""pcc-sim, the lte suite's four traces (40 ms RTT, 300 kB droptail, ABR 0.3-8 Mbit/s, 2 s segments, 30 s), seeds
1-10, as ../lte-startup-overshoot/sim_startup.py: vivace-video with the first slow start's early exits off, with
slow_start_queue_exit (q min RTTs of forward queue) and with slow_start_delivery_plateau (f), paired by seed; plain
vivace off and with the plateau exit beside. Per run: average bitrate, buffering ratio, p95 queueing (p95 RTT - min
RTT), the start-up's peak pacing rate over the link's mean capacity (0-3 s, while cc_state is slow_start), the
start-up's longest bottleneck queue (0-3 s, ms) and when the first slow start ended (s).
usage: sim_plateau.py PCC_SIM TRACES_DIR > sim-plateau.md   (raw rows: sim-plateau.jsonl beside it; TRACES_DIR holds the
four traces uncompressed, e.g. bench/traces with TMobile-LTE-driving.down.gz gunzipped)"""
import csv, json, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402

TRACES = ['Verizon-LTE-short.down', 'TMobile-LTE-short.down', 'ATT-LTE-driving-2016.down', 'TMobile-LTE-driving.down']
OFF = 'vivace-video off'
ARMS = [(OFF, 'vivace-video', []),
        ('vivace-video queue 0.25', 'vivace-video', ['slow_start_queue_exit=0.25']),
        ('vivace-video queue 0.5', 'vivace-video', ['slow_start_queue_exit=0.5']),
        ('vivace-video plateau 0.25', 'vivace-video', ['slow_start_delivery_plateau=0.25']),
        ('vivace-video plateau 0.5', 'vivace-video', ['slow_start_delivery_plateau=0.5']),
        ('vivace off', 'vivace', []),
        ('vivace plateau 0.25', 'vivace', ['slow_start_delivery_plateau=0.25'])]
SEEDS = range(1, 11)


def run(sim, trace, arm, seed):
    _, cc, params = next(a for a in ARMS if a[0] == arm)
    with tempfile.NamedTemporaryFile(suffix='.csv') as f:
        args = [sim, '--cc', cc, *[x for p in params for x in ('--cc-param', p)], '--video-abr', '0.3,0.8,2,4,8',
                '--segment-s', '2', '--trace', trace, '--rtt-ms', '40', '--buffer-kb', '300', '--duration-s', '30',
                '--seed', str(seed), '--json', '--csv', f.name]
        res = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
        rows = list(csv.DictReader(open(f.name)))
    first = [r for r in rows if float(r['time_s']) <= 3.0]
    fl = res['flows'][0]
    ss = [float(r['pacing_rate_mbps']) for r in first if r['cc_state'] == 'slow_start']
    ended = next((float(r['time_s']) for r in rows if r['cc_state'] != 'slow_start'), float('nan'))
    cap = sum(float(r['capacity_mbps']) for r in first) / len(first)
    shown = ['bench/traces/' + os.path.basename(a) if a == trace else a for a in args[1:-2]]  # no local paths
    return {'trace': os.path.basename(trace), 'arm': arm, 'seed': seed, 'args': shown,
            'bitrate_mbps': fl['video']['average_bitrate_mbps'], 'buffering_ratio': fl['video']['buffering_ratio'],
            'p95_queue_ms': fl['p95_rtt_ms'] - fl['min_rtt_ms'], 'loss_rate': fl['loss_rate'],
            'startup_peak_mbps': max(ss) if ss else 0.0, 'capacity_0_3s_mbps': cap,
            'startup_max_queue_ms': max(float(r['queue_delay_ms']) for r in first), 'slow_start_end_s': ended}


def fmt(xs, scale=1.0, sign=''):
    m, h = mean_ci95([x * scale for x in xs])
    return f'{m:{sign}.2f} ± {h:.2f}'


def main():
    sim, tdir = sys.argv[1], sys.argv[2]
    out = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'sim-plateau.jsonl'), 'w')
    rows = []
    for t in TRACES:
        for seed in SEEDS:
            for arm, _, _ in ARMS:
                r = run(sim, os.path.join(tdir, t), arm, seed); rows.append(r); out.write(json.dumps(r) + '\n')
    print('Means ± 95 % Student-t (n = 10 seeds).\n')
    print('| trace | arm | bitrate Mbit/s | buffering % | p95 queueing ms | start-up peak / capacity | start-up max queue ms | slow start ends s |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- |')
    for t in TRACES:
        for arm, _, _ in ARMS:
            rs = [r for r in rows if r['trace'] == t and r['arm'] == arm]
            col = lambda k, s=1.0: fmt([r[k] for r in rs], s)
            peak = fmt([r['startup_peak_mbps'] / r['capacity_0_3s_mbps'] for r in rs])
            print(f"| {t} | {arm} | {col('bitrate_mbps')} | {col('buffering_ratio', 100)} | {col('p95_queue_ms')} | {peak} "
                  f"| {col('startup_max_queue_ms')} | {col('slow_start_end_s')} |")
    print('\nPaired arm − off (same seed, same controller), mean ± 95 % Student-t (n = 10):\n')
    print('| trace | arm | bitrate Mbit/s | buffering pp | p95 queueing ms | start-up max queue ms |')
    print('| --- | --- | --- | --- | --- | --- |')
    for t in TRACES:
        for arm, cc, params in ARMS:
            if not params: continue
            base = f'{cc} off'
            on = {r['seed']: r for r in rows if r['trace'] == t and r['arm'] == arm}
            off = {r['seed']: r for r in rows if r['trace'] == t and r['arm'] == base}
            d = lambda k, s=1.0: fmt([on[i][k] - off[i][k] for i in SEEDS], s, '+')
            print(f"| {t} | {arm} | {d('bitrate_mbps')} | {d('buffering_ratio', 100)} | {d('p95_queue_ms')} "
                  f"| {d('startup_max_queue_ms')} |")


if __name__ == '__main__':
    main()
