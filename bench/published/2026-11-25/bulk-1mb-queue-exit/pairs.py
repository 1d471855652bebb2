#!/usr/bin/env python3
"""Paired new - old figures of hold.sh's two arms: python3 pairs.py NEW_OUT OLD_OUT [--jsonl FILE]

Per run: ../bulk-baseline-a6262f6/collect.py's figures, plus the start-up's longest linkem queue and its drops over
the first 2 s from the first arrival, and when slow start ended (the telemetry's first non-slow-start record, s after
its first record). Prints a markdown table: means ± 95 % Student-t intervals per arm and of the paired differences."""
import glob, json, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'bulk-baseline-a6262f6'))
import linklog
from collect import collect
sys.path.insert(0, os.path.join(HERE, '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)

def startup(run):
    qmax = drops = 0
    for t, kind, _, delay in linklog.events(run):
        if t >= 2000: break
        if kind == '-': qmax = max(qmax, delay)
        elif kind == 'd': drops += 1
    tel = [json.loads(l) for l in open(sorted(glob.glob(os.path.join(run, 'telemetry', '*.jsonl')))[0])]
    end = next((r['t_us'] for r in tel if r['state'] != 'slow_start'), None)
    return {'startup_queue_max_ms': qmax, 'startup_drops': drops,
            'slow_start_end_s': None if end is None else round((end - tel[0]['t_us']) / 1e6, 3)}

def arm(out, label):
    rows = {}
    for r in collect(out):
        if r['scheme'] != 'vivace' or r['scenario'] != 'bulk-100mbps-30ms-1mb': continue
        r['arm'] = label
        if r['status'] == 'ok':
            r.update(startup(os.path.join(out, 'runs', r['scenario'], r['scheme'], str(r['repetition']))))
        rows[r['repetition']] = r
    return rows

def ci(v, d):
    v = [x for x in v if x is not None]
    if len(v) < 2: return ' '.join(f'{x:.{d}f}' for x in v) or '-'
    m, h = mean_ci95(v)
    return f"{m:.{d}f} ± {h:.{d}f}"

FIGS = [('throughput_mbps', 'IP throughput at linkem, Mbit/s', 1), ('goodput_mbps', 'goodput, Mbit/s', 1),
        ('queue_p95_ms', 'p95 queueing, ms', 1), ('startup_queue_max_ms', 'longest queue in the first 2 s, ms', 0),
        ('startup_drops', 'drops in the first 2 s', 0), ('slow_start_end_s', 'slow start ended, s', 2),
        ('t90_s', 't90, s', 2), ('first2s_mbps', 'first 2 s, Mbit/s', 1), ('wire_per_delivered', 'wire B per B', 3)]

def main():
    new, old = arm(sys.argv[1], 'new'), arm(sys.argv[2], 'old')
    if len(sys.argv) > 4 and sys.argv[3] == '--jsonl':
        with open(sys.argv[4], 'w') as f:
            for rows in (new, old):
                for k in sorted(rows): f.write(json.dumps(rows[k]) + '\n')
    pairs = [k for k in sorted(new) if k in old and new[k]['status'] == old[k]['status'] == 'ok']
    print(f"pairs: {pairs}\n")
    print('| figure | new (slow_start_queue_exit 0.5) | old (0) | new − old, paired | per pair (new / old) |')
    print('| --- | --- | --- | --- | --- |')
    for f, label, d in FIGS:
        a = [new[k][f] for k in pairs]; b = [old[k][f] for k in pairs]
        diff = [x - y for x, y in zip(a, b) if x is not None and y is not None]
        per = ', '.join(f"{'none' if x is None else f'{x:.{d}f}'} / {'none' if y is None else f'{y:.{d}f}'}" for x, y in zip(a, b))
        print(f"| {label} | {ci(a, d)} | {ci(b, d)} | {ci(diff, d)} | {per} |")

if __name__ == '__main__':
    main()
