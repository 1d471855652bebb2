#!/usr/bin/env python3
"""Paired (by trace and seed) means and 95% Student-t intervals of sim-grid.sh's lines: the bound off (first file)
against on (second file) for vivace-video, and every scheme's means from the second file.
usage: sim-paired.py OFF.jsonl ON.jsonl"""
import importlib.util, json, os, sys
from collections import defaultdict
from statistics import mean

# mean ± 95% CI (Student t): video-bitrates/tables.py's definition, loaded by path
_spec = importlib.util.spec_from_file_location('video_bitrates_tables', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'video-bitrates', 'tables.py'))
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)
FIELDS = [('p95_queueing_ms', 1, 'p95 queueing ms'), ('mean_queueing_ms', 1, 'mean queueing ms'),
          ('buffering_ratio', 100, 'buffering %'), ('average_bitrate_mbps', 1, 'avg bitrate Mbit/s'),
          ('throughput_mbps', 1, 'throughput Mbit/s'), ('loss_rate', 100, 'loss %')]

def half(xs): return _shared.ci(xs)[1]

off = [json.loads(l) for l in open(sys.argv[1])]
on = [json.loads(l) for l in open(sys.argv[2])]
traces = list(dict.fromkeys(r['trace'] for r in on))
a = {(r['trace'], r['seed']): r for r in off if r['cc'] == 'vivace-video'}
b = {(r['trace'], r['seed']): r for r in on if r['cc'] == 'vivace-video'}
print('## vivace-video, bound off -> on (paired by seed; mean, and the difference ± 95% t half-width)\n')
print('| trace | ' + ' | '.join(f[2] for f in FIELDS) + ' |')
print('| --- |' + ' --- |' * len(FIELDS))
for tr in traces:
    keys = sorted(k for k in a if k[0] == tr and k in b)
    cells = []
    for field, scale, _ in FIELDS:
        x = [a[k][field] * scale for k in keys]; y = [b[k][field] * scale for k in keys]
        d = [q - p for p, q in zip(x, y)]
        cells.append('%.2f → %.2f (%+.2f ± %.2f)' % (mean(x), mean(y), mean(d), half(d)))
    print(f'| {tr} (n={len(keys)}) | ' + ' | '.join(cells) + ' |')
print('\n## every scheme, bound on (mean ± 95% t half-width over seeds)\n')
print('| trace | scheme | ' + ' | '.join(f[2] for f in FIELDS) + ' |')
print('| --- | --- |' + ' --- |' * len(FIELDS))
groups = defaultdict(list)
for r in on: groups[(r['trace'], r['cc'])].append(r)
for tr in traces:
    for cc in dict.fromkeys(r['cc'] for r in on):
        rows = groups[(tr, cc)]
        cells = ['%.2f ± %.2f' % (mean([r[f] * s for r in rows]), half([r[f] * s for r in rows])) for f, s, _ in FIELDS]
        print(f'| {tr} | {cc} | ' + ' | '.join(cells) + ' |')
