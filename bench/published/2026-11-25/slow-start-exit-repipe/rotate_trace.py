#!/usr/bin/env python3
"""A mahimahi trace started OFFSET_S seconds in, the part before appended after its end (the trace loops anyway).
  python3 rotate_trace.py TRACE OFFSET_S OUT"""
import sys
src, off_s, dst = sys.argv[1], float(sys.argv[2]), sys.argv[3]
ts = [int(line) for line in open(src) if line.strip()]
period, off = ts[-1], int(off_s * 1000)
out = sorted([t - off for t in ts if t >= off] + [t + period - off for t in ts if t < off])
open(dst, 'w').write('\n'.join(map(str, out)) + '\n')
