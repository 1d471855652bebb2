import json, os, sys
from collections import defaultdict
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
def mci(xs):
    m, h = mean_ci95(xs, as_stats_ts=True)
    return (m, 0) if len(xs) < 2 else (m, h)
g=defaultdict(list)
for l in open(sys.argv[1]):
    r=json.loads(l); g[(r['bitrate_mbps'],r['duration_s'],r['delivery'],r['cc'])].append(r)
print('| bitrate Mbit/s | duration s | delivery | controller | seeds | buffering % (mean ± 95% CI) | per seed % | stalls per run | throughput Mbit/s | p95 RTT ms |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for k in sorted(g, key=lambda k:(-k[0],k[1],k[2]!='continuous',['allegro-latency','vivace','cubic','bbr'].index(k[3]))):
    rs=g[k]; b=[100*r['buffering_ratio'] for r in rs]; m,c=mci(b)
    th=mci([r['flow']['throughput_mbps'] for r in rs]); p=mci([r['flow']['p95_rtt_ms'] for r in rs])
    print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {len(rs)} | {m:.2f} ± {c:.2f} | {', '.join(f'{x:.2f}' for x in b)} | {sum(r['stall_count'] for r in rs)/len(rs):.1f} | {th[0]:.2f} ± {th[1]:.2f} | {p[0]:.0f} ± {p[1]:.0f} |")
