#!/usr/bin/env python3
"""Per-run hop figures (hops.py) and their means with 95 % Student-t intervals. Usage: stats.py RUN_DIR..."""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hops
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)

mean_ci = mean_ci95  # pairs.py and ../datagram-send-buffer/analyse.py use it as stats.mean_ci

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
