# Per MI of a recording: lag-1 serial correlation of the RTT regression's residuals (samples in arrival order), and
# how many MIs the utility's 2-standard-error test would still penalise with the slope's variance inflated by
# (1 + rho) / (1 - rho). Usage: serial_correlation.py RECORDING.replay PCC_REPLAY
import sys, json, subprocess, math
rec=sys.argv[1]; replay=sys.argv[2]
send={}; acks=[]  # in arrival order
for line in open(rec):
    p=line.split()
    if not p: continue
    if p[0]=='sent': send[int(p[1])]=float(p[3])
    elif p[0]=='ack': acks.append((int(p[1]),float(p[2])))
mis=[json.loads(l) for l in subprocess.run([replay,'--mi',rec],capture_output=True,text=True).stdout.splitlines()]
# map pn -> mi index
rng=[(m['firstPn'],m['lastPn'],i) for i,m in enumerate(mis)]
import bisect
starts=[r[0] for r in rng]
per=[[] for _ in mis]
for pn,rtt in acks:
    j=bisect.bisect_right(starts,pn)-1
    if j>=0 and pn<=rng[j][1] and pn in send: per[j].append((send[pn],rtt))
tot=pen_old=pen_new=0; sim=[]
for m,s in zip(mis,per):
    if m['id']<100 or len(s)<5: continue
    n=len(s); xs=[a for a,b in s]; ys=[b for a,b in s]
    mx=sum(xs)/n; my=sum(ys)/n
    sxx=sum((x-mx)**2 for x in xs); 
    if sxx==0: continue
    b=sum((x-mx)*(y-my) for x,y in zip(xs,ys))/sxx
    e=[(y-my)-b*(x-mx) for x,y in zip(xs,ys)]
    see=sum(v*v for v in e)
    distinct=len(set(ys))
    deff=n/distinct
    se_old=math.sqrt(see/(n-2)/sxx*deff)
    rho=sum(e[i]*e[i-1] for i in range(1,n))/see if see>0 else 0
    rho=min(max(rho,0.0),0.95)
    infl=max(deff,(1+rho)/(1-rho))
    se_new=math.sqrt(see/(n-2)/sxx*infl)
    tot+=1
    old= b>=0.01 and abs(b)>2*se_old
    new= b>=0.01 and abs(b)>2*se_new
    pen_old+=old; pen_new+=new
    sim.append(rho)
sim.sort()
print(f"MIs {tot}: penalised (g>=0.01, beyond 2 SE) now {pen_old} ({100*pen_old/tot:.0f}%), with AR(1) inflation {pen_new} ({100*pen_new/tot:.0f}%); residual lag-1 rho p10 {sim[len(sim)//10]:.2f} p50 {sim[len(sim)//2]:.2f} p90 {sim[9*len(sim)//10]:.2f}")
