#!/usr/bin/env python3
"""Per timeline (lte-att/timeline.py's output): the link's delivered share of the trace capacity and the player's mean
bitrate (pl_br, one sample a second) over three spans of Verizon-LTE-short: before the dip (link-seconds 4-10), the
dip (11-16) and after it (17-27). Usage: python3 phases.py timeline-*.txt"""
import sys

SPANS = [('before 4-10', 4, 10), ('dip 11-16', 11, 16), ('after 17-27', 17, 27)]
print('| timeline | ' + ' | '.join(f'{name}: delivered/capacity, player bitrate Mbit/s' for name, _, _ in SPANS) + ' |')
print('| --- |' + ' --- |' * len(SPANS))
for path in sys.argv[1:]:
    rows = {}
    for line in open(path):
        f = line.split()
        if len(f) > 8 and f[0].isdigit():
            rows[int(f[0])] = f
    cells = []
    for _, first, last in SPANS:
        span = [rows[s] for s in range(first, last + 1) if s in rows]
        cap = sum(float(r[1]) for r in span)
        deliv = sum(float(r[3]) for r in span)
        brs = []
        for r in span:
            bar = r.index('|') if '|' in r else -1
            if bar >= 0 and len(r) > bar + 2 and r[bar + 1] != '|':
                try:
                    brs.append(float(r[bar + 2]))
                except ValueError:
                    pass
        br = f'{sum(brs) / len(brs):.2f}' if brs else '-'
        cells.append(f'{deliv / cap:.2f}, {br}')
    print(f'| {path} | ' + ' | '.join(cells) + ' |')
