import json, math, sys
T = {2: 4.303, 1: 12.706}
def ci(xs):
    xs = [x for x in xs if x is not None]
    n = len(xs); m = sum(xs) / n
    if n < 2: return f"{m:.2f}"
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return f"{m:.2f} ± {T.get(n-1, 2.0) * sd / math.sqrt(n):.2f}"
for f in sys.argv[1:]:
    rows = [json.loads(l) for l in open(f)]
    for sc in ('fidelity-loss-0pct', 'fidelity-buffer-1mb'):
        rs = [r for r in rows if r['run_id'].startswith(sc)]
        if not rs: continue
        t90 = [r['t90_s'] for r in rs]
        within2 = sum(1 for x in t90 if x is not None and x <= 2.0)
        print(f"| {f.split('.')[0]} | {sc} | {len(rs)} | {', '.join(str(x) for x in t90)} | {within2} of {len(rs)} | {ci([r['first2s_mbps'] for r in rs])} | {ci([r['target_first2s_mbps'] for r in rs])} | {', '.join(str(r['slow_start_last_mbps']) for r in rs)} | {ci([r['throughput_mbps'] for r in rs])} | {ci([r['goodput_mbps'] for r in rs])} | {ci([r['queue_p95_ms'] for r in rs])} |")
