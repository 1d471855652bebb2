#!/usr/bin/env python3
"""Per run: what the transport delivered to dash.js after the fade, from its abr-segments-player-1.jsonl. For video
segments requested in session seconds [FROM, TO) (default 12-24: Verizon-LTE-short's return, about 4.5 s behind the
link clock): the count, the median raw download rate (bytes / download time, kbit/s), the median CMSD etp, the median
rendition, and the median estimate. Usage: python3 post_fade.py [--from S --to S] NAME=RUNDIR..."""
import json
import os
import statistics
import sys

args = sys.argv[1:]
lo, hi = 12.0, 24.0
while args and args[0] in ('--from', '--to'):
    if args[0] == '--from':
        lo = float(args[1])
    else:
        hi = float(args[1])
    args = args[2:]


def med(xs):
    xs = [x for x in xs if x is not None]
    return f'{statistics.median(xs):.0f}' if xs else '–'


print(f'| run | segments requested {lo:g}–{hi:g} s | raw kbit/s (median) | etp kbit/s | rendition kbit/s | estimate kbit/s |')
print('| --- | --- | --- | --- | --- | --- |')
for spec in args:
    name, run = spec.split('=', 1)
    segs = [r for r in (json.loads(line) for line in open(os.path.join(run, 'abr-segments-player-1.jsonl')))
            if r['kind'] == 'segment' and r['dashRequestMs'] is not None and lo <= r['dashRequestMs'] / 1000 < hi]
    print(f"| {name} | {len(segs)} | {med([r['sampleRawKbps'] for r in segs])} | {med([r['etpKbps'] for r in segs])} | "
          f"{med([r['renditionKbps'] for r in segs])} | {med([r['estimateKbps'] for r in segs])} |")
