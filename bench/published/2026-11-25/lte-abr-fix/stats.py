#!/usr/bin/env python3
"""This folder's table: per arm (scheme, the player's ABR: the page's harmonic mean (new) or dash.js's defaults
(player_params abrThroughput=dashjs), controller_params) means with 95 % Student-t intervals (../../student_t.py) over
the repetitions, then paired differences (same repetition, same seed, same hold) with the per-pair values, and
issue 18's target. Usage: python3 stats.py results.jsonl [SCENARIO]"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402

COLUMNS = [('avg_bitrate_mbps', 'avg bitrate Mbit/s', 1, 3), ('time_weighted_bitrate_mbps', 'time-weighted Mbit/s', 1, 3),
           ('buffering_ratio', 'buffering %', 100, 2), ('queue_delay_p95_ms', 'p95 queueing ms', 1, 0),
           ('wire_bytes_per_media_byte', 'wire B / media B', 1, 3), ('switch_count', 'switches', 1, 1)]
PAIRS = [('vivace-video', 'tcp-bbr'), ('vivace-video', 'tcp-cubic'), ('vivace-video', 'vivace'),
         ('vivace-video', 'vivace-video dash.js ABR'), ('tcp-bbr', 'tcp-bbr dash.js ABR'),
         ('vivace-video regain_without_queue=1', 'vivace-video'),
         ('vivace-video dash.js ABR', 'tcp-bbr dash.js ABR')]


def value(r, key):
    return r[key] if key in r else r['players'][0][key]


def arm(r):
    name = r['scheme']
    for k, v in sorted((r.get('controller_params') or {}).items()):
        name += f' {k}={v:g}'
    if (r.get('player_params') or {}).get('abrThroughput') == 'dashjs':
        name += ' dash.js ABR'
    return name


def interval(xs, digits, sign=''):
    m, h = mean_ci95(xs)
    return f'{m:{sign}.{digits}f} ± {h:.{digits}f}'


def arms_of(rows, scenario):
    """{arm name: {repetition: row}} of a scenario's completed runs."""
    arms = {}
    for r in rows:
        if r['scenario'] == scenario and r['status'] == 'ok' and r['players']:
            arms.setdefault(arm(r), {})[r['repetition']] = r
    return arms


def print_table(arms, order):
    print('| arm | n | ' + ' | '.join(c[1] for c in COLUMNS) + ' |')
    print('| --- | --- |' + ' --- |' * len(COLUMNS))
    for a in [a for a in order if a in arms]:
        rs = list(arms[a].values())
        print(f'| {a} | {len(rs)} | ' + ' | '.join(interval([value(r, k) * s for r in rs], d) for k, _, s, d in COLUMNS) + ' |')


def print_pairs(arms, pairs):
    print('\nPaired A − B (same repetition and seed, one hold per repetition), mean ± 95 % t, per pair in brackets:\n')
    for x, y in pairs:
        if x not in arms or y not in arms:
            continue
        reps = sorted(set(arms[x]) & set(arms[y]))
        if len(reps) < 2:
            continue
        print(f'- {x} − {y} (n = {len(reps)}):')
        for k, name, s, d in COLUMNS[:5]:
            diffs = [(value(arms[x][n], k) - value(arms[y][n], k)) * s for n in reps]
            print(f"  - {name}: {interval(diffs, d, '+')} ({', '.join(f'{v:+.{d}f}' for v in diffs)})")


def main():
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    scenario = sys.argv[2] if len(sys.argv) > 2 else rows[0]['scenario']
    arms = arms_of(rows, scenario)
    print(f'{scenario} (30 s, ABR)\n')
    print_table(arms, ('vivace-video', 'vivace-video dash.js ABR', 'vivace-video regain_without_queue=1', 'vivace',
                       'tcp-bbr', 'tcp-bbr dash.js ABR', 'tcp-cubic'))
    print_pairs(arms, PAIRS)
    tcp = [a for a in ('tcp-bbr', 'tcp-cubic') if a in arms]
    if 'vivace-video' in arms and tcp:
        mean = lambda a, k, s=1: sum(value(r, k) * s for r in arms[a].values()) / len(arms[a])  # noqa: E731
        better = max(tcp, key=lambda a: mean(a, 'avg_bitrate_mbps'))
        reps = sorted(set(arms['vivace-video']) & set(arms[better]))
        ratios = [value(arms['vivace-video'][n], 'avg_bitrate_mbps') / value(arms[better][n], 'avg_bitrate_mbps') for n in reps]
        print(f"\nTarget (issue 18), vivace-video with the page's ABR:")
        print(f"- bitrate ≥ 0.95 × the better TCP ({better}, by mean): ratio of means "
              f"{mean('vivace-video', 'avg_bitrate_mbps') / mean(better, 'avg_bitrate_mbps'):.3f}; per pair {interval(ratios, 3)} "
              f"({', '.join(f'{v:.3f}' for v in ratios)})")
        print(f"- buffering ≤ 0.5 %: {mean('vivace-video', 'buffering_ratio', 100):.2f} %")
        for a, f in (('tcp-bbr', 1), ('tcp-cubic', 0.5)):
            if a in arms:
                print(f"- p95 queueing ≤ {f:g} × {a}'s: {mean('vivace-video', 'queue_delay_p95_ms'):.0f} vs {f * mean(a, 'queue_delay_p95_ms'):.0f} ms")


if __name__ == '__main__':
    main()
