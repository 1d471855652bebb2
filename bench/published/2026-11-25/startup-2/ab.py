#!/usr/bin/env python3
"""Paired before/after figures: python3 ab.py startup.jsonl [REPETITION...]  (summarise.py's lines; pairs share run_id
and come from the labels 'before' and 'after'; only these repetitions when given). Per figure: each side's mean, and the mean paired difference after - before with its
95% Student-t interval; t90 as per-run values and how many reached 90 Mbit/s within 2 s."""
import json, math, sys

T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571}
FIGURES = ['first2s_mbps', 'target_first2s_mbps', 'slow_start_last_mbps', 'throughput_mbps', 'goodput_mbps', 'queue_p95_ms']

def mean_ci(xs):
    n = len(xs); m = sum(xs) / n
    if n < 2: return f'{m:.2f}'
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return f'{m:.2f} ± {T95.get(n - 1, 2.0) * sd / math.sqrt(n):.2f}'

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
