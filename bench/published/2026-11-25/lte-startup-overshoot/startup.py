#!/usr/bin/env python3
"""Per run, from the origin's telemetry (one row per controller event, telemetry clock): the first slow start's peak
pacing rate, when it ended and the base rate probing began from, the highest MI delivery acknowledged in it, and the
longest sRTT over the first 4 s (min RTT ~42 ms). Usage: python3 startup.py LABEL=RUN_DIR..."""
import glob
import json
import sys

print('| run | slow-start peak Mbit/s | ended at s | probing from Mbit/s | highest MI delivery in it Mbit/s | max sRTT 0-4 s ms |')
print('| --- | --- | --- | --- | --- | --- |')
for arg in sys.argv[1:]:
    label, run = arg.split('=', 1)
    (path,) = glob.glob(f'{run}/telemetry/*.jsonl')
    peak = delivered = 0.0
    end = None
    srtt = 0.0
    for line in open(path):
        d = json.loads(line)
        if d['t_ms'] > 4000:
            break
        srtt = max(srtt, d['srtt_us'] / 1000)
        if end is None and d['state'] == 'slow_start':
            peak = max(peak, d['rate_bps'] / 1e6)
            delivered = max(delivered, d['throughput_bps'] / 1e6)
        elif end is None:
            end = (d['t_ms'] / 1000, d['rate_bps'] / 1e6)
    ended = f'{end[0]:.2f} | {end[1]:.2f}' if end else '- | -'
    print(f'| {label} | {peak:.2f} | {ended} | {delivered:.2f} | {srtt:.0f} |')
