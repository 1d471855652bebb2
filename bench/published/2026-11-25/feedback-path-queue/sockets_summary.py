#!/usr/bin/env python3
"""Summarises sockets_sample.py's output: per UDP socket (namespace side = the client, host side = the origin), its
buffer sizes, the most it held (r = receive queue, t = send/wmem, both kernel bytes incl. overhead) and drops.
Usage: sockets_summary.py SAMPLES [--all]"""
import re, sys, collections
t = None; sect = None; addr = None; series = collections.defaultdict(list)
for l in open(sys.argv[1]):
    if l.startswith('T '): t = float(l.split()[1]); sect = 'ns'; continue
    if l.startswith('--host'): sect = 'host'; continue
    if l.startswith(('UNCONN', 'ESTAB')): p = l.split(); addr = p[3] + '>' + p[4]; continue
    m = re.search(r'skmem:\(r(\d+),rb(\d+),t(\d+),tb(\d+),f\d+,w(\d+),o\d+,bl\d+,d(\d+)\)', l)
    if m and t: series[(sect, addr)].append((t, *map(int, m.groups())))
for k, v in series.items():
    r = [x[1] for x in v]; w = [x[3] for x in v]
    print(k, 'samples', len(v), 'rb', v[0][2], 'tb', v[0][4], 'r max', max(r), 'r>0 samples', sum(1 for x in r if x > 0), 'wmem(t) max', max(w), 'drops', v[0][6], '->', v[-1][6])
    if len(sys.argv) > 2:
        for x in v:
            if x[1] > 0 or x[3] > 0: print(f'  {x[0]:.3f} r={x[1]} t={x[3]} d={x[6]}')
