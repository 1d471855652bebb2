#!/usr/bin/env python3
"""Each AbandonRequestRule switch of a bench output directory's runs (runs/SCENARIO/SCHEME/REP/abr-segments-player-1.jsonl),
with what the path and the controller did around it: the link's capacity and the sending rate per second from the
run's series.json, and for datagram schemes the controller's rate and smoothed RTT from the origin's per-MI telemetry
(telemetry/*.jsonl; kernel-TCP runs have none). Then, per run, the goodput over the link's capacity inside the
10 s no-switch-up lock dash.js holds after an abandon (streaming.abandonLoadTimeout) and outside it.
The player's and the origin's session clocks start within ~0.1 s of each other; series.json is per second of the run.
Usage: python3 abandon-context.py BENCH_OUT_DIR [...]   (one JSON line per abandon, then one per run)"""
import glob
import json
import os
import statistics
import sys

LOCK_S = 10.0


def near(series, t, key):
    xs = [x for x in series if abs(x['t_s'] - t) <= 0.5]
    return round(xs[0][key], 2) if xs and xs[0].get(key) is not None else None


def mean_over(series, lo, hi, key):
    xs = [x[key] for x in series if lo <= x['t_s'] < hi and x.get(key) is not None]
    return statistics.mean(xs) if xs else None


for out in sys.argv[1:]:
    for segf in sorted(glob.glob(os.path.join(out, 'runs', '*', '*', '*', 'abr-segments-player-1.jsonl'))):
        rundir = os.path.dirname(segf)
        run = '/'.join(rundir.split(os.sep)[-3:])
        recs = [json.loads(l) for l in open(segf) if l.strip()]
        series = json.load(open(os.path.join(rundir, 'series.json')))
        tel = []
        for tf in glob.glob(os.path.join(rundir, 'telemetry', '*.jsonl')):
            tel += [json.loads(l) for l in open(tf) if l.strip()]
        tel.sort(key=lambda r: r['t_ms'])
        def ctl(t_s):
            rs = [r for r in tel if r['t_ms'] <= t_s * 1000]
            return (round(rs[-1]['rate_bps'] / 1e6, 2), round(rs[-1]['srtt_us'] / 1000)) if rs else (None, None)
        abandons = [x for x in recs if x['kind'] == 'switch' and 'AbandonRequest' in str(x.get('reason'))]
        for a in abandons:
            t = a['atMs'] / 1000
            before = [ctl(t - d)[0] for d in (2.0, 1.0)]
            rate, srtt = ctl(t)
            after = [ctl(t + d)[0] for d in (1.0, 2.0, 4.0, 6.0)]
            print(json.dumps(dict(
                out=out, run=run, at_s=round(t, 2), from_kbps=a['fromKbps'], to_kbps=a['toKbps'],
                measured_kbps=(a.get('reason') or {}).get('throughputInKbit'),
                capacity_mbps=near(series, t, 'capacity_mbps'), sending_mbps=near(series, t, 'sending_rate_mbps'),
                ctl_rate_mbps_at_minus_2_1_s=before, ctl_rate_mbps=rate, ctl_srtt_ms=srtt,
                ctl_rate_mbps_at_plus_1_2_4_6_s=after,
                capacity_mbps_next_5s=round(mean_over(series, t, t + 5, 'capacity_mbps') or 0, 2),
                goodput_mbps_next_5s=round(mean_over(series, t, t + 5, 'goodput_mbps') or 0, 2))))
        # Media is fetched to its end before the run ends: count only seconds with something still to fetch.
        last_req_s = max((s['dashEndMs'] or 0) for s in recs if s['kind'] == 'segment') / 1000
        in_lock = lambda t: any(a['atMs'] / 1000 <= t < a['atMs'] / 1000 + LOCK_S for a in abandons)
        live = [x for x in series if x['t_s'] <= last_req_s]
        lk = [x for x in live if in_lock(x['t_s'])]
        ol = [x for x in live if not in_lock(x['t_s'])]
        ratio = lambda xs: round(sum(x['goodput_mbps'] for x in xs) / sum(x['capacity_mbps'] for x in xs), 3) if xs else None
        print(json.dumps(dict(out=out, run=run, summary=True, abandons=len(abandons), fetch_end_s=round(last_req_s, 1),
                              lock_seconds=len(lk), goodput_over_capacity_in_lock=ratio(lk), goodput_over_capacity_outside=ratio(ol),
                              bitrate_mbps_in_lock=round(statistics.mean(x['bitrate_mbps'] for x in lk), 2) if lk else None,
                              bitrate_mbps_outside=round(statistics.mean(x['bitrate_mbps'] for x in ol), 2) if ol else None)))
