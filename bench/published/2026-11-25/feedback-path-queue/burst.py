#!/usr/bin/env python3
"""Around the largest origin-side (pre-linkem) delay of a run: per 10 ms, the origin's send-stamp rate, linkem's input
rate (the same datagrams, by their arrival) and the largest pre-linkem delay. Usage: burst.py RUN_DIR [HALF_WIDTH_MS]"""
import collections, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hops
run = sys.argv[1]; w = float(sys.argv[2]) if len(sys.argv) > 2 else 150
h = hops.hops(run)
t_arr = h['t_datagram_ms']; pre = h['pre_ms'][:len(t_arr)]
peak = max(range(len(pre)), key=lambda i: pre[i]); tp = t_arr[peak]
sent_bins = collections.defaultdict(int); arr_bins = collections.defaultdict(int); pre_bins = collections.defaultdict(float)
for t, p in zip(t_arr, pre):
    ts = t - p  # send stamp on linkem's axis (arrival less the pre-linkem delay over its least)
    if abs(ts - tp) <= w: sent_bins[int(ts // 10)] += 1
    if abs(t - tp) <= w: arr_bins[int(t // 10)] += 1; pre_bins[int(t // 10)] = max(pre_bins[int(t // 10)], p)
print(f'{run}: largest pre-linkem delay {pre[peak]:.1f} ms, arriving at linkem {tp:.0f} ms after the first datagram')
print('   ms  sent-stamps Mbit/s  linkem-in Mbit/s  pre-linkem max ms   (1476 B IP per datagram)')
for k in range(int((tp - w) // 10), int((tp + w) // 10) + 1):
    print(f'{k*10:6} {sent_bins[k]*1476*8/1e4:12.1f} {arr_bins[k]*1476*8/1e4:16.1f} {pre_bins[k]:14.1f}')
