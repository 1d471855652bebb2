#!/usr/bin/env python3
"""Per run of a bench out folder, from each run's series.json (the first player's per-second samples): mean and max
buffer level, the share of samples after 4 s with an empty buffer, and mean goodput and sending rate over those
samples (sending: datagram schemes only), for TCP and PCC runs alike (video-bitrates/stall-seconds.py prints only PCC runs that stalled).
Usage: python3 series-compare.py OUTDIR... (bench out folders, each with results.jsonl and runs/)"""
import json
import os
import sys

print('| run | buffering % | stalls | mean buffer s | max buffer s | empty-buffer samples after 4 s | goodput Mbit/s | sending Mbit/s |')
print('| --- | --- | --- | --- | --- | --- | --- | --- |')
for out in sys.argv[1:]:
    for line in open(os.path.join(out, 'results.jsonl')):
        r = json.loads(line)
        if r.get('status') != 'ok':
            continue
        series = json.load(open(os.path.join(out, r['artifacts']['series'])))
        late = [s for s in series if s['t_s'] >= 4]
        if not late:
            continue
        def mean(f):
            xs = [s[f] for s in late if isinstance(s.get(f), (int, float))]
            return f'{sum(xs) / len(xs):.2f}' if xs else 'n/a'
        empty = sum(1 for s in late if s['buffer_s'] == 0)
        print(f"| {r['run_id']} | {100 * r['buffering_ratio']:.2f} | {r['stall_count']} | {mean('buffer_s')} | "
              f"{max(s['buffer_s'] for s in series):.2f} | {empty} of {len(late)} | {mean('goodput_mbps')} | "
              f"{mean('sending_rate_mbps')} |")
