#!/usr/bin/env python3
"""Cuts of the base rate to one MI's delivery less epsilon (vivace_video.c bound_queue_to_spare's signature, or a
decrease to the probes' delivery, vivace_probing.c) in origin telemetry: a finished MI that lost nothing and delivered
< 0.8 x its rate, after which the rate chosen next (rate_bps: the next MI's, a probe at base x (1 +- eps) or the base)
is within 1.5 % of (its throughput x 0.95) x (1 - eps), x 1 or x (1 + eps), and below 0.8 x the rate before.
usage: queue_bound_cuts.py RUN_DIR...   (prints one line per cut, then a count per run)"""
import glob
import json
import os
import sys

EPS = 0.05


def cuts(run):
    rows = [json.loads(line) for line in open(sorted(glob.glob(os.path.join(run, 'telemetry', '*.jsonl')))[0])]
    found, last, prev_rate = [], None, None
    for r in rows:
        if last is not None and r['mi'] != last and r['loss_rate'] == 0 and r['mi_rate_bps'] > 0:
            thr, rate, nxt = r['throughput_bps'], r['mi_rate_bps'], r['rate_bps']
            base = thr * (1 - EPS)
            if 0 < thr < 0.8 * rate and prev_rate and nxt < 0.8 * prev_rate and any(
                    abs(nxt / (base * k) - 1) < 0.015 for k in (1 - EPS, 1.0, 1 + EPS)):
                found.append((r['t_ms'] / 1000, rate / 1e3, thr / 1e3, r['rtt_gradient'], r['srtt_us'] / 1e3, prev_rate / 1e3, base / 1e3,
                              r.get('cmcd_bl_ms')))
        if last is None or r['mi'] != last:
            prev_rate = r['rate_bps'] if last is not None else None
        last = r['mi']
    return found


def main(argv):
    for run in argv[1:]:
        f = cuts(run)
        for c in f:
            print('%s session %.2f s: MI at %.0f kbit/s delivered %.0f (RTT gradient %+.2f, sRTT %.0f ms); rate %.0f -> base %.0f kbit/s; buffer %s ms'
                  % ((run.split('/runs/')[-1],) + c))
        print('%s: %d cuts' % (run.split('/runs/')[-1], len(f)))


if __name__ == '__main__':
    main(sys.argv)
