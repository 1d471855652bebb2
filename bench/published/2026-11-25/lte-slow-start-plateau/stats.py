#!/usr/bin/env python3
"""This folder's real-path tables: per arm (scheme, and for vivace-video / vivace slow_start_delivery_plateau on or off)
means with 95 % Student-t intervals (../../student_t.py) over the repetitions, paired on - off differences (same
repetition, same seed) and each vivace-video arm's bitrate over tcp-bbr's per repetition. Usage: python3 stats.py
results.jsonl"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402

COLUMNS = [('avg_bitrate_mbps', 'avg bitrate Mbit/s', 1, 3), ('buffering_ratio', 'buffering %', 100, 2),
           ('queue_delay_p95_ms', 'p95 queueing ms', 1, 0), ('goodput_mbps', 'goodput Mbit/s', 1, 3),
           ('startup_delay_s', 'start-up delay s', 1, 2)]


def arm(r):
    if r['scheme'] not in ('vivace-video', 'vivace'):
        return r['scheme']
    on = (r.get('controller_params') or {}).get('slow_start_delivery_plateau', 0) > 0
    return f"{r['scheme']} {'on' if on else 'off'}"


def fmt(xs, scale, digits, sign=''):
    m, h = mean_ci95([x * scale for x in xs])
    return f'{m:{sign}.{digits}f} ± {h:.{digits}f}'


by = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r['status'] == 'ok' and r['players']:
        by.setdefault(arm(r), {})[r['repetition']] = r
print('| arm | n | ' + ' | '.join(c[1] for c in COLUMNS) + ' |')
print('| --- | --- |' + ' --- |' * len(COLUMNS))
for a in ('vivace-video off', 'vivace-video on', 'vivace off', 'vivace on', 'tcp-bbr'):
    rs = list(by.get(a, {}).values())
    if rs:
        print(f'| {a} | {len(rs)} | ' + ' | '.join(fmt([r[k] for r in rs], s, d) for k, _, s, d in COLUMNS) + ' |')
print('\nPaired on − off (same repetition and seed), mean ± 95 % t, per-pair values in brackets:\n')
for scheme in ('vivace-video', 'vivace'):
    on, off = by.get(f'{scheme} on', {}), by.get(f'{scheme} off', {})
    reps = sorted(set(on) & set(off))
    if not reps:
        continue
    cells = []
    for k, name, s, d in COLUMNS:
        diffs = [(on[n][k] - off[n][k]) * s for n in reps]
        cells.append(f"{name} {fmt(diffs, 1, d, '+')} ({', '.join(f'{x:+.{d}f}' for x in diffs)})")
    print(f'- {scheme} (n = {len(reps)}): ' + '; '.join(cells))
print("\nBitrate over tcp-bbr's (same repetition), mean ± 95 % t:\n")
for a in ('vivace-video off', 'vivace-video on', 'vivace off', 'vivace on'):
    reps = sorted(set(by.get(a, {})) & set(by.get('tcp-bbr', {})))
    if reps:
        ratios = [by[a][n]['avg_bitrate_mbps'] / by['tcp-bbr'][n]['avg_bitrate_mbps'] for n in reps]
        print(f"- {a}: {fmt(ratios, 1, 3)} ({', '.join(f'{x:.3f}' for x in ratios)})")
