#!/usr/bin/env python3
"""Per-run hop figures (hops.py) and their means with 95 % Student-t intervals. Usage: stats.py RUN_DIR..."""
import json, os, statistics, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hops

# Two-sided 95 % Student-t quantiles by sample size n (df = n - 1); above n = 31 the df-30 value, slightly wide.
T95 = {2: 12.706, 3: 4.303, 4: 3.182, 5: 2.776, 6: 2.571, 7: 2.447, 8: 2.365, 9: 2.306, 10: 2.262, 11: 2.228,
       12: 2.201, 13: 2.179, 14: 2.160, 15: 2.145, 16: 2.131, 17: 2.120, 18: 2.110, 19: 2.101, 20: 2.093, 21: 2.086,
       22: 2.080, 23: 2.074, 24: 2.069, 25: 2.064, 26: 2.060, 27: 2.056, 28: 2.052, 29: 2.048, 30: 2.045, 31: 2.042}

def mean_ci(v):
    m = statistics.mean(v)
    return m, (T95.get(len(v), T95[31]) * statistics.stdev(v) / len(v) ** 0.5 if len(v) > 1 else float('nan'))

def main(runs):
    rows = []
    for run in runs:
        s = hops.summary(hops.hops(run))
        link = json.load(open(os.path.join(run, 'link-summary.json')))['down']
        s['ip_mbps'] = round(link['departedBytes'] * 8 / link['activeMs'] / 1e3, 1)
        s['linkem_p95_queue_ms'] = link['queueDelayMs']['p95']
        rows.append(s); print(json.dumps(s))
    print()
    print('| figure | ' + ' | '.join(f'run {i + 1}' for i in range(len(rows))) + ' | mean ± 95 % t |')
    print('| --- |' + ' --- |' * (len(rows) + 1))
    def line(name, get):
        v = [get(r) for r in rows]
        if any(x is None for x in v): return
        m, ci = mean_ci(v)
        print(f'| {name} | ' + ' | '.join(f'{x:g}' for x in v) + f' | {m:.1f} ± {ci:.1f} |')
    line('IP throughput Mbit/s (linkem out)', lambda r: r['ip_mbps'])
    line('linkem queue p95 ms', lambda r: r['linkem_p95_queue_ms'])
    for hop in ('pre_ms', 'rcv_ms', 'ret_ms', 'hold_ms', 'acko_ms'):
        for q in ('p95', 'p99', 'max'):
            line(f'{hop} {q}', lambda r, hop=hop, q=q: r.get(hop, {}).get(q))
    line('largest ACK frame (packets)', lambda r: r['largest_frame_packets'])
    line('ACK frames over 100 packets', lambda r: r['frames_over_100_packets'])

if __name__ == '__main__':
    main(sys.argv[1:])
