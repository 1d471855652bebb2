#!/usr/bin/env python3
"""This folder's real-path table: vivace-video with regain_without_queue off and on (controller_params), means with
95 % Student-t intervals (../../student_t.py) over the repetitions, and the paired on - off differences (same
repetition, same seed) with the per-pair values. Usage: python3 stats.py results.jsonl"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402

PARAM = 'regain_without_queue'
COLUMNS = [('avg_bitrate_mbps', 'avg bitrate Mbit/s', 1, 3), ('time_weighted_bitrate_mbps', 'time-weighted bitrate Mbit/s', 1, 3),
           ('buffering_ratio', 'buffering %', 100, 2), ('queue_delay_p95_ms', 'p95 queueing ms', 1, 0),
           ('goodput_mbps', 'goodput Mbit/s', 1, 3)]


def value(r, key):
    return r[key] if key in r else r['players'][0][key]


def interval(xs, digits, sign=''):
    m, h = mean_ci95(xs)
    return f'{m:{sign}.{digits}f} ± {h:.{digits}f}'


arms = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r['status'] == 'ok' and r['players']:
        on = (r.get('controller_params') or {}).get(PARAM, 0) > 0
        arms.setdefault('on' if on else 'off', {})[r['repetition']] = r
print('| vivace-video, ' + PARAM + ' | n | ' + ' | '.join(c[1] for c in COLUMNS) + ' |')
print('| --- | --- |' + ' --- |' * len(COLUMNS))
for a in ('off', 'on'):
    rs = list(arms.get(a, {}).values())
    if rs:
        print(f'| {a} | {len(rs)} | ' + ' | '.join(interval([value(r, k) * s for r in rs], d) for k, _, s, d in COLUMNS) + ' |')
reps = sorted(set(arms.get('on', {})) & set(arms.get('off', {})))
if reps:
    print(f'\nPaired on − off (same repetition and seed, n = {len(reps)}), mean ± 95 % t, per pair in brackets:\n')
    for k, name, s, d in COLUMNS:
        diffs = [(value(arms['on'][n], k) - value(arms['off'][n], k)) * s for n in reps]
        print(f"- {name}: {interval(diffs, d, '+')} ({', '.join(f'{x:+.{d}f}' for x in diffs)})")
