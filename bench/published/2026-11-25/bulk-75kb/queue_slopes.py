# Per MI of a recording: the controller's RTT slope beside the slope of the queue a 100 Mbit/s, 75 KB droptail
# link would build from the recorded send stamps, and the one-way delay's slope (receiver stamp - send stamp).
# Usage: queue_slopes.py RECORDING.replay PCC_REPLAY
import sys, json, subprocess, statistics as st
rec=sys.argv[1]; replay=sys.argv[2]
rate=100e6/8/1e6; cap=75000; extra=39+4
send={}; q=0.0; last=None; model={}
rtt={}; recv={}
for line in open(rec):
    p=line.split()
    if not p: continue
    if p[0]=='sent':
        pn=int(p[1]); b=int(p[2])+extra; t=float(p[3]); send[pn]=t
        if last is not None: q=max(0.0,q-(t-last)*rate)
        last=t
        if q+b>cap: model[pn]=None
        else: q+=b; model[pn]=q/rate
    elif p[0]=='ack':
        pn=int(p[1]); rtt[pn]=float(p[2]); recv[pn]=float(p[3])
def slope(xs,ys):
    if len(xs)<3: return 0.0
    mx=st.fmean(xs); my=st.fmean(ys)
    sxx=sum((x-mx)**2 for x in xs)
    return 0.0 if sxx==0 else sum((x-mx)*(y-my) for x,y in zip(xs,ys))/sxx
out=subprocess.run([replay,'--mi',rec],capture_output=True,text=True).stdout.splitlines()
rows=[]
for l in out:
    m=json.loads(l)
    if m['id']<100: continue  # past slow start
    pns=[pn for pn in range(m['firstPn'],m['lastPn']+1) if pn in rtt and pn in send]
    if len(pns)<5: continue
    xs=[send[pn] for pn in pns]
    g_rtt=slope(xs,[rtt[pn] for pn in pns])
    g_model=slope(xs,[model[pn] if model[pn] is not None else cap/rate for pn in pns])
    g_owd=slope(xs,[recv[pn]-send[pn] for pn in pns])
    rows.append((m['id'],m['targetRateBps']/1e6,m['sendRateBps']/1e6,m['rttGradient'],g_rtt,g_model,g_owd,m['utility'],m['packetsLost']))
def corr(a,b):
    ma,mb=st.fmean(a),st.fmean(b); sa=sum((x-ma)**2 for x in a)**.5; sb=sum((x-mb)**2 for x in b)**.5
    return sum((x-ma)*(y-mb) for x,y in zip(a,b))/(sa*sb)
ctl=[r[3] for r in rows]; raw=[r[4] for r in rows]; mod=[r[5] for r in rows]; owd=[r[6] for r in rows]
pen=[r for r in rows if r[3]>0]  # raw gradient above 0
print(f"MIs {len(rows)}; raw RTT gradient > 0 (before any filter) {len(pen)} = {100*len(pen)/len(rows):.0f}%")
print(f"corr raw RTT slope vs modeled-bottleneck slope {corr(raw,mod):.2f}; vs one-way-delay slope {corr(raw,owd):.2f}")
q=lambda v,p: sorted(v)[int(p*(len(v)-1))]
print("median |g|: raw %.4f model %.4f owd %.4f; p90 raw %.4f model %.4f owd %.4f"%(q([abs(x) for x in raw],.5),q([abs(x) for x in mod],.5),q([abs(x) for x in owd],.5),q([abs(x) for x in raw],.9),q([abs(x) for x in mod],.9),q([abs(x) for x in owd],.9)))
# of penalised MIs: how many had a modeled queue slope explaining at least half the controller's gradient
expl=sum(1 for r in pen if r[5]>=0.5*r[3])
print(f"of those, MIs whose modeled bottleneck queue rose at >= half the penalised gradient: {expl} of {len(pen)}")
print("raw gradient > 0: median target %.1f sent %.1f gradient %.4f utility %.0f"%(st.median([r[1] for r in pen]),st.median([r[2] for r in pen]),st.median([r[3] for r in pen]),st.median([r[7] for r in pen])))
print("all after MI 100: median target %.1f sent %.1f"%(st.median([r[1] for r in rows]),st.median([r[2] for r in rows])))
print("--- by utility")
real_pen=[r for r in rows if r[7] < 0.8*(r[2]**0.9)]
print(f"MIs whose utility < 0.8 x sent^0.9 (a latency or loss penalty bit): {len(real_pen)} = {100*len(real_pen)/len(rows):.0f}%; with losses {sum(1 for r in real_pen if r[8]>0)}")
lp=[r for r in real_pen if r[8]==0]
print(" of them lossless: %d; median gradient %.4f, modeled-queue slope %.4f, owd slope %.4f"%(len(lp),st.median([r[3] for r in lp]),st.median([r[5] for r in lp]),st.median([r[6] for r in lp])))
