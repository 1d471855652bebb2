#!/usr/bin/env python3
"""Paired before/after tables for the pacer-debt hold. Usage: tables.py OUT_DIR PCC_REPLAY [AFTER_COMMIT] > tables.md
OUT_DIR holds before-N / after-N bench dirs (hold.sh). Per-run figures come from bulk-75kb/inputs.py (same columns
as bulk-75kb/summary.md); this adds means ± 95 % Student-t intervals and paired differences (after − before)."""
import sys, os, glob, subprocess, collections, json

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
INPUTS = os.path.join(HERE, '..', 'bulk-75kb', 'inputs.py')
# inputs.py's columns, by position in its row
COLS = {'goodput Mbit/s': 1, 'throughput (linkem IP bytes) Mbit/s': 2, 'linkem queue drops %': 4,
        'stamp-model drops %': 6, 'ms with nothing sent %': 7, 'ms above 100 Mbit/s %': 8,
        '5-ms windows above 100 Mbit/s %': 9, 'sent / target': 11, 'MIs with a loss %': 12,
        'lossless MIs penalised for RTT %': 13, 'origin CPU %': 15, 'origin run-queue wait %': 16}

def ci(v):
    if len(v) < 2: return f"{v[0]:.2f}" if v else '-'
    return "{:.2f} ± {:.2f}".format(*mean_ci95(v))

def row(bench, replay):
    out = subprocess.run([sys.executable, INPUTS, bench, replay], capture_output=True, text=True, check=True).stdout
    cells = [c.strip() for c in out.splitlines()[2].strip('|').split('|')]
    target, sent = (float(x) for x in cells[10].split('/'))
    v = {}
    for name, i in COLS.items():
        c = cells[i]
        v[name] = float(c.split('/')[0]) if '/' in c else float(c)
    v['MI target Mbit/s'] = target
    v['MI sent Mbit/s'] = sent
    return v

def main():
    out, replay = sys.argv[1], sys.argv[2]
    after = sys.argv[3] if len(sys.argv) > 3 else '24a4fe4'
    runs = collections.defaultdict(dict)
    for d in sorted(glob.glob(os.path.join(out, '*-[0-9]'))):
        if not os.path.isdir(d): continue
        label, pair = os.path.basename(d).rsplit('-', 1)
        runs[label][int(pair)] = row(d, replay)
    names = list(next(iter(runs['after'].values())).keys())
    pairs = sorted(set(runs['before']) & set(runs['after']))
    print(f'| figure | before (712aebe token-bucket.ts) | after ({after}) | after − before (paired) | per pair before → after |')
    print('| --- | --- | --- | --- | --- |')
    for n in names:
        b = [runs['before'][k][n] for k in pairs]; a = [runs['after'][k][n] for k in pairs]
        print(f"| {n} | {ci(b)} | {ci(a)} | {ci([y - x for x, y in zip(b, a)])} | "
              + ', '.join(f"{x:g} → {y:g}" for x, y in zip(b, a)) + ' |')
    print(f"\nn = {len(pairs)} pairs; means ± 95 % Student-t intervals. Per-run rows (inputs.py):\n")
    for label in ('before', 'after'):
        for k in sorted(runs[label]):
            print(f"- {label}-{k}: " + json.dumps(runs[label][k]))

main()
