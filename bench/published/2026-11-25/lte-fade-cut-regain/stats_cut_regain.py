#!/usr/bin/env python3
"""This folder's table (issue 18): per arm means with 95 % Student-t intervals over the repetitions, paired differences
(same repetition, same seed, same hold) and issue 18's target for each vivace-video arm, with ../lte-abr-fix/stats.py's
columns and helpers (imported). Arms: vivace-video (its defaults: regain_without_queue on, the fade cut off),
+ video_fade_cut=1 (both rules), + regain_without_queue=0 video_fade_cut=0 (neither: the controller before them),
vivace, tcp-bbr, tcp-cubic. Usage: python3 stats_cut_regain.py results.jsonl SCENARIO"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'lte-abr-fix'))
from stats import COLUMNS, arm, interval, value  # noqa: E402

VV = 'vivace-video'
CUT = 'vivace-video video_fade_cut=1'
OLD = 'vivace-video regain_without_queue=0 video_fade_cut=0'
ORDER = [VV, CUT, OLD, 'vivace', 'tcp-bbr', 'tcp-cubic']
PAIRS = [(VV, OLD), (CUT, OLD), (CUT, VV), (VV, 'tcp-bbr'), (CUT, 'tcp-bbr'), (OLD, 'tcp-bbr'), (VV, 'vivace')]


def main():
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    scenario = sys.argv[2]
    arms = {}
    for r in rows:
        if r['scenario'] == scenario and r['status'] == 'ok' and r['players']:
            arms.setdefault(arm(r), {})[r['repetition']] = r
    print(f'{scenario} (30 s, ABR)\n')
    print('| arm | n | ' + ' | '.join(c[1] for c in COLUMNS) + ' |')
    print('| --- | --- |' + ' --- |' * len(COLUMNS))
    for a in [a for a in ORDER if a in arms]:
        rs = list(arms[a].values())
        print(f'| {a} | {len(rs)} | ' + ' | '.join(interval([value(r, k) * s for r in rs], d) for k, _, s, d in COLUMNS) + ' |')
    print('\nPaired A − B (same repetition and seed, one hold per repetition), mean ± 95 % t, per pair in brackets:\n')
    for x, y in PAIRS:
        if x not in arms or y not in arms:
            continue
        reps = sorted(set(arms[x]) & set(arms[y]))
        if len(reps) < 2:
            continue
        print(f'- {x} − {y} (n = {len(reps)}):')
        for k, name, s, d in COLUMNS[:5]:
            diffs = [(value(arms[x][n], k) - value(arms[y][n], k)) * s for n in reps]
            print(f"  - {name}: {interval(diffs, d, '+')} ({', '.join(f'{v:+.{d}f}' for v in diffs)})")
    tcp = [a for a in ('tcp-bbr', 'tcp-cubic') if a in arms]
    if not tcp:
        return
    mean = lambda a, k, s=1: sum(value(r, k) * s for r in arms[a].values()) / len(arms[a])  # noqa: E731
    better = max(tcp, key=lambda a: mean(a, 'avg_bitrate_mbps'))
    print(f'\nTarget (issue 18): bitrate ≥ 0.95 × the better TCP ({better}, by mean), p95 queueing ≤ tcp-bbr\'s and ≤ ½ tcp-cubic\'s:\n')
    for a in [a for a in (VV, CUT, OLD, 'vivace') if a in arms]:
        reps = sorted(set(arms[a]) & set(arms[better]))
        ratios = [value(arms[a][n], 'avg_bitrate_mbps') / value(arms[better][n], 'avg_bitrate_mbps') for n in reps]
        q = {t: mean(t, 'queue_delay_p95_ms') for t in tcp}
        print(f"- {a}: bitrate ratio per pair {interval(ratios, 3)} ({', '.join(f'{v:.3f}' for v in ratios)}); "
              f"p95 queueing {mean(a, 'queue_delay_p95_ms'):.0f} ms vs bbr {q.get('tcp-bbr', float('nan')):.0f}, "
              f"½ cubic {0.5 * q.get('tcp-cubic', float('nan')):.0f}; buffering {mean(a, 'buffering_ratio', 100):.2f} %")


if __name__ == '__main__':
    main()
