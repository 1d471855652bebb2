# Receiver stamps (one per ACK, the largest packet's) closer together than the 100 Mbit/s link could deliver the
# bytes between them: the Node client stamped them late. Usage: receiver_stamps.py RECORDING.replay
import sys
rec=sys.argv[1]
acks=[]; send={}
for line in open(rec):
    p=line.split()
    if not p: continue
    if p[0]=='sent': send[int(p[1])]=(float(p[3]),int(p[2]))
    elif p[0]=='ack': acks.append((int(p[1]),int(p[3]),float(p[4]), int(p[2])))
# one recv stamp per ACK: keep the distinct (largest pn, recv) pairs in order
seen=[]; last=None
for pn,recv,now,rtt in acks:
    if last is None or recv!=last[1]: seen.append((pn,recv,now,rtt)); last=(pn,recv)
ratios=[]; sendr=[]
for a,b in zip(seen,seen[1:]):
    if b[0]<=a[0]: continue
    byts=sum(send[p][1]+39+4 for p in range(a[0]+1,b[0]+1) if p in send)
    tmin=byts/12.5
    ratios.append((b[1]-a[1])/tmin)
    sendr.append((send[b[0]][0]-send[a[0]][0])/tmin if b[0] in send and a[0] in send else 1)
n=len(ratios); s=sorted(ratios); ss=sorted(sendr)
print(f"ACK pairs {n}: receiver-stamp gap / the link's minimum for the bytes between: p5 {s[n//20]:.2f} p25 {s[n//4]:.2f} p50 {s[n//2]:.2f}; share < 0.5 (stamped faster than the link can deliver: late stamps) {100*sum(r<0.5 for r in ratios)/n:.1f}%; send-stamp gap / link minimum p5 {ss[n//20]:.2f} p50 {ss[n//2]:.2f}")
