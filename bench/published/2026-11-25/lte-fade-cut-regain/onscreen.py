"""The target ratio with the bench's average bitrate as it is now defined (on screen: the players' time-weighted
bitrate, bench/harness/README.md "Average bitrate"), beside the downloaded segments' mean the tables above use.
Usage: python3 onscreen.py [RESULTS.jsonl]   (default: this folder's results.jsonl; pairs with no runs are left out)"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lte-abr-fix'))
from stats import interval  # noqa: E402


def arm(r):
    p = r.get('controller_params') or {}
    if r['scheme'] != 'vivace-video':
        return r['scheme']
    return {(): 'vv', (('video_fade_cut', 1),): 'vvc'}.get(tuple(sorted(p.items())), 'vvo')


def played(r):
    return sum(p['time_weighted_bitrate_mbps'] for p in r['players']) / len(r['players'])


def downloaded(r):
    return sum(p['avg_bitrate_mbps'] for p in r['players']) / len(r['players'])


def fmt(values):
    return interval(values, 3)


path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), 'results.jsonl')
rows = [json.loads(line) for line in open(path) if line.strip()]
for scenario in sorted({r['scenario'] for r in rows}):
    runs = {}
    for r in rows:
        if r['scenario'] == scenario and r['status'] == 'ok':
            runs.setdefault(arm(r), {})[r['repetition']] = r
    print(f'## {scenario}\n')
    print('| arm | on screen Mbit/s | downloaded mean Mbit/s | on screen / tcp-bbr per pair | on screen / tcp-cubic per pair |')
    print('| --- | --- | --- | --- | --- |')
    for name in ['vv', 'vvc', 'vvo', 'vivace', 'tcp-bbr', 'tcp-cubic']:
        reps = sorted(runs.get(name, {}))
        if not reps:
            continue
        ratio = {tcp: [played(runs[name][n]) / played(runs[tcp][n]) for n in reps if n in runs.get(tcp, {})] for tcp in ['tcp-bbr', 'tcp-cubic']}
        print(f"| {name} | {fmt([played(runs[name][n]) for n in reps])} | {fmt([downloaded(runs[name][n]) for n in reps])} "
              f"| {fmt(ratio['tcp-bbr'])} | {fmt(ratio['tcp-cubic'])} |")
    print()
    print('| paired, on screen | Mbit/s per pair |')
    print('| --- | --- |')
    for a, b in [('vv', 'vvo'), ('vvc', 'vvo'), ('vv', 'vivace'), ('vv', 'tcp-bbr')]:
        reps = [n for n in sorted(runs.get(a, {})) if n in runs.get(b, {})]
        if not reps:
            continue
        diffs = [played(runs[a][n]) - played(runs[b][n]) for n in reps]
        print(f"| {a} − {b} | {fmt(diffs)} ({', '.join(f'{d:+.3f}' for d in diffs)}) |")
    print()
