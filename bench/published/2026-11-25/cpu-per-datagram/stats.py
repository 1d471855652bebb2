# Tables of summary.md from results.jsonl: means with 95% intervals (Student t) per set, paired differences.
# usage: python3 stats.py results.jsonl
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
rows=[json.loads(l) for l in open(sys.argv[1])]
def fmt(xs,p=1):
    m,h=mean_ci95(xs); return f"{m:.{p}f} ± {h:.{p}f}"
fid={}
for r in rows:
    if r.get('kind'): continue
    fid.setdefault(r['label'],[]).append(r)
print('| set | runs | load 1-min before→after | goodput Mbit/s | throughput Mbit/s | CPU origin % | client % | linkem % | origin µs/datagram | client µs/datagram | waiting origin / client % | p95 queueing ms |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for label, rs in fid.items():
    g=lambda f:[f(r) for r in rs]
    loads=', '.join(f"{r['load_before']:.1f}→{r['load_after']:.1f}" for r in rs)
    print(f"| {label} | {len(rs)} | {loads} | {fmt(g(lambda r:r['goodput_mbps']))} | {fmt(g(lambda r:r['throughput_mbps']))} | {fmt(g(lambda r:r['cpu_percent']['origin']))} | {fmt(g(lambda r:r['cpu_percent']['client']))} | {fmt(g(lambda r:r['cpu_percent']['linkem']))} | {fmt(g(lambda r:r['origin_us_per_datagram']))} | {fmt(g(lambda r:r['client_us_per_datagram']))} | {fmt(g(lambda r:r['cpu_wait_percent']['origin']),0)} / {fmt(g(lambda r:r['cpu_wait_percent']['client']),0)} | {fmt(g(lambda r:r['queue_p95_ms']))} |")
# paired differences
if 'pbefore' in fid and 'pafter' in fid:
    b={r['rep']:r for r in fid['pbefore']}; a={r['rep']:r for r in fid['pafter']}
    reps=sorted(set(a)&set(b))
    print()
    print(f'Paired (after − before, same hold, {len(reps)} pairs):')
    for name,f in [('goodput Mbit/s',lambda r:r['goodput_mbps']),('origin CPU %',lambda r:r['cpu_percent']['origin']),('client CPU %',lambda r:r['cpu_percent']['client']),('origin µs/datagram',lambda r:r['origin_us_per_datagram']),('client µs/datagram',lambda r:r['client_us_per_datagram']),('origin waiting for a core %',lambda r:r['cpu_wait_percent']['origin'])]:
        d=[f(a[k])-f(b[k]) for k in reps]
        print(f'- {name}: {fmt(d)} (per pair: ' + ', '.join(f'{x:+.1f}' for x in d) + ')')
ob={}
for r in rows:
    if r.get('kind')!='origin-bench': continue
    ob.setdefault(r['label'],[]).append(r)
print()
print('| set | runs | load 1-min before→after | fixed Mbit/s | fixed origin CPU s/GB | vivace Mbit/s | vivace origin CPU s/GB |')
print('| --- | --- | --- | --- | --- | --- | --- |')
for label, rs in ob.items():
    def gv(cc,k): return [next(x for x in r['goodput'] if x['cc']==cc)[k] for r in rs]
    loads=', '.join(f"{r['load_before']:.1f}→{r['load_after']:.1f}" for r in rs)
    print(f"| {label} | {len(rs)} | {loads} | {fmt(gv('fixed','goodput_mbps'))} | {fmt(gv('fixed','origin_cpu_s_per_gb'),2)} | {fmt(gv('vivace','goodput_mbps'))} | {fmt(gv('vivace','origin_cpu_s_per_gb'),2)} |")
