#!/usr/bin/env python3
"""Startup figures of bench runs from linkem's downlink log (IP bytes leaving the bottleneck) or pcc-sim's CSV.

t90_s: from the first byte leaving the bottleneck to the start of the first 500 ms window whose mean delivery rate
is >= 90% of the link (90 Mbit/s on 100 Mbit/s), in 50 ms steps; None if no window reaches it.
first2s_mbps: IP Mbit/s delivered in the first 2 s from that first byte.
Usage: python3 startup.py RUN_DIR...   (each holds link-down.log)
"""
import json, os, sys

BIN_MS = 50
TARGET_MBPS = 90.0

def from_bins(bins_bytes, bin_ms):
    rates = [b * 8 / (bin_ms / 1000) / 1e6 for b in bins_bytes]
    t90 = None
    w = int(500 / bin_ms)
    for i in range(0, max(0, len(rates) - w + 1)):
        if sum(rates[i:i + w]) / w >= TARGET_MBPS:
            t90 = i * bin_ms / 1000
            break
    n2 = int(2000 / bin_ms)
    first2 = sum(bins_bytes[:n2]) * 8 / 2 / 1e6
    return t90, first2

def link_log(path):
    deps = []
    with open(path) as f:
        for line in f:
            if line.startswith('#'):
                continue
            p = line.split()
            if len(p) >= 3 and p[1] == '-':
                deps.append((int(p[0]), int(p[2])))
    t0 = deps[0][0]
    bins = {}
    for t, b in deps:
        k = (t - t0) // BIN_MS
        bins[k] = bins.get(k, 0) + b
    n = max(bins) + 1
    return from_bins([bins.get(i, 0) for i in range(n)], BIN_MS)

if __name__ == '__main__':
    out = []
    for d in sys.argv[1:]:
        t90, f2 = link_log(os.path.join(d, 'link-down.log'))
        out.append({'run': d, 't90_s': t90, 'first2s_mbps': round(f2, 2)})
    for o in out:
        print(json.dumps(o))
