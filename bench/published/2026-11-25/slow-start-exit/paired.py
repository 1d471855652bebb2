# usage: paired.py sim-verizon-seeds.txt: per variant and figure, the base and fix means over the seeds and the paired
# difference fix - base with its 95 % Student-t interval, and how many pairs are identical
import collections, os, sys
from statistics import mean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
runs = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    if line.startswith('#') or not line.strip(): continue
    seed, variant, arm, thr, p95 = line.split()
    runs[(variant, seed)][arm] = (float(thr), float(p95))
for variant in dict.fromkeys(v for v, _ in runs):
    for k, label in ((0, 'throughput Mbit/s'), (1, 'p95 RTT ms')):
        pairs = [(x['base'][k], x['fix'][k]) for (v, _), x in runs.items() if v == variant and 'base' in x and 'fix' in x]
        d = [f - b for b, f in pairs]; n = len(d); dm, ci = mean_ci95(d)
        print(f"{variant:15s} {label:18s} base {mean(b for b, _ in pairs):8.2f} fix {mean(f for _, f in pairs):8.2f} "
              f"paired fix-base {dm:+8.2f} +/- {ci:.2f} (n={n}, identical {sum(b == f for b, f in pairs)})")
