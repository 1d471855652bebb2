import json, math, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
def ci(xs):
    m, h = mean_ci95([x for x in xs if x is not None], as_stats_ts=True)
    return f"{m:.2f}" if math.isnan(h) else f"{m:.2f} ± {h:.2f}"
for f in sys.argv[1:]:
    rows = [json.loads(l) for l in open(f)]
    for sc in ('fidelity-loss-0pct', 'fidelity-buffer-1mb'):
        rs = [r for r in rows if r['run_id'].startswith(sc)]
        if not rs: continue
        t90 = [r['t90_s'] for r in rs]
        within2 = sum(1 for x in t90 if x is not None and x <= 2.0)
        print(f"| {f.split('.')[0]} | {sc} | {len(rs)} | {', '.join(str(x) for x in t90)} | {within2} of {len(rs)} | {ci([r['first2s_mbps'] for r in rs])} | {ci([r['target_first2s_mbps'] for r in rs])} | {', '.join(str(r['slow_start_last_mbps']) for r in rs)} | {ci([r['throughput_mbps'] for r in rs])} | {ci([r['goodput_mbps'] for r in rs])} | {ci([r['queue_p95_ms'] for r in rs])} |")
