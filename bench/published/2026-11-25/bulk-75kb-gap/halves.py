# Per lossless MI of a recording: the send stamps' rate in the MI's second half over its first half (a stall followed
# by a catch-up inside one MI reads > 1 while the MI's average rate stays at its target), and the peak 2-ms send rate
# over the link's 100 Mbit/s, for MIs with and without an RTT-gradient penalty. Usage: halves.py RECORDING PCC_REPLAY
import sys, json, subprocess, statistics as st, bisect
rec, replay = sys.argv[1], sys.argv[2]
send = {}
for line in open(rec):
    if line.startswith('sent '):
        _, pn, b, t = line.split(); send[int(pn)] = (float(t), int(b) + 43)
mis = [json.loads(l) for l in subprocess.run([replay, '--mi', rec], capture_output=True, text=True, check=True).stdout.splitlines()]
t0 = mis[0]['startUs']; rows = []
for m in mis:
    if m['startUs'] - t0 < 2e6 or m['packetsLost'] or m['appLimited'] or m['packetsSent'] < 20: continue
    pk = [send[p] for p in range(m['firstPn'], m['lastPn'] + 1) if p in send]
    if len(pk) < 20: continue
    a, b = pk[0][0], pk[-1][0]; mid = (a + b) / 2
    if b - a < 5000: continue
    r1 = sum(x for t, x in pk if t < mid) / (mid - a); r2 = sum(x for t, x in pk if t >= mid) / (b - mid)
    ts = [t for t, _ in pk]; peak = 0
    for i, (t, _) in enumerate(pk):
        j = bisect.bisect_left(ts, t + 2000); peak = max(peak, sum(x for _, x in pk[i:j]) * 8 / 2000)
    x = m['sendRateBps'] * 1e-6
    pen = m['utility'] < x ** 0.9 - 4.5 * x
    rows.append((pen, r2 / r1, peak, m['rttGradient']))
for pen in (True, False):
    v = [r for r in rows if r[0] == pen]
    print(f"{'penalised' if pen else 'unpenalised'} lossless MIs {len(v)}: second-half / first-half send rate p25/p50/p75 "
          f"{st.quantiles([r[1] for r in v], n=4)[0]:.2f}/{st.median(r[1] for r in v):.2f}/{st.quantiles([r[1] for r in v], n=4)[2]:.2f}; "
          f"share > 1.1: {100 * sum(r[1] > 1.1 for r in v) / len(v):.0f}%; peak 2-ms send rate median {st.median(r[2] for r in v):.0f} Mbit/s")
g = [r[3] for r in rows]; h = [r[1] for r in rows]
mg, mh = st.mean(g), st.mean(h)
print(f"correlation of the RTT gradient with the halves' ratio over all {len(rows)} lossless MIs: "
      f"{sum((a - mg) * (b - mh) for a, b in zip(g, h)) / (st.pstdev(g) * st.pstdev(h) * len(g)):.2f}")
