#!/usr/bin/env python3
"""Issue 18's LTE targets for one scenario, from a results.jsonl of paired runs (same repetition = same seed, one hold):
per arm means with 95 % Student-t intervals (../lte-abr-fix/stats.py's table, imported), then per pair vivace-video
against the better TCP scheme (higher mean on-screen bitrate: the players' time-weighted bitrate) and each target as
met or missed, with the paired ratio. Usage: python3 targets.py results.jsonl SCENARIO"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'lte-abr-fix'))
from stats import arms_of, interval, print_table  # noqa: E402

VV, TCP = 'vivace-video', ('tcp-bbr', 'tcp-cubic')
ORDER = [VV, 'vivace', *TCP]


def played(r):
    return sum(p['time_weighted_bitrate_mbps'] for p in r['players']) / len(r['players'])


METRICS = {'on screen': played, 'buffering %': lambda r: 100 * r['buffering_ratio'],
           'p95 queueing': lambda r: r['queue_delay_p95_ms'], 'wire/media': lambda r: r['wire_bytes_per_media_byte']}


def mean(arm, f):
    return sum(f(r) for r in arm.values()) / len(arm)


def paired(arms, a, b, f):
    reps = sorted(set(arms[a]) & set(arms[b]))
    return [f(arms[a][n]) / f(arms[b][n]) for n in reps]


def verdict(ok, text):
    return f"{'met' if ok else 'MISSED'}: {text}"


def main(path, scenario):
    with open(path) as f:
        arms = arms_of([json.loads(line) for line in f if line.strip()], scenario)
    print(f'## {scenario} (30 s, ABR)\n')
    print_table(arms, ORDER)
    if VV not in arms or not all(t in arms for t in TCP):
        return
    better = max(TCP, key=lambda t: mean(arms[t], played))
    print(f'\nvivace-video / arm per pair (mean ± 95 % t; per pair in brackets); better TCP by on-screen bitrate: {better}\n')
    print('| metric | ' + ' | '.join(f'vv / {t}' for t in ('vivace', *TCP)) + ' |')
    print('| --- |' + ' --- |' * 3)
    for name, f in METRICS.items():
        if name == 'buffering %':
            continue  # ratios of zeros: buffering is compared in the targets below
        cells = []
        for t in ('vivace', *TCP):
            rs = paired(arms, VV, t, f)
            cells.append(f"{interval(rs, 3)} ({', '.join(f'{x:.2f}' for x in rs)})" if len(rs) > 1 else '–')
        print(f'| {name} | ' + ' | '.join(cells) + ' |')
    m = {a: {k: mean(arms[a], f) for k, f in METRICS.items()} for a in arms}
    rs = paired(arms, VV, better, played)
    print('\nTargets (issue 18), by means:')
    print('- ' + verdict(m[VV]['on screen'] >= 0.95 * m[better]['on screen'],
                         f"on-screen bitrate ≥ 0.95 × {better}'s: {m[VV]['on screen']:.3f} vs {m[better]['on screen']:.3f} Mbit/s, "
                         f"ratio of means {m[VV]['on screen'] / m[better]['on screen']:.3f}, per pair {interval(rs, 3)}"))
    b = m[VV]['buffering %']
    print('- ' + verdict(b <= 0.5, f'buffering ≤ 0.5 %: {b:.2f} %'))
    print('- ' + verdict(all(b <= m[t]['buffering %'] for t in TCP),
                         'buffering ≤ both TCP: ' + ', '.join(f"{t} {m[t]['buffering %']:.2f} %" for t in TCP)))
    q = m[VV]['p95 queueing']
    print('- ' + verdict(q <= 0.5 * m['tcp-cubic']['p95 queueing'],
                         f"p95 queueing ≤ ½ tcp-cubic's: {q:.0f} vs {0.5 * m['tcp-cubic']['p95 queueing']:.0f} ms"))
    print('- ' + verdict(q <= m['tcp-bbr']['p95 queueing'], f"p95 queueing ≤ tcp-bbr's: {q:.0f} vs {m['tcp-bbr']['p95 queueing']:.0f} ms"))
    w = m[VV]['wire/media']
    print('- ' + verdict(all(w <= m[t]['wire/media'] for t in TCP), f'wire B per media B ≤ TCP (item 7): {w:.3f} vs '
                         + ', '.join(f"{t} {m[t]['wire/media']:.3f}" for t in TCP)))


if __name__ == '__main__':
    main(*sys.argv[1:3])
