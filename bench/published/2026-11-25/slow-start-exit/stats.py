# usage: stats.py results.jsonl "LABEL=PYTHON_CONDITION_ON_r"...: one markdown table row per selection of runs (judged by
# ../blackout-recovery-4/judge.py, annotated by annotate.py): runs, load range, misses, rate_recovery_s mean with its
# 95 % Student-t interval, median, max, recordings replaying through the fix, recordings the base decides the same
import json, sys, math
from statistics import mean, stdev, median
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056}
rows = [json.loads(l) for l in open(sys.argv[1])]
def show(label, sel):
    rr = [r['rate_recovery_s'] for r in sel if r['rate_recovery_s'] is not None]
    miss = sum(1 for r in sel if not r['test_passes'])
    loads = [x for r in sel for x in (r.get('load_start'), r.get('load_done')) if x is not None]
    n = len(rr); ci = T95[n - 1] * stdev(rr) / math.sqrt(n) if n > 1 else float('nan')
    same = sum(1 for r in sel if r.get('base_decides_same')); thru = sum(1 for r in sel if r.get('replays_through_fix'))
    print(f"| {label} | {len(sel)} | {min(loads):.1f}-{max(loads):.1f} | {miss} | {mean(rr):.2f} ± {ci:.2f} (n = {n}) | {median(rr):.2f} | {max(rr):.2f} | {thru} | {same} |")
for spec in sys.argv[2:]:
    label, cond = spec.split('=', 1)
    show(label, [r for r in rows if eval(cond)])
