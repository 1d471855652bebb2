#!/usr/bin/env python3
"""Means ± 95% Student-t intervals per scheme from a bench results.jsonl: goodput, linkem throughput (IP bytes the
bottleneck delivered), p95 queueing, and paired differences against plain vivace. Usage: stats.py results.jsonl
(ci is shared: ../uspace-peer-after-fixes/stats.py imports it.)"""
import collections, json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
def ci(v):
    if len(v) < 2: return f"{v[0]:.1f}" if v else "-"
    return "{:.1f} ± {:.1f}".format(*mean_ci95(v))
def main():
    rows = [json.loads(l) for l in open(sys.argv[1])]
    by = collections.defaultdict(dict)
    for r in rows:
        f = r.get('fidelity') or {}
        by[r['scheme']][r['repetition']] = (r['goodput_mbps'], f.get('real_throughput_mbps'), r['queue_delay_p95_ms'])
    print('| scheme | runs | goodput Mbit/s | throughput (linkem IP bytes) Mbit/s | p95 queueing ms | per run (goodput / throughput) |')
    print('| --- | --- | --- | --- | --- | --- |')
    for s, reps in by.items():
        ks = sorted(reps)
        print(f"| {s} | {len(ks)} | {ci([reps[k][0] for k in ks])} | {ci([reps[k][1] for k in ks])} | {ci([reps[k][2] for k in ks])} | "
              + ', '.join(f"{reps[k][0]:.1f} / {reps[k][1]:.1f}" for k in ks) + ' |')
    print()
    print('Paired differences, scheme − vivace (same repetition, same hold):')
    print()
    for s, reps in by.items():
        if s == 'vivace': continue
        ks = [k for k in sorted(reps) if k in by['vivace']]
        d = [reps[k][1] - by['vivace'][k][1] for k in ks]
        print(f"- {s}: throughput {ci(d)} Mbit/s (pairs {', '.join(f'{x:+.1f}' for x in d)})")

if __name__ == '__main__':
    main()
