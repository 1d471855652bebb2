#!/usr/bin/env python3
"""Means ± 95% Student-t per condition and paired differences against plain vivace (same repetition, back to back)
from collect.py's results.jsonl. Usage: stats2x2.py results.jsonl"""
import collections, json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
def ci(v, f='.1f'):
    if len(v) < 2: return format(v[0], f) if v else '-'
    m, h = mean_ci95(v)
    return f"{format(m, f)} ± {format(h, f)}"
rows = [json.loads(l) for l in open(sys.argv[1])]
by = collections.defaultdict(dict)
for r in rows: by[r['condition']][r['repetition']] = r
keys = [('throughput_mbps', 'throughput (linkem IP bytes) Mbit/s'), ('goodput_mbps', 'goodput Mbit/s'),
        ('queue_delay_p95_ms', 'p95 queueing ms'), ('mi_target_mbps', 'MI target Mbit/s'), ('mi_sent_mbps', 'MI sent Mbit/s'),
        ('lossy_mi_pct', 'MIs with a loss %'), ('lossless_penalised_mi_pct', 'lossless MIs with an RTT penalty %')]
print('| condition | runs | ' + ' | '.join(k[1] for k in keys) + ' | per run throughput |')
print('|' + ' --- |' * (len(keys) + 3))
for c, reps in by.items():
    ks = sorted(reps)
    print(f"| {c} | {len(ks)} | " + ' | '.join(ci([reps[k][key] for k in ks if reps[k].get(key) is not None]) for key, _ in keys)
          + ' | ' + ', '.join(f"{reps[k]['throughput_mbps']:.1f}" for k in ks) + ' |')
print()
print('Paired throughput differences, condition − plain vivace (same repetition):')
print()
base = by.get('vivace', {})
for c, reps in by.items():
    if c == 'vivace': continue
    ks = [k for k in sorted(reps) if k in base]
    d = [reps[k]['throughput_mbps'] - base[k]['throughput_mbps'] for k in ks]
    print(f"- {c}: {ci(d)} Mbit/s (pairs {', '.join(f'{x:+.1f}' for x in d)})")
if all(c in by for c in ('vivace-loss moving=0', 'vivace moving=1', 'vivace-loss')):
  print()
  print('Factorial effects (2 × 2, each pair within one repetition; 6 pairs each):')
  print()
  def get(c, k): return by[c][k]['throughput_mbps']
  ks = sorted(base)
  lat = [get('vivace-loss moving=0', k) - get('vivace', k) for k in ks] + [get('vivace-loss', k) - get('vivace moving=1', k) for k in ks]
  mov = [get('vivace moving=1', k) - get('vivace', k) for k in ks] + [get('vivace-loss', k) - get('vivace-loss moving=0', k) for k in ks]
  print(f"- latency term off (b = 0), at moving = 0 and at moving = 1: {ci(lat)} Mbit/s (pairs {', '.join(f'{x:+.1f}' for x in lat)})")
  print(f"- moving on, with b = 900 and with b = 0: {ci(mov)} Mbit/s (pairs {', '.join(f'{x:+.1f}' for x in mov)})")
