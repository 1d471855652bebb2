#!/usr/bin/env python3
"""This folder's tables: per arm (scheme; vivace-video split by video_hold_pre_dip_rate: "held" = its default 1,
"not held" = 0) the means with 95% Student-t intervals, the paired differences (same repetition) and the bitrate over
tcp-bbr's and over the better TCP scheme's per repetition. Intervals: video-bitrates/tables.py's fmt, loaded by path.
Usage: python3 stats.py results.jsonl"""
import importlib.util
import json
import os
import sys

_spec = importlib.util.spec_from_file_location('video_bitrates_tables', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'video-bitrates', 'tables.py'))
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)

METRICS = [('avg_bitrate_mbps', 'avg bitrate Mbit/s', 3), ('buffering_ratio', 'buffering ratio', 4),
           ('queue_delay_p95_ms', 'p95 queueing ms', 1), ('goodput_mbps', 'goodput Mbit/s', 3)]
HELD, NOT_HELD = 'vivace-video (held)', 'vivace-video (not held)'


def arm(r):
    if r['scheme'] != 'vivace-video':
        return r['scheme']
    return NOT_HELD if (r.get('controller_params') or {}).get('video_hold_pre_dip_rate') == 0 else HELD


by = {}
for line in open(sys.argv[1]):
    if line.strip():
        r = json.loads(line)
        if r.get('status') == 'ok':
            by.setdefault(arm(r), {})[r['repetition']] = r
print('| arm | ' + ' | '.join(label for _, label, _ in METRICS) + ' |')
print('| --- |' + ' --- |' * len(METRICS))
for v in sorted(by):
    reps = sorted(by[v])
    cells = [f"{_shared.fmt([by[v][n][k] for n in reps], d)} ({', '.join(f'{by[v][n][k]:.{d}f}' for n in reps)})" for k, _, d in METRICS]
    print(f'| {v} (n = {len(reps)}) | ' + ' | '.join(cells) + ' |')
print()
print('Paired differences (same repetition), mean ± 95% t:')
for a, b in [(HELD, NOT_HELD), (HELD, 'tcp-bbr'), (NOT_HELD, 'tcp-bbr'), ('vivace', 'tcp-bbr'), (HELD, 'vivace')]:
    if a not in by or b not in by:
        continue
    reps = sorted(set(by[a]) & set(by[b]))
    parts = [f"{label} {_shared.fmt([by[a][n][k] - by[b][n][k] for n in reps], d)}" for k, label, d in METRICS]
    print(f'- {a} − {b} (n = {len(reps)}): ' + '; '.join(parts))
print()
print("Bitrate over tcp-bbr's and over the better TCP scheme's (per repetition), mean ± 95% t:")
for a in [HELD, NOT_HELD, 'vivace']:
    if a not in by or 'tcp-bbr' not in by:
        continue
    reps = sorted(set(by[a]) & set(by['tcp-bbr']))
    ratios = [by[a][n]['avg_bitrate_mbps'] / by['tcp-bbr'][n]['avg_bitrate_mbps'] for n in reps]
    line = f"- {a}: over tcp-bbr's {_shared.fmt(ratios, 3)} ({', '.join(f'{x:.3f}' for x in ratios)})"
    both = [n for n in reps if 'tcp-cubic' in by and n in by['tcp-cubic']]
    if both:
        best = [by[a][n]['avg_bitrate_mbps'] / max(by['tcp-bbr'][n]['avg_bitrate_mbps'], by['tcp-cubic'][n]['avg_bitrate_mbps']) for n in both]
        line += f"; over the better TCP's {_shared.fmt(best, 3)} ({', '.join(f'{x:.3f}' for x in best)})"
    print(line)
