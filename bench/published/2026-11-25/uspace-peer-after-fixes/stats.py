#!/usr/bin/env python3
"""Per scenario and scheme, means ± 95% Student-t intervals from a bench results.jsonl: goodput, IP throughput (bytes
linkem's downlink delivered, fidelity.real_throughput_mbps), p95 queueing and wire bytes per byte delivered; then the
paired differences (same scenario and repetition, one hold) of each scheme against REF (default pcc-uspace).
Usage: stats.py results.jsonl [REF]"""
import sys, json, os, collections, statistics as st
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bulk-75kb'))
from stats import ci  # noqa: E402  (mean ± 95% t interval, one place)

ref = sys.argv[2] if len(sys.argv) > 2 else 'pcc-uspace'
rows = [json.loads(l) for l in open(sys.argv[1])]
runs = collections.defaultdict(lambda: collections.defaultdict(dict))
for r in rows:
    if r['status'] != 'ok': continue
    f = r.get('fidelity') or {}
    runs[r['scenario']][r['scheme']][r['repetition']] = {
        'goodput': r['goodput_mbps'], 'ip': f.get('real_throughput_mbps'), 'p95': r['queue_delay_p95_ms'],
        'wire': r['wire_bytes_per_media_byte'], 'commit': r['provenance']['commit'][:7]}
for scen, schemes in runs.items():
    print(f'### {scen}\n')
    print('| scheme | runs | goodput Mbit/s | IP throughput (linkem) Mbit/s | p95 queueing ms | wire B per B | per run: goodput / IP / p95 |')
    print('| --- | --- | --- | --- | --- | --- | --- |')
    for s, reps in schemes.items():
        ks = sorted(reps)
        col = lambda m: [reps[k][m] for k in ks]
        wire = col('wire')
        print(f"| {s} | {len(ks)} | {ci(col('goodput'))} | {ci(col('ip'))} | {ci(col('p95'))} | {st.mean(wire):.3f} | "
              + ', '.join(f"{reps[k]['goodput']:.1f} / {reps[k]['ip']:.1f} / {reps[k]['p95']:.1f}" for k in ks) + ' |')
    print(f'\nPaired, scheme − {ref} (same repetition):\n')
    for s, reps in schemes.items():
        if s == ref or ref not in schemes: continue
        ks = [k for k in sorted(reps) if k in schemes[ref]]
        d = {m: [reps[k][m] - schemes[ref][k][m] for k in ks] for m in ('goodput', 'ip', 'p95')}
        print(f"- {s}: goodput {ci(d['goodput'])} Mbit/s, IP {ci(d['ip'])} Mbit/s (pairs "
              + ', '.join(f'{x:+.1f}' for x in d['ip']) + f"), p95 queueing {ci(d['p95'])} ms")
    print(f"\nCommits: {', '.join(sorted({v['commit'] for reps in schemes.values() for v in reps.values()}))}\n")
