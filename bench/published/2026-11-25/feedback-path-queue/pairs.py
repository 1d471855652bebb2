#!/usr/bin/env python3
"""Hold 4's pairs: per repetition, normal priority vs `nice -n -10`, hop figures (hops.py), linkem's throughput and
queue, and the origin's / client's threads' CPU and runnable wait per second (sched.py); paired differences
(nice - normal) with 95 % Student-t intervals. Usage: pairs.py OUT_DIR (hold4.sh's) [REPETITIONS]"""
import json, os, statistics, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hops, sched, stats

def figures(run, series):
    h = hops.hops(run); s = hops.summary(h)
    link = json.load(open(os.path.join(run, 'link-summary.json')))['down']
    base = (sched.init_epoch_ms(run) + h['t0_log_ms']) / 1e3
    u = sched.usage(series, base, base + 20)
    f = {'ip_mbps': link['departedBytes'] * 8 / link['activeMs'] / 1e3, 'linkem_p95_queue_ms': link['queueDelayMs']['p95']}
    for hop in ('pre_ms', 'rcv_ms', 'ret_ms', 'hold_ms', 'acko_ms'):
        for q in ('p95', 'p99', 'max'): f[f'{hop} {q}'] = s[hop][q]
    f['largest ACK frame'] = s['largest_frame_packets']
    for k in ('origin/pcc-quic', 'origin/node', 'client/node', 'client/pcc-quic'):
        f[f'{k} wait ms/s'] = u[k][1] / 20; f[f'{k} cpu ms/s'] = u[k][0] / 20
    return f

def main(out, reps):
    series = sched.load(os.path.join(out, 'sched.txt'))
    arms = {arm: [figures(os.path.join(out, arm, 'runs/bulk-100mbps-30ms-1mb/vivace', str(r)), series) for r in reps] for arm in ('normal', 'nice')}
    print(f'| figure | normal (reps {",".join(map(str, reps))}) | nice -n -10 | nice − normal, mean ± 95 % t |')
    print('| --- | --- | --- | --- |')
    for k in arms['normal'][0]:
        a = [f[k] for f in arms['normal']]; b = [f[k] for f in arms['nice']]
        d = [y - x for x, y in zip(a, b)]; m, ci = stats.mean_ci(d)
        print(f'| {k} | ' + ', '.join(f'{x:.1f}' for x in a) + ' | ' + ', '.join(f'{x:.1f}' for x in b) + f' | {m:+.1f} ± {ci:.1f} |')

if __name__ == '__main__':
    main(sys.argv[1], [int(x) for x in (sys.argv[2].split(',') if len(sys.argv) > 2 else ['1', '2', '3'])])
