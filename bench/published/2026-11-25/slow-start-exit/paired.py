# usage: paired.py sim-verizon-seeds.txt: per variant and figure, the base and fix means over the seeds and the paired
# difference fix - base with its 95 % Student-t interval, and how many pairs are identical
import collections, math, sys
from statistics import mean, stdev
T95 = {2: 12.706, 3: 4.303, 4: 3.182, 5: 2.776, 6: 2.571, 7: 2.447, 8: 2.365, 9: 2.306, 10: 2.262}
runs = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    if line.startswith('#') or not line.strip(): continue
    seed, variant, arm, thr, p95 = line.split()
    runs[(variant, seed)][arm] = (float(thr), float(p95))
for variant in dict.fromkeys(v for v, _ in runs):
    for k, label in ((0, 'throughput Mbit/s'), (1, 'p95 RTT ms')):
        pairs = [(x['base'][k], x['fix'][k]) for (v, _), x in runs.items() if v == variant and 'base' in x and 'fix' in x]
        d = [f - b for b, f in pairs]; n = len(d)
        ci = T95[n] * stdev(d) / math.sqrt(n) if n in T95 else float('nan')
        print(f"{variant:15s} {label:18s} base {mean(b for b, _ in pairs):8.2f} fix {mean(f for _, f in pairs):8.2f} "
              f"paired fix-base {mean(d):+8.2f} +/- {ci:.2f} (n={n}, identical {sum(b == f for b, f in pairs)})")
