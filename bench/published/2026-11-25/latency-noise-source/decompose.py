#!/usr/bin/env python3
"""latency-noise-source: where the RTT gradients of vivace's lossless MIs come from (issue 17).
  python3 decompose.py RUN_DIR [RUN_DIR...]     (RUN_DIR: a bench run folder with record/*.replay and link-down.log)
  python3 decompose.py --json RUN_DIR...         (one line of figures per run)

Per packet of the recording (ack lines: PN RTT_US RECV_TIME_US NOW_US; sent lines: PN BYTES NOW_US):
  rtt  = the controller's RTT sample;  owd = receiver time - send time (forward, receiver's clock);
  ret  = origin ack stamp - receiver time (ack wait at the receiver + return path + origin stamping);
  link = linkem's own queueing delay for that packet (its '-' line, 1-ms resolution, matched in FIFO order: the
         datagrams >= 1400 B on the downlink in order are the recording's sent packets less the lost ones);
  model= the queue a 100 Mbit/s, 75 KB droptail link holds when the packet arrives, from the µs send stamps and
         linkem's IP sizes;  ingress = linkem arrival ('+', ms) - send stamp;  egress_recv = owd - ingress - link.
Per MI (pcc-replay --mi, after 2 s, not app-limited or timed out, lossless): the least-squares slope over send time of
each (rtt = owd + ret exactly, up to the clock offset). An MI is 'penalised' when the controller's utility charged its
gradient (the replayed utility is below the reward x^0.9 by more than 1e-6: the gradient passed the 0.01 filter and
2 standard errors); 'by the emission rule': still charged once the gradient its own sends explain is taken off
(vivace_utility.c since this folder's commit; the emission gradient recomputed here from the send stamps and targets). Prints per run and pooled: share penalised, and over the penalised MIs the mean of each slope and
which component carries the gradient."""
import glob, json, os, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
REPLAY = os.environ.get('PCC_REPLAY') or os.path.join(HERE, '..', '..', '..', '..', 'controller-wasm', 'build', 'pcc-replay')
LINE_B_PER_US = 100e6 / 8 / 1e6; BUFFER_B = 75000
HEADER_B = 63  # a 1413-B datagram is 1476 B at linkem


def slope(xs, ys):
    n = len(xs)
    if n < 3: return 0.0
    mx = sum(xs) / n; my = sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else 0.0

def significant(xs, ys, distinct):
    """monitor_interval.c's test as vivace_utility.c applies it: slope beyond 2 standard errors, the error inflated by
    packets per distinct RTT value (clustered samples)."""
    n = len(xs); b = slope(xs, ys)
    if n < 3: return False
    mx = sum(xs) / n; my = sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs); syy = sum((y - my) ** 2 for y in ys)
    resid = max(0.0, syy - b * sum((x - mx) * (y - my) for x, y in zip(xs, ys)))
    se = (resid / (n - 2) / sxx * n / max(1, distinct)) ** 0.5 if sxx > 0 else 0.0
    return b >= 0.01 and 2 * se <= abs(b)

def median(v):
    v = sorted(v); return v[len(v) // 2] if v else 0.0

def load(run):
    rec = glob.glob(os.path.join(run, 'record', '*.replay'))[0]
    sent = {}; acks = {}; lost = set(); order = []; ack_order = []
    for line in open(rec):
        p = line.split()
        if not p: continue
        if p[0] == 'sent': sent[int(p[1])] = (int(p[3]), int(p[2])); order.append(int(p[1]))
        elif p[0] == 'ack': acks[int(p[1])] = (int(p[2]), int(p[3]), int(p[4])); ack_order.append(int(p[1]))
        elif p[0] == 'loss': lost.add(int(p[1]))
    link = []; arrivals = []
    for l in open(os.path.join(run, 'link-down.log')):
        f = l.split()
        if l[0] == '#' or len(f) < 3 or int(f[2]) < 1400: continue
        if f[1] == '-': link.append(int(f[3]))
        elif f[1] == '+': arrivals.append((int(f[0]), int(f[2])))
    delivered = [pn for pn in order if pn not in lost]
    link_ms = dict(zip(delivered, link)) if abs(len(link) - len(delivered)) <= 20 else {}
    # every datagram reaches linkem ('+', dropped ones too), in send order; its IP size is linkem's
    arrival = dict(zip(order, arrivals)) if abs(len(arrivals) - len(order)) <= 20 else {}
    model = {}; q = 0.0; last = None
    for pn in order:
        t, b = sent[pn]; b = arrival[pn][1] if pn in arrival else b + HEADER_B
        if last is not None: q = max(0.0, q - (t - last) * LINE_B_PER_US)
        last = t
        if q + b <= BUFFER_B: q += b
        model[pn] = q / LINE_B_PER_US
    out = subprocess.run([REPLAY, '--mi', rec], capture_output=True, text=True, check=True).stdout
    mis = [json.loads(l) for l in out.splitlines()]
    return rec, sent, acks, ack_order, link_ms, arrival, model, mis, len(link), len(delivered)

KEYS = ['rtt', 'owd', 'ret', 'ingress', 'link', 'egress_recv', 'model']

def analyse(run):
    rec, sent, acks, ack_order, link_ms, arrival, model, mis, nl, nd = load(run)
    rank = {pn: i for i, pn in enumerate(ack_order)}
    t0 = mis[0]['startUs']; rows = []
    for m in mis:
        if m['startUs'] - t0 <= 2e6 or m['appLimited'] or m['timedOut'] or m['packetsLost'] or m['sendRateBps'] <= 0: continue
        pns = [pn for pn in range(m['firstPn'], m['lastPn'] + 1) if pn in acks and pn in sent]
        xs = [sent[pn][0] for pn in pns]
        by_ack = sorted(pns, key=rank.get); distinct = sum(1 for i, pn in enumerate(by_ack) if i == 0 or acks[pn][0] != acks[by_ack[i - 1]][0])
        comp = {'rtt': [acks[pn][0] for pn in pns], 'owd': [acks[pn][1] - sent[pn][0] for pn in pns],
                'ret': [acks[pn][2] - acks[pn][1] for pn in pns], 'model': [model[pn] for pn in pns]}
        if link_ms and all(pn in link_ms for pn in pns): comp['link'] = [1000 * link_ms[pn] for pn in pns]
        if arrival and all(pn in arrival for pn in pns): comp['ingress'] = [1000 * arrival[pn][0] - sent[pn][0] for pn in pns]
        s = {k: slope(xs, v) for k, v in comp.items()}
        if 'link' in s and 'ingress' in s: s['egress_recv'] = s['owd'] - s['ingress'] - s['link']
        # emission: the MI's IP rate (linkem's packet sizes) and its busiest 5 ms at the send stamps, the longest send gap
        allp = [pn for pn in range(m['firstPn'], m['lastPn'] + 1) if pn in sent]
        ipb = {pn: (arrival[pn][1] if pn in arrival else sent[pn][1] + 63) for pn in allp}
        span = sent[allp[-1]][0] - sent[allp[0]][0] if len(allp) > 1 else 0
        s['ip_mbps'] = sum(ipb.values()) * 8 / m['durationUs'] if m['durationUs'] > 0 else 0
        best = 0; j = 0; acc = 0
        for i, pn in enumerate(allp):
            acc += ipb[pn]
            while sent[pn][0] - sent[allp[j]][0] >= 5000: acc -= ipb[allp[j]]; j += 1
            best = max(best, acc)
        s['max5ms_ip_mbps'] = best * 8 / 5000
        # the emission gradient as monitor_interval.c keeps it (the queue the MI's sends build at its target rate) and
        # whether vivace_utility.c (since this folder's commit) still charges the MI: the gradient beyond it and 1/packets
        r_bpus = m['targetRateBps'] / 8e6; q = 0.0; last = None; ex = []; ey = []
        for pn in allp:
            t, b = sent[pn]
            if last is not None: q = max(0.0, q - (t - last) * r_bpus)
            last = t; q += b; ex.append(t); ey.append(q / r_bpus if r_bpus > 0 else 0.0)
        s['emission'] = slope(ex, ey) if r_bpus > 0 else 0.0
        uneven = s['emission'] - 1.0 / len(allp)
        s['penalised_after'] = significant(xs, comp['rtt'], distinct) and (m['rttGradient'] - max(0.0, uneven) >= 0.01)
        s['max_gap_us'] = max((sent[allp[i]][0] - sent[allp[i - 1]][0] for i in range(1, len(allp))), default=0)
        rows.append({'mi': m['id'], 'grad': m['rttGradient'], 'penalised': significant(xs, comp['rtt'], distinct), **s})
    return rows, nl, nd

def summarise(name, rows):
    pen = [r for r in rows if r['penalised']]; big = [r for r in rows if r['grad'] > 0.01]
    after = sum(r['penalised_after'] for r in rows)
    print(f'{name}: lossless MIs {len(rows)}, gradient > 0.01 {len(big)} ({100*len(big)/max(1,len(rows)):.1f} %), '
          f'penalised {len(pen)} ({100*len(pen)/max(1,len(rows)):.1f} %), by the emission rule {after} ({100*after/max(1,len(rows)):.1f} %)')
    for label, sel in (('penalised', pen), ('not penalised', [r for r in rows if not r['penalised']])):
        if not sel: continue
        meds = {k: median([r[k] for r in sel if k in r]) for k in KEYS}
        nlink = sum('link' in r for r in sel)
        print(f'  {label} ({len(sel)}): median slope ' + ', '.join(f'{k} {meds[k]:+.4f}' for k in KEYS) + f' (link in {nlink})')
    for label, sel in (('penalised', pen), ('not penalised', [r for r in rows if not r['penalised']])):
        if not sel: continue
        n = len(sel)
        print(f'  {label}: IP rate > 100 Mbit/s {100*sum(r["ip_mbps"] > 100 for r in sel)/n:.1f} %, a 5-ms window > 100 '
              f'{100*sum(r["max5ms_ip_mbps"] > 100 for r in sel)/n:.1f} % (median busiest 5 ms {median([r["max5ms_ip_mbps"] for r in sel]):.1f}), '
              f'a send gap > 2 ms {100*sum(r["max_gap_us"] > 2000 for r in sel)/n:.1f} %; slope > 0.01: ' +
              ', '.join(f'{k} {100*sum(r.get(k, 0) > 0.01 for r in sel)/n:.1f} %' for k in ('ret', 'ingress', 'link', 'egress_recv')))
    if pen:
        ret_major = sum(r['ret'] > r['owd'] for r in pen)
        owd_q = sum(r['owd'] > 0.01 for r in pen); ret_q = sum(r['ret'] > 0.01 for r in pen)
        link_q = sum(r.get('link', 0) > 0.01 for r in pen); model_q = sum(r['model'] > 0.01 for r in pen)
        print(f'  of penalised: ret slope > owd slope in {ret_major}; owd > 0.01 in {owd_q}; ret > 0.01 in {ret_q}; '
              f'linkem queue slope > 0.01 in {link_q}; model queue slope > 0.01 in {model_q}')

def run_summary(rows):
    """One run's figures for results.jsonl: shares of lossless MIs, and medians over the penalised ones."""
    pen = [r for r in rows if r['penalised']]; rest = [r for r in rows if not r['penalised']]; n = max(1, len(rows)); p = max(1, len(pen))
    out = {'lossless_mis': len(rows), 'gradient_over_001_pct': round(100 * sum(r['grad'] > 0.01 for r in rows) / n, 1),
           'penalised_pct': round(100 * len(pen) / n, 1),
           'penalised_after_rule_pct': round(100 * sum(r['penalised_after'] for r in rows) / n, 1)}
    for k in KEYS: out[f'penalised_median_slope_{k}'] = round(median([r[k] for r in pen if k in r]), 4)
    for k in ('ret', 'ingress', 'link', 'egress_recv'): out[f'penalised_{k}_over_001_pct'] = round(100 * sum(r.get(k, 0) > 0.01 for r in pen) / p, 1)
    out['penalised_ip_over_100_pct'] = round(100 * sum(r['ip_mbps'] > 100 for r in pen) / p, 1)
    for label, sel in (('penalised', pen), ('not_penalised', rest)):
        m = max(1, len(sel))
        out[f'{label}_send_gap_over_2ms_pct'] = round(100 * sum(r['max_gap_us'] > 2000 for r in sel) / m, 1)
        out[f'{label}_median_busiest_5ms_ip_mbps'] = round(median([r['max5ms_ip_mbps'] for r in sel]), 1)
    return out

if __name__ == '__main__':
    if sys.argv[1] == '--json':  # one JSON line of run_summary per run folder
        for run in sys.argv[2:]: print(json.dumps({'run_dir': run, **run_summary(analyse(run)[0])}))
        sys.exit(0)
    pooled = []
    for run in sys.argv[1:]:
        rows, nl, nd = analyse(run); pooled += rows
        summarise(f'{run} (linkem {nl} / delivered {nd})', rows)
    if len(sys.argv) > 2: summarise('pooled', pooled)
