# usage: owd.py RECORDING MI_IDS(comma-separated) [PCC_REPLAY]: per MI, the least-squares slopes over send time of the RTT,
# the one-way delay (receiver time - send time) and the way back (ack time - receiver time), then per packet.
import sys, json, subprocess
f, ids = sys.argv[1], [int(x) for x in sys.argv[2].split(',')]
R = sys.argv[3] if len(sys.argv) > 3 else 'controller-wasm/build/pcc-replay'
mis = {m['id']: m for m in map(json.loads, subprocess.run([R, '--mi', f], capture_output=True, text=True).stdout.splitlines())}
sent, ack = {}, {}
for l in open(f):
    t = l.split()
    if not t: continue
    if t[0] == 'sent': sent[int(t[1])] = int(t[3])
    elif t[0] == 'ack': ack[int(t[1])] = (int(t[2]), int(t[3]), int(t[4]))
def slope(xs, ys):
    n = len(xs); mx = sum(xs)/n; my = sum(ys)/n
    sxx = sum((x-mx)**2 for x in xs)
    return sum((x-mx)*(y-my) for x, y in zip(xs, ys))/sxx if sxx else float('nan')
for i in ids:
    m = mis[i]
    rows = [(sent[p], *ack[p]) for p in range(m['firstPn'], m['lastPn']+1) if p in ack and p in sent]
    s0 = rows[0][0]; o0 = rows[0][2]-rows[0][0]
    print(f"MI {i} target {m['targetRateBps']/1e6:.2f} n={len(rows)} rtt_g={m['rttGradient']:.3f} dlv={m['throughputBps']/m['sendRateBps']:.3f}")
    xs = [r[0] for r in rows]
    print(f"  slope rtt {slope(xs,[r[1] for r in rows]):.3f}  owd {slope(xs,[r[2]-r[0] for r in rows]):.3f}  ack-return(now-recv) {slope(xs,[r[3]-r[2] for r in rows]):.3f}")
    for s, rtt, recv, now in rows:
        print(f"   sent+{(s-s0)/1e3:6.1f}ms rtt {rtt/1e3:5.1f} owd {(recv-s-o0)/1e3:+6.1f} back {(now-recv-(rows[0][3]-rows[0][2]))/1e3:+6.1f} recv+{(recv-rows[0][2])/1e3:6.1f}")
