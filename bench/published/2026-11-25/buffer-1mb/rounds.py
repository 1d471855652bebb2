"""Probe rounds of one replayed session (pcc-replay --mi JSON lines): how many had a pair whose higher probe the sender
sent slower than its lower one and than (1 - eps) x its rate, and the base-rate step the next round took after them.

usage: python3 bench/published/2026-11-25/buffer-1mb/rounds.py MI_JSONL
"""
import json,sys
mis=[json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
EPS=0.05
t0=mis[0]['startUs']
def ispair(a,b):
    hi,lo=(a,b) if a['targetRateBps']>b['targetRateBps'] else (b,a)
    return abs(hi['targetRateBps']/lo['targetRateBps']-(1+EPS)/(1-EPS))<1e-6
def cut(a,b):
    hi,lo=(a,b) if a['targetRateBps']>b['targetRateBps'] else (b,a)
    return hi['sendRateBps']<lo['sendRateBps'] and hi['sendRateBps']<(1-EPS)*lo['targetRateBps']
rounds=[]; i=0
while i+3<len(mis):
    a,b,c,d=mis[i:i+4]
    if ispair(a,b) and ispair(c,d) and abs(a['targetRateBps']+b['targetRateBps']-c['targetRateBps']-d['targetRateBps'])<1: rounds.append(i); i+=4
    else: i+=1
base=lambda i:(mis[i]['targetRateBps']+mis[i+1]['targetRateBps'])/2e6
n=len(rounds); ncut=0; up=[];dn=[]; allsteps=[]
for k in range(n-1):
    i=rounds[k]; j=rounds[k+1]
    step=base(j)/base(i)-1
    allsteps.append(step)
    if cut(mis[i],mis[i+1]) or cut(mis[i+2],mis[i+3]):
        ncut+=1; (up if step>0.001 else dn if step<-0.001 else []).append(step)
print(f"{sys.argv[1]}: {n} rounds, {ncut} with a cut pair ({100*ncut/max(n,1):.0f}%); after them {len(up)} increases (mean {100*sum(up)/max(len(up),1):.1f}%), {len(dn)} decreases; biggest step after a cut round +{100*max(up+[0]):.0f}%")
