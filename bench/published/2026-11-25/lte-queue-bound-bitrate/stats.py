#!/usr/bin/env python3
"""This folder's tables: per variant (scheme, with vivace-video split by video_queue_spare_share: "bound on" = default,
"bound off" = 0) the means with 95% Student-t intervals, the paired differences (same repetition) and vivace-video's
bitrate over tcp-bbr's per repetition. Intervals: video-bitrates/tables.py's fmt, loaded by path.
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


def variant(r):
    if r['scheme'] != 'vivace-video':
        return r['scheme']
    share = (r.get('controller_params') or {}).get('video_queue_spare_share')
    return 'vivace-video (bound off)' if share == 0 else 'vivace-video (bound on)'


def load(path, variant_of):
    """The ok rows of a results.jsonl by variant (variant_of(row)) and repetition."""
    by = {}
    for line in open(path):
        if line.strip():
            r = json.loads(line)
            if r.get('status') == 'ok':
                by.setdefault(variant_of(r), {})[r['repetition']] = r
    return by


def print_means(by, label):
    """Per variant, each metric's mean ± 95% t with the repetitions' values."""
    print(f'| {label} | ' + ' | '.join(name for _, name, _ in METRICS) + ' |')
    print('| --- |' + ' --- |' * len(METRICS))
    for v in sorted(by):
        reps = sorted(by[v])
        cells = [f"{_shared.fmt([by[v][n][k] for n in reps], d)} ({', '.join(f'{by[v][n][k]:.{d}f}' for n in reps)})" for k, _, d in METRICS]
        print(f'| {v} (n = {len(reps)}) | ' + ' | '.join(cells) + ' |')


def print_pairs(by, pairs, ratio_to=None):
    """Paired differences (same repetition) a - b of each metric; for b == ratio_to also a's bitrate over b's."""
    print('Paired differences (same repetition), mean ± 95% t:')
    for a, b in pairs:
        if a not in by or b not in by:
            continue
        reps = sorted(set(by[a]) & set(by[b]))
        parts = [f"{name} {_shared.fmt([by[a][n][k] - by[b][n][k] for n in reps], d)}" for k, name, d in METRICS]
        print(f'- {a} − {b} (n = {len(reps)}): ' + '; '.join(parts))
        if b == ratio_to:
            ratios = [by[a][n]['avg_bitrate_mbps'] / by[b][n]['avg_bitrate_mbps'] for n in reps]
            print(f"  bitrate over tcp-bbr's: {_shared.fmt(ratios, 3)} (per repetition {', '.join(f'{x:.3f}' for x in ratios)})")


if __name__ == '__main__':
    by = load(sys.argv[1], variant)
    print_means(by, 'variant')
    print()
    print_pairs(by, [('vivace-video (bound on)', 'vivace-video (bound off)'), ('vivace-video (bound on)', 'tcp-bbr'),
                     ('vivace-video (bound off)', 'tcp-bbr')], ratio_to='tcp-bbr')
