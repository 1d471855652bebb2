# Per-MI RTT gradient at a steady RTT, decomposed over each ACK frame's largest packet: the forward one-way delay
# (client addon receive stamp - origin addon send stamp) and the return remainder (RTT sample - one-way delay); and the
# spacing of each clock's stamps about a straight line in packet number (the pacing schedule).
# Usage: python3 noise.py REPLAY MI_JSONL  (MI_JSONL: controller-wasm/build/pcc-replay --mi REPLAY > MI_JSONL)
# Prints medians (_med) and 90th percentiles (_p90) over MIs: g_mi the controller's gradient, g_rtt the RTT's over the
# frames' largest, g_full the one-way delay's, g_ret the remainder's, g_s / g_r the one-way delay's with the receive /
# send stamps replaced by their straight line; sd_s / sd_r / sd_owd / sd_ret residual standard deviations (us); corr
# between send and receive residuals, corr_so between send and one-way-delay residuals; t_owd the one-way slope over
# its standard error; sgap the mean send gap (us).
import json, sys, statistics as st
rep, mif = sys.argv[1], sys.argv[2]
sent = {}; frames = []  # frames: [recv, now, max_pn]
for line in open(rep):
    p = line.split()
    if not p: continue
    if p[0] == 'sent': sent[int(p[1])] = int(p[3])
    elif p[0] == 'ack':
        pn, recv, now = int(p[1]), int(p[3]), int(p[4])
        if recv <= 0: continue
        rtt = int(p[2])
        if frames and frames[-1][0] == recv and frames[-1][1] == now: frames[-1][2] = max(frames[-1][2], pn)
        else: frames.append([recv, now, pn, rtt])
# keep frames whose largest is new (a time not seen before) and increasing
largest = {}
last_recv = -1
rttof = {}
for recv, now, pn, rtt in frames:
    if recv > last_recv: largest[pn] = recv; last_recv = recv; rttof[pn] = rtt
mis = [json.loads(l) for l in open(mif)]
def slope(x, y):
    mx, my = st.fmean(x), st.fmean(y)
    sxx = sum((a - mx) ** 2 for a in x)
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / sxx if sxx > 0 else None
def fit(x, y):
    b = slope(x, y); a = st.fmean(y) - b * st.fmean(x); return [a + b * v for v in x]
def resid_sd(x, y):
    f = fit(x, y); return st.pstdev([b - c for b, c in zip(y, f)])
rows = []
for m in mis:
    if m['startUs'] < 2e6 or m['timedOut'] or m['appLimited'] or m['packetsLost']: continue
    steady = m['avgRttUs'] <= m['minRttUs'] + 1500
    pts = [(pn, sent[pn], largest[pn]) for pn in range(m['firstPn'], m['lastPn'] + 1) if pn in largest]
    if len(pts) < 4: continue
    idx = [float(p[0]) for p in pts]; s = [float(p[1]) for p in pts]; r = [float(p[2]) for p in pts]
    # all packets' send stamps in the MI: jitter about the MI's own linear schedule
    allpn = [pn for pn in range(m['firstPn'], m['lastPn'] + 1) if pn in sent]
    s_all = [float(sent[pn]) for pn in allpn]
    owd = [b - a for a, b in zip(s, r)]
    g_full = slope(s, owd)
    rt = [float(rttof[p[0]]) for p in pts]
    g_rtt = slope(s, rt); g_ret = slope(s, [a - b for a, b in zip(rt, owd)])
    sres = [a - b for a, b in zip(s, fit(idx, s))]; rres = [a - b for a, b in zip(r, fit(idx, r))]
    corr = st.correlation(sres, rres) if st.pstdev(sres) > 0 and st.pstdev(rres) > 0 else 0.0
    ores = [a - b for a, b in zip(owd, fit(s, owd))]
    corr_so = st.correlation(sres, ores) if st.pstdev(sres) > 0 and st.pstdev(ores) > 0 else 0.0
    sd_owd = resid_sd(s, owd);
    sxx = sum((a - st.fmean(s)) ** 2 for a in s)
    t_owd = abs(g_full) / (sd_owd * (len(s) / (len(s) - 2)) ** 0.5 / sxx ** 0.5) if sd_owd > 0 else 0.0
    sd_ret = resid_sd(s, [a - b for a, b in zip(rt, owd)])
    s_hat = fit(idx, s); r_hat = fit(idx, r)
    g_sender_only = slope(s, [rh - a for a, rh in zip(s, r_hat)])       # receive stamps smoothed: sender's noise
    g_receiver_only = slope(s_hat, [b - sh for sh, b in zip(s_hat, r)])  # send stamps smoothed: receiver's noise
    rows.append(dict(steady=steady, t_owd=t_owd, corr_so=corr_so, g_mi=m['rttGradient'], g_rtt=g_rtt, g_ret=g_ret, corr=corr, sd_owd=sd_owd, sd_ret=sd_ret, g_full=g_full, g_s=g_sender_only, g_r=g_receiver_only,
                     sd_s=resid_sd(idx, s), sd_r=resid_sd(idx, r), sd_s_all=resid_sd([float(p) for p in allpn], s_all),
                     frames=len(pts), pkts=m['packetsSent'],
                     sgap=(s_all[-1] - s_all[0]) / max(1, len(s_all) - 1)))
def q(v, p): v = sorted(v); return v[min(len(v) - 1, int(p * len(v)))]
for label, sel in (('steady', [x for x in rows if x['steady']]), ('all', rows)):
    if not sel: continue
    out = {'mis': len(sel)}
    for k in ('g_mi', 'g_rtt', 'g_full', 'g_ret', 'g_s', 'g_r'):
        a = [abs(x[k]) for x in sel if x[k] is not None]
        out[k + '_med'] = round(q(a, .5), 4); out[k + '_p90'] = round(q(a, .9), 4)
    for k in ('t_owd', 'sd_s', 'sd_r', 'sd_owd', 'sd_ret', 'corr', 'corr_so', 'sd_s_all', 'frames', 'sgap'):
        out[k + '_med'] = round(q([x[k] for x in sel], .5), 2)
    print(label, json.dumps(out))
