# usage: stats.py results.jsonl "LABEL=PYTHON_CONDITION_ON_r"...: one markdown table row per selection of runs (judged by
# ../blackout-recovery-4/judge.py, annotated by annotate.py): runs, load range, misses, rate_recovery_s mean with its
# 95 % Student-t interval, median, max, recordings replaying through the fix, recordings the base decides the same
import json, os, sys
from statistics import median
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
rows = [json.loads(l) for l in open(sys.argv[1])]
def show(label, sel):
    rr = [r['rate_recovery_s'] for r in sel if r['rate_recovery_s'] is not None]
    miss = sum(1 for r in sel if not r['test_passes'])
    loads = [x for r in sel for x in (r.get('load_start'), r.get('load_done')) if x is not None]
    n = len(rr); m, ci = mean_ci95(rr)
    same = sum(1 for r in sel if r.get('base_decides_same')); thru = sum(1 for r in sel if r.get('replays_through_fix'))
    print(f"| {label} | {len(sel)} | {min(loads):.1f}-{max(loads):.1f} | {miss} | {m:.2f} ± {ci:.2f} (n = {n}) | {median(rr):.2f} | {max(rr):.2f} | {thru} | {same} |")
for spec in sys.argv[2:]:
    label, cond = spec.split('=', 1)
    show(label, [r for r in rows if eval(cond)])
