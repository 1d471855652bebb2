#!/usr/bin/env python3
"""Paired before/after table of pcc-sim video runs (simvideo.jsonl: one line per seed, cc, variant head|fix).
Means with 95% Student-t intervals over seeds; differences fix - head paired by seed."""
import json, os, sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)


def ci(xs):
    return mean_ci95(xs, as_stats_ts=True)


METRICS = [('buffering %', lambda f: 100 * f['video']['buffering_ratio']), ('stalls', lambda f: f['video']['stall_count']),
           ('throughput Mbit/s', lambda f: f['throughput_mbps']), ('p95 RTT ms', lambda f: f['p95_rtt_ms']),
           ('loss %', lambda f: 100 * f['loss_rate'])]
runs = defaultdict(dict)
for line in open(sys.argv[1]):
    d = json.loads(line)
    runs[(d['cc'], d['seed'])][d['variant']] = d['result']['flows'][0]
ccs = sorted({cc for cc, _ in runs}, key=lambda c: (c != 'vivace-video', c))
print('| scheme | seeds | metric | HEAD (mean ± 95% t) | fix | fix − HEAD, paired | pairs that differ |')
print('| --- | --- | --- | --- | --- | --- | --- |')
for cc in ccs:
    seeds = sorted(s for c, s in runs if c == cc and {'head', 'fix'} <= runs[(c, s)].keys())
    for name, get in METRICS:
        try:
            h = [get(runs[(cc, s)]['head']) for s in seeds]; f = [get(runs[(cc, s)]['fix']) for s in seeds]
        except KeyError:
            continue  # a bulk flow has no video metrics
        d = [b - a for a, b in zip(h, f)]
        (hm, hc), (fm, fc), (dm, dc) = ci(h), ci(f), ci(d)
        print(f'| {cc} | {len(seeds)} | {name} | {hm:.3f} ± {hc:.3f} | {fm:.3f} ± {fc:.3f} | {dm:+.3f} ± {dc:.3f} | {sum(1 for x in d if x != 0)} |')
