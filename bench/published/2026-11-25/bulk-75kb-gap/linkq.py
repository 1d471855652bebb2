# linkem's own queueing delay (mm-link log departures: "T - BYTES DELAY_MS") in 30-ms windows (about one MI):
# regression slope of the queue delay on time (dimensionless, as the RTT gradient), beside the recording's MI RTT
# gradients. Usage: linkq.py LINK_DOWN_LOG MI_SUMMARY_JSON
import sys, json, statistics as st
dep=[]
for line in open(sys.argv[1]):
    if line[0]=='#': continue
    p=line.split()
    if len(p)>=4 and p[1]=='-': dep.append((int(p[0]), int(p[3])))
t0=dep[0][0]; dep=[d for d in dep if d[0]-t0>3000 and d[0]<dep[-1][0]-1000]
win={}
for t,q in dep: win.setdefault(t//30,[]).append((t,q))
sl=[]; spread=[]
for k,v in win.items():
    if len(v)<50: continue
    xs=[a for a,_ in v]; ys=[b for _,b in v]; mx=st.mean(xs); my=st.mean(ys)
    sxx=sum((x-mx)**2 for x in xs)
    if sxx==0: continue
    sl.append(sum((x-mx)*(y-my) for x,y in zip(xs,ys))/sxx); spread.append(max(ys)-min(ys))
a=sorted(abs(s) for s in sl)
qs=sorted(q for _,q in dep)
print(f"linkem queue delay (ms): p50 {qs[len(qs)//2]} p90 {qs[9*len(qs)//10]} p99 {qs[99*len(qs)//100]}; 30-ms windows {len(sl)}: |slope| p50 {a[len(a)//2]:.4f} p90 {a[9*len(a)//10]:.4f}; windows with slope > 0.01: {100*sum(s>0.01 for s in sl)/len(sl):.0f}%; spread p50 {st.median(spread)} ms")
m=[x for x in json.load(open(sys.argv[2]))['mis'] if x['packets']>=10]; m=m[len(m)//10:]
g=sorted(abs(x['rtt_gradient']) for x in m)
print(f"recording MIs {len(m)}: |RTT gradient| p50 {g[len(g)//2]:.4f} p90 {g[9*len(g)//10]:.4f}; MIs with gradient > 0.01: {100*sum(x['rtt_gradient']>0.01 for x in m)/len(m):.0f}%; RTT spread p50 {st.median(x['rtt_spread_ms'] for x in m):.1f} ms")
