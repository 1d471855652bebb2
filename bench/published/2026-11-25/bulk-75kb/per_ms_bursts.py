# Per recording: bytes per millisecond by the origin's send stamps and by linkem's arrival log (link-down.log)
# beside each other; the first 3 s and the last 1 s left out. Usage: per_ms_bursts.py RECORDING.replay LINK_DOWN_LOG
import sys, collections
rec, link = sys.argv[1], sys.argv[2]
a=collections.Counter()
for line in open(rec):
    if line.startswith('sent '):
        _,pn,b,t=line.split(); a[int(float(t)//1000)]+=int(b)+39
l=collections.Counter(); dq=collections.Counter()
for line in open(link):
    if line[0]=='#': continue
    p=line.split()
    if p[1]=='+': l[int(p[0])]+=int(p[2])
def dist(c,name):
    ks=sorted(c); lo,hi=ks[0]+3000,ks[-1]-1000  # skip start-up
    v=[c.get(k,0) for k in range(lo,hi)]
    # windows of 5 ms
    w5=[sum(v[i:i+5]) for i in range(0,len(v)-5,5)]
    n=len(v); s=sorted(v); s5=sorted(w5)
    print(f"{name}: mean {8*sum(v)/n/1000:.1f} Mbit/s; per-ms bytes p50 {s[n//2]} p90 {s[9*n//10]} p99 {s[99*n//100]}; ms above 12.5 KB (>100 Mbit/s) {100*sum(x>12500 for x in v)/n:.1f}%; 5-ms windows above 62.5 KB {100*sum(x>62500 for x in w5)/len(w5):.2f}%, p99 5-ms {s5[99*len(s5)//100]} B; empty ms {100*sum(x==0 for x in v)/n:.1f}%")
dist(a,'sender stamps'); dist(l,'linkem arrivals')
