import json, math, sys
from collections import defaultdict
T={2:4.303,3:3.182,4:2.776,5:2.571,6:2.447}
def mci(xs):
    n=len(xs); m=sum(xs)/n
    if n<2: return m,0
    sd=math.sqrt(sum((x-m)**2 for x in xs)/(n-1)); return m,T.get(n-1,1.96)*sd/math.sqrt(n)
g=defaultdict(list)
for l in open(sys.argv[1]):
    r=json.loads(l); g[(r['bitrate_mbps'],r['duration_s'],r['delivery'],r['cc'])].append(r)
print('| bitrate Mbit/s | duration s | delivery | controller | seeds | buffering % (mean ± 95% CI) | per seed % | stalls per run | throughput Mbit/s | p95 RTT ms |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for k in sorted(g, key=lambda k:(-k[0],k[1],k[2]!='continuous',['allegro-latency','vivace','cubic','bbr'].index(k[3]))):
    rs=g[k]; b=[100*r['buffering_ratio'] for r in rs]; m,c=mci(b)
    th=mci([r['flow']['throughput_mbps'] for r in rs]); p=mci([r['flow']['p95_rtt_ms'] for r in rs])
    print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {len(rs)} | {m:.2f} ± {c:.2f} | {', '.join(f'{x:.2f}' for x in b)} | {sum(r['stall_count'] for r in rs)/len(rs):.1f} | {th[0]:.2f} ± {th[1]:.2f} | {p[0]:.0f} ± {p[1]:.0f} |")
