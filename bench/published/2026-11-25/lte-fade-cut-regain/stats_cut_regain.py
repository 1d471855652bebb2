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
from stats import arms_of, interval, print_pairs, print_table, value  # noqa: E402

VV = 'vivace-video'
CUT = 'vivace-video video_fade_cut=1'
OLD = 'vivace-video regain_without_queue=0 video_fade_cut=0'
ORDER = [VV, CUT, OLD, 'vivace', 'tcp-bbr', 'tcp-cubic']
PAIRS = [(VV, OLD), (CUT, OLD), (CUT, VV), (VV, 'tcp-bbr'), (CUT, 'tcp-bbr'), (OLD, 'tcp-bbr'), (VV, 'vivace')]


def main():
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    scenario = sys.argv[2]
    arms = arms_of(rows, scenario)
    print(f'{scenario} (30 s, ABR)\n')
    print_table(arms, ORDER)
    print_pairs(arms, PAIRS)
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
