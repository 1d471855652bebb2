#!/usr/bin/env python3
"""Per timeline (lte-att/timeline.py's output): the mean controller rate (ctl, Mbit/s) over link-seconds 17-21, where
Verizon-LTE-short is back at 5.2-7.0 Mbit/s after its dip, and the mean per-second p95 queueing over the dip's 11-16.
With this folder's timeline-on-N / timeline-off-N among them, also the paired differences on - off (95% t interval:
video-bitrates/tables.py's fmt, loaded by path).
Usage: python3 window.py timeline-*.txt"""
import importlib.util
import os
import re
import sys

_spec = importlib.util.spec_from_file_location('video_bitrates_tables', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'video-bitrates', 'tables.py'))
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)


def column(path, first, last, index):
    xs = []
    for line in open(path):
        f = line.split()
        if len(f) > 8 and f[0].isdigit() and first <= int(f[0]) <= last and f[index] != '-':
            xs.append(float(f[index]))
    return sum(xs) / len(xs) if xs else float('nan')


arms = {}
for path in sys.argv[1:]:
    rate, queue = column(path, 17, 21, 7), column(path, 11, 16, 6)
    print(f'{path}: rate 17-21 s {rate:.2f} Mbit/s; dip 11-16 s p95 queueing {queue:.0f} ms')
    m = re.fullmatch(r'timeline-(on|off)-(\d+)\.txt', os.path.basename(path))
    if m:
        arms.setdefault(m.group(1), {})[m.group(2)] = (rate, queue)
reps = sorted(set(arms.get('on', {})) & set(arms.get('off', {})))
if reps:
    for i, label, d in [(0, 'rate 17-21 s, Mbit/s', 2), (1, 'dip p95 queueing, ms', 0)]:
        diffs = [arms['on'][n][i] - arms['off'][n][i] for n in reps]
        print(f"on - off, {label}: {_shared.fmt(diffs, d)} (per repetition {', '.join(f'{x:.{d}f}' for x in diffs)})")
