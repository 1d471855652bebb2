#!/usr/bin/env python3
"""pcc-sim A/B of proposed-fix.diff (regain_without_queue's exit: a regain whose doubled MI delivered what it sent
starts probing from that delivery less epsilon, not scaled by minRTT/avgRTT). Two pcc-sim binaries, BASE (HEAD) and
FIX (HEAD + the diff), run back to back per (trace, controller, seed): the bench's lte setting as
../lte-fade-cut-regain/fade_regain_sim.py (ABR 0.3-8 Mbit/s, 2-s segments, 40 ms, 300 KB, 40 s) with the real-path
RTT noise (`rp`: --rtt-noise real-path --video-abandon-s 4 --video-abr-samples 5). pcc-sim is deterministic.
Traces: the four LTE traces (TMobile-LTE-driving gunzipped) and Verizon-LTE-short started 2.7 s in
(verizon-from-2.7s: the real runs' player opened its session 2.7 s into the trace, so their fade met a different
player and regain-window state than the sim's t = 0 start).

Per run: the JSON's throughput, average bitrate, buffering ratio (with start-up), p95 RTT; on the two Verizon settings
also the window after the fade's return (link s 17-28, or 14.3-25.3 when started 2.7 s in): Mbit delivered, the median
pacing rate / capacity, and the regain time (first 100-ms row whose pacing rate reaches 0.7 x that row's capacity).

usage: sim_regain_ab.py BASE_SIM FIX_SIM TRACE_DIR OUT_DIR SEEDS  > table.md   (rows: OUT_DIR/sim-results.jsonl)
"""
import csv
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402

TRACES = {
    'verizon-lte-short': ('Verizon-LTE-short.down', 17.0),
    'verizon-from-2.7s': ('Verizon-LTE-short-from-2.7s.down', 14.3),
    'tmobile-lte-short': ('TMobile-LTE-short.down', None),
    'tmobile-lte-driving': ('TMobile-LTE-driving.down', None),
    'att-lte-driving-2016': ('ATT-LTE-driving-2016.down', None),
}
BASE = ['--video-abr', '0.3,0.8,2,4,8', '--segment-s', '2', '--rtt-ms', '40', '--buffer-kb', '300', '--duration-s', '40',
        '--sample-ms', '100', '--rtt-noise', 'real-path', '--video-abandon-s', '4', '--video-abr-samples', '5']
WINDOW_S = 11.0
METRICS = ['throughput_mbps', 'average_bitrate_mbps', 'buffering_pct', 'p95_rtt_ms', 'after_delivered_mbit',
           'after_rate_over_cap', 'regain_s']


def window(csv_path, start):
    rows = [r for r in csv.DictReader(open(csv_path)) if start <= float(r['time_s']) < start + WINDOW_S]
    delivered = sum(float(r['throughput_mbps']) * 0.1 for r in rows)
    ratio = statistics.median(float(r['pacing_rate_mbps']) / float(r['capacity_mbps']) for r in rows
                              if float(r['capacity_mbps']) > 0)
    regain = next((float(r['time_s']) - start for r in rows
                   if float(r['pacing_rate_mbps']) >= 0.7 * float(r['capacity_mbps'])), WINDOW_S)
    return delivered, ratio, regain


CONTROLLERS = {'vivace-video': ['--cc', 'vivace-video'], 'vivace': ['--cc', 'vivace'],
               # plain vivace with regain_without_queue on (its default is off): where the diff acts for vivace
               'vivace+regain': ['--cc', 'vivace', '--cc-param', 'regain_without_queue=1']}


def run(sim, cc, trace_path, seed, csv_path):
    out = subprocess.run(['nice', '-n', '10', sim] + CONTROLLERS[cc] + ['--trace', trace_path, '--seed', str(seed), '--csv', csv_path,
                          '--json'] + BASE, check=True, capture_output=True, text=True).stdout
    return json.loads(out)['flows'][0]


def main(argv):
    base_sim, fix_sim, trace_dir, out_dir, seeds = argv[1], argv[2], argv[3], argv[4], int(argv[5])
    os.makedirs(out_dir, exist_ok=True)
    rows = []
    for name, (trace_file, start) in TRACES.items():
        for cc in CONTROLLERS:
            for seed in range(1, seeds + 1):
                for arm, sim in (('base', base_sim), ('fix', fix_sim)):
                    csv_path = os.path.join(out_dir, f'{name}-{cc.replace("+", "-")}-{seed}-{arm}.csv')
                    f = run(sim, cc, os.path.join(trace_dir, trace_file), seed, csv_path)
                    row = {'setting': name, 'cc': cc, 'seed': seed, 'arm': arm, 'players': 1,
                           'throughput_mbps': f['throughput_mbps'],
                           'average_bitrate_mbps': f['video']['average_bitrate_mbps'],
                           'buffering_pct': 100 * f['video']['buffering_ratio_with_startup'],
                           'p95_rtt_ms': f['p95_rtt_ms']}
                    if start is not None:
                        row['after_delivered_mbit'], row['after_rate_over_cap'], row['regain_s'] = window(csv_path, start)
                    os.remove(csv_path)
                    rows.append(row)
    with open(os.path.join(out_dir, 'sim-results.jsonl'), 'w') as fh:
        for r in rows:
            fh.write(json.dumps(r) + '\n')
    print('| setting | cc | metric | base | fix | fix - base (paired) |')
    print('| --- | --- | --- | --- | --- | --- |')
    for name in TRACES:
        for cc in CONTROLLERS:
            sel = {(r['seed'], r['arm']): r for r in rows if r['setting'] == name and r['cc'] == cc}
            for m in METRICS:
                if m not in sel[(1, 'base')]:
                    continue
                b = [sel[(s, 'base')][m] for s in range(1, seeds + 1)]
                x = [sel[(s, 'fix')][m] for s in range(1, seeds + 1)]
                d = [xi - bi for xi, bi in zip(x, b)]
                fmt = lambda v: '%.2f ± %.2f' % mean_ci95(v)  # noqa: E731
                print(f'| {name} | {cc} | {m} | {fmt(b)} | {fmt(x)} | {fmt(d)} |')


if __name__ == '__main__':
    main(sys.argv)
