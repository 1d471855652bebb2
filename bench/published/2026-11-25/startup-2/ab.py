#!/usr/bin/env python3
"""Paired before/after figures: python3 ab.py startup.jsonl [REPETITION...]  (summarise.py's lines; pairs share run_id
and come from the labels 'before' and 'after'; only these repetitions when given). Per figure: each side's mean, and the mean paired difference after - before with its
95% Student-t interval; t90 as per-run values and how many reached 90 Mbit/s within 2 s."""
import json, math, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
FIGURES = ['first2s_mbps', 'target_first2s_mbps', 'slow_start_last_mbps', 'throughput_mbps', 'goodput_mbps', 'queue_p95_ms']

def mean_ci(xs):
    m, h = mean_ci95(xs, as_stats_ts=True)
    return f'{m:.2f}' if math.isnan(h) else f'{m:.2f} ± {h:.2f}'

rows = [json.loads(l) for l in open(sys.argv[1])]
by = {(r['label'], r['run_id']): r for r in rows}
keep = set(sys.argv[2:])
ids = sorted(i for (label, i) in by if label == 'before' and ('after', i) in by and (not keep or i.rsplit('/', 1)[1] in keep))
print(f'pairs: {len(ids)} ({", ".join(ids)})')
for side in ('before', 'after'):
    t90 = [by[(side, i)]['t90_s'] for i in ids]
    print(f'{side}: t90 per run {t90}; within 2 s: {sum(1 for t in t90 if t is not None and t <= 2.0)} of {len(ids)}')
print('| figure | before | after | after - before |')
print('| --- | --- | --- | --- |')
for f in FIGURES:
    b = [by[('before', i)][f] for i in ids]; a = [by[('after', i)][f] for i in ids]
    if None in a or None in b: continue
    print(f'| {f} | {mean_ci(b)} | {mean_ci(a)} | {mean_ci([y - x for x, y in zip(b, a)])} |')
