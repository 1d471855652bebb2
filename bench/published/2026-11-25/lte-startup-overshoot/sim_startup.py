#!/usr/bin/env python3
"""pcc-sim, the lte suite's four traces (40 ms RTT, 300 kB droptail, ABR 0.3-8 Mbit/s, 2 s segments, 30 s), seeds
1-10: vivace-video with video_startup_full_latency 0 and 1 (paired by seed), plain vivace beside. Per run: average
bitrate, buffering ratio, p95 queueing (p95 RTT - min RTT), and the start-up's peak pacing rate (the highest pacing
rate while cc_state is slow_start in the first 3 s) over the link's mean capacity in that window.
usage: sim_startup.py PCC_SIM TRACES_DIR > sim-startup.md   (raw rows: sim-startup.jsonl beside it; TRACES_DIR holds the
four traces uncompressed, e.g. bench/traces with TMobile-LTE-driving.down.gz gunzipped)"""
import csv, json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)


def ci(xs):
    return mean_ci95(xs, as_stats_ts=True)


TRACES = ['Verizon-LTE-short.down', 'TMobile-LTE-short.down', 'ATT-LTE-driving-2016.down', 'TMobile-LTE-driving.down']
ARMS = [('vivace', []), ('vivace-video off', ['--cc-param', 'video_startup_full_latency=0']),
        ('vivace-video on', ['--cc-param', 'video_startup_full_latency=1'])]


def run(sim, trace, arm, seed):
    cc = arm.split()[0]
    with tempfile.NamedTemporaryFile(suffix='.csv') as f:
        args = [sim, '--cc', cc, *dict(ARMS)[arm], '--video-abr', '0.3,0.8,2,4,8', '--segment-s', '2', '--trace', trace,
                '--rtt-ms', '40', '--buffer-kb', '300', '--duration-s', '30', '--seed', str(seed), '--json', '--csv', f.name]
        res = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
        rows = [r for r in csv.DictReader(open(f.name)) if float(r['time_s']) <= 3.0]
    fl = res['flows'][0]
    ss = [float(r['pacing_rate_mbps']) for r in rows if r['cc_state'] == 'slow_start']
    cap = sum(float(r['capacity_mbps']) for r in rows) / len(rows)
    shown = ['bench/traces/' + os.path.basename(a) if a == trace else a for a in args[1:-2]]  # no local paths
    return {'trace': os.path.basename(trace), 'arm': arm, 'seed': seed, 'args': shown,
            'bitrate_mbps': fl['video']['average_bitrate_mbps'], 'buffering_ratio': fl['video']['buffering_ratio'],
            'p95_queue_ms': fl['p95_rtt_ms'] - fl['min_rtt_ms'], 'loss_rate': fl['loss_rate'],
            'startup_peak_mbps': max(ss) if ss else 0.0, 'capacity_0_3s_mbps': cap}


def main():
    sim, tdir = sys.argv[1], sys.argv[2]
    out = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'sim-startup.jsonl'), 'w')
    rows = []
    for t in TRACES:
        for seed in range(1, 11):
            for arm, _ in ARMS:
                r = run(sim, os.path.join(tdir, t), arm, seed); rows.append(r); out.write(json.dumps(r) + '\n')
    print('| trace | arm | bitrate Mbit/s | buffering % | p95 queueing ms | start-up peak / capacity (0-3 s) |')
    print('| --- | --- | --- | --- | --- | --- |')
    for t in TRACES:
        for arm, _ in ARMS:
            rs = [r for r in rows if r['trace'] == t and r['arm'] == arm]
            f = lambda k, s=1: '%.2f ± %.2f' % tuple(v * s for v in ci([r[k] for r in rs]))
            peak = ci([r['startup_peak_mbps'] / r['capacity_0_3s_mbps'] for r in rs])
            print(f"| {t} | {arm} | {f('bitrate_mbps')} | {f('buffering_ratio', 100)} | {f('p95_queue_ms')} | {peak[0]:.2f} ± {peak[1]:.2f} |")
    print('\nPaired on − off (vivace-video, same seed), mean ± 95 % t (n = 10):\n')
    print('| trace | bitrate Mbit/s | buffering pp | p95 queueing ms |')
    print('| --- | --- | --- | --- |')
    for t in TRACES:
        on = {r['seed']: r for r in rows if r['trace'] == t and r['arm'] == 'vivace-video on'}
        off = {r['seed']: r for r in rows if r['trace'] == t and r['arm'] == 'vivace-video off'}
        d = lambda k, s=1: '%+.2f ± %.2f' % tuple(v * s for v in ci([on[k2][k] - off[k2][k] for k2 in on]))
        print(f"| {t} | {d('bitrate_mbps')} | {d('buffering_ratio', 100)} | {d('p95_queue_ms')} |")


if __name__ == '__main__':
    main()
