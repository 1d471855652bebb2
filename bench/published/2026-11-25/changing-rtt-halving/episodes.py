#!/usr/bin/env python3
"""Each MI-timeout episode of the recorded runs, replayed open loop through HEAD's controller and the fix
(pcc-replay --mi of each): the MI target rate in the second before the first timed-out MI, and in the 0.2-1.2 s and
1.2-3.2 s after it. Open loop: the inputs are the recorded ones, so after the first decision that differs the fix's
column is what it would have asked for, not what the path would then have done. Usage: episodes.py DIR (holding
rN.head.mi, rN.fix.mi)."""
import json, sys
d = sys.argv[1]
def load(f):
    return [json.loads(l) for l in open(f)]
def rate(ms, a, b):
    v = [m['targetRateBps'] for m in ms if a <= m['startUs'] < b]
    return sum(v) / len(v) / 1e6 if v else float('nan')
print('| run | first timed-out MI (s after first send) | rate before, Mbit/s | 0.2-1.2 s after: HEAD / fix | 1.2-3.2 s after: HEAD / fix |')
print('| --- | --- | --- | --- | --- |')
for n in (1, 2, 3):
    o = load(f'{d}/r{n}.head.mi'); w = load(f'{d}/r{n}.fix.mi')
    t0 = o[0]['startUs']
    eps = [m['startUs'] for m in o if m['timedOut']]
    for i, t in enumerate(eps):
        if i and t - eps[i - 1] <= 1e6: continue
        print(f'| {n} | {(t - t0) / 1e6:.2f} | {rate(o, t - 1e6, t):.2f} | {rate(o, t + 2e5, t + 1.2e6):.2f} / {rate(w, t + 2e5, t + 1.2e6):.2f} | '
              f'{rate(o, t + 1.2e6, t + 3.2e6):.2f} / {rate(w, t + 1.2e6, t + 3.2e6):.2f} |')
