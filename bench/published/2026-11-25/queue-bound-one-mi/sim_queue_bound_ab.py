#!/usr/bin/env python3
"""pcc-sim A/B of proposed-fix.diff (vivace-video's queue bound reads the capacity over the MI and the previous one,
not one MI). Two native pcc-sim builds, BASE_SIM (HEAD's C) and FIX_SIM (HEAD + the diff), back to back per (trace,
cc, seed): ../floor-collapse/sim_video_ab.py's run (the video model, the four LTE traces, 40 ms, 300 kB, 60 s, its
buffering / bitrate / time at the 0.12-Mbit/s floor / p95 RTT) with ../verizon-regain/sim_regain_ab.py's real-path RTT
noise arguments as the noise setting `rp`. Added per run: the p95 of the 100-ms rows' queueing delay (the CSV's
queue_delay_ms), read before run() removes the CSV. Pairs are (trace, cc, seed), fix - base, mean +/- 95 % Student t.
usage: sim_queue_bound_ab.py BASE_SIM FIX_SIM TRACE_DIR OUT_DIR [SEEDS]   (writes OUT_DIR/sim-results.jsonl, prints the table)
       sim_queue_bound_ab.py --table JSONL"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, '..', 'floor-collapse'), os.path.join(HERE, '..', 'verizon-regain'), os.path.join(HERE, '..', '..')]
import sim_video_ab as sva  # noqa: E402
import sim_regain_ab as sra  # noqa: E402
from student_t import mean_ci95  # noqa: E402

# the real-path RTT noise of sim_regain_ab.BASE: --rtt-noise real-path --video-abandon-s 4 --video-abr-samples 5
sva.NOISE['rp'] = sra.BASE[sra.BASE.index('--rtt-noise'):]
KEYS = ['bitrate_mbps', 'buffering_pct', 'p95_queue_ms', 'floor_s', 'p95_rtt_ms']
_last = {}
_remove = os.remove


def _read_then_remove(path):
    if path.endswith('.csv'):
        q = sorted(float(r['queue_delay_ms']) for r in csv.DictReader(open(path)))
        _last['p95_queue_ms'] = q[min(len(q) - 1, int(0.95 * len(q)))]
    _remove(path)


sva.os.remove = _read_then_remove


def table(rows):
    print('| trace | cc | ' + ' | '.join(f'{k}: base; fix - base' for k in KEYS) + ' | runs identical |')
    print('|' + ' --- |' * (3 + len(KEYS)))
    for trace in sva.TRACES:
        for cc in sva.CCS:
            arm = lambda a: sorted((r for r in rows if (r['arm'], r['trace'], r['cc']) == (a, trace, cc)), key=lambda r: r['seed'])  # noqa: E731
            b, x = arm('base'), arm('fix')
            same = sum(1 for p, q in zip(b, x) if all(p[k] == q[k] for k in KEYS))
            cells = ['%.2f ± %.2f; %+.2f ± %.2f' % (*mean_ci95([p[k] for p in b]), *mean_ci95([q[k] - p[k] for p, q in zip(b, x)]))
                     for k in KEYS]
            print(f'| {trace} | {cc} | ' + ' | '.join(cells) + f' | {same}/{len(b)} |')


def main(argv):
    if argv[1] == '--table':
        table([json.loads(line) for line in open(argv[2])])
        return
    base_sim, fix_sim, trace_dir, out = argv[1:5]
    seeds = int(argv[5]) if len(argv) > 5 else 10
    os.makedirs(out, exist_ok=True)
    rows = []
    for trace in sva.TRACES:
        for cc in sva.CCS:
            for seed in range(1, seeds + 1):
                for arm, sim in (('base', base_sim), ('fix', fix_sim)):
                    row = sva.run(sim, trace_dir, out, arm, trace, cc, 'rp', seed)
                    row.update(_last, arm=arm, trace=trace, cc=cc, seed=seed, noise='rp', players=1)
                    rows.append(row)
    with open(os.path.join(out, 'sim-results.jsonl'), 'w') as fh:
        for r in rows:
            fh.write(json.dumps(r) + '\n')
    table(rows)


if __name__ == '__main__':
    main(sys.argv)
