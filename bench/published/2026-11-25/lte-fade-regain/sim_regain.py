#!/usr/bin/env python3
"""pcc-sim, the lte suite's four traces (40 ms RTT, 300 kB droptail, ABR 0.3-8 Mbit/s, 2 s segments, 30 s), seeds
1-10: vivace-video and vivace with regain_without_queue off and on, paired by seed. One run is
../lte-slow-start-plateau/sim_plateau.py's run() (imported, with this folder's arms). Per run: average bitrate,
buffering ratio, p95 queueing (p95 RTT - min RTT), loss.
usage: sim_regain.py PCC_SIM TRACES_DIR > sim-regain.md   (raw rows: sim-regain.jsonl beside it; TRACES_DIR holds the
four traces uncompressed, e.g. bench/traces with TMobile-LTE-driving.down.gz gunzipped)"""
import json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..'))
sys.path.insert(0, os.path.join(HERE, '..', 'lte-slow-start-plateau'))
import sim_plateau  # noqa: E402
from student_t import mean_ci95  # noqa: E402

CCS = ['vivace-video', 'vivace']
sim_plateau.ARMS = [arm for cc in CCS for arm in ((f'{cc} off', cc, []), (f'{cc} on', cc, ['regain_without_queue=1']))]
SEEDS = range(1, 11)
METRICS = [('bitrate_mbps', 'bitrate Mbit/s', 1.0), ('buffering_ratio', 'buffering %', 100.0),
           ('p95_queue_ms', 'p95 queueing ms', 1.0), ('loss_rate', 'loss %', 100.0)]


def fmt(xs, sign=''):
    m, h = mean_ci95(xs)
    return f'{m:{sign}.2f} ± {h:.2f}'


def main():
    sim, tdir = sys.argv[1], sys.argv[2]
    rows = []
    with open(os.path.join(HERE, 'sim-regain.jsonl'), 'w') as out:
        for t in sim_plateau.TRACES:
            for seed in SEEDS:
                for arm, _, _ in sim_plateau.ARMS:
                    r = sim_plateau.run(sim, os.path.join(tdir, t), arm, seed)
                    rows.append(r)
                    out.write(json.dumps(r) + '\n')
    print('Means ± 95 % Student-t (n = 10 seeds).\n')
    print('| trace | arm | ' + ' | '.join(m[1] for m in METRICS) + ' |')
    print('| --- | --- |' + ' --- |' * len(METRICS))
    for t in sim_plateau.TRACES:
        for arm, _, _ in sim_plateau.ARMS:
            rs = [r for r in rows if r['trace'] == t and r['arm'] == arm]
            print(f'| {t} | {arm} | ' + ' | '.join(fmt([r[k] * s for r in rs]) for k, _, s in METRICS) + ' |')
    print('\nPaired on − off (same seed, same controller), mean ± 95 % Student-t (n = 10):\n')
    print('| trace | controller | ' + ' | '.join(m[1].replace('%', 'pp') for m in METRICS) + ' | seeds changed |')
    print('| --- | --- |' + ' --- |' * (len(METRICS) + 1))
    for t in sim_plateau.TRACES:
        for cc in CCS:
            on = {r['seed']: r for r in rows if r['trace'] == t and r['arm'] == f'{cc} on'}
            off = {r['seed']: r for r in rows if r['trace'] == t and r['arm'] == f'{cc} off'}
            changed = sum(1 for i in SEEDS if any(on[i][k] != off[i][k] for k, _, _ in METRICS))
            print(f'| {t} | {cc} | ' + ' | '.join(fmt([(on[i][k] - off[i][k]) * s for i in SEEDS], '+')
                                                   for k, _, s in METRICS) + f' | {changed} of 10 |')


if __name__ == '__main__':
    main()
