#!/usr/bin/env python3
"""ack-hold.sh's ack-cost.txt files -> vivace's CPU ns per ack by path, before/after and receive times on/off: every
round's figure, the lowest, and the paired (same round) differences after − before and on − off, mean ± 95% t.
Usage: ack_stats.py ack-cost.txt [more...]"""
import sys, os, re, collections
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bulk-75kb'))
from stats import ci  # noqa: E402

fig = collections.defaultdict(dict)  # (path, side, receive) -> {round key: ns}
key = None
for n, name in enumerate(sys.argv[1:]):
    for line in open(name):
        m = re.match(r'== round (\d+) (BEFORE|AFTER) (\w+) wasm \w+ receive-times (on|off) load ([\d.]+)', line)
        if m:
            key = (f'{n + 1}.{m[1]}', m[2], m[4], m[3], float(m[5]))
            continue
        m = re.match(r'vivace\s+(native \(C\)|WASM batched|WASM direct export per event|WASM unbatched \(flush per event\))\s+([\d.]+)', line)
        if m and key:
            fig[(m[1], key[1], key[2])][key[0]] = float(m[2])
paths = ['WASM batched', 'WASM direct export per event', 'WASM unbatched (flush per event)', 'native (C)']
print('| path | receive times | before: mean ± 95% t (lowest) | after: mean ± 95% t (lowest) | after − before, paired | rounds |')
print('| --- | --- | --- | --- | --- | --- |')
for p in paths:
    for rcv in ('on', 'off'):
        b, a = fig[(p, 'BEFORE', rcv)], fig[(p, 'AFTER', rcv)]
        ks = sorted(set(b) & set(a))
        print(f"| {p} | {rcv} | {ci([b[k] for k in ks])} ({min(b.values()):.1f}) | {ci([a[k] for k in ks])} ({min(a.values()):.1f}) | "
              f"{ci([a[k] - b[k] for k in ks])} | {len(ks)} |")
print()
print('Receive times on − off, paired within a round and side (the receiver-time work per ack):')
print()
for p in paths:
    for side in ('BEFORE', 'AFTER'):
        on, off = fig[(p, side, 'on')], fig[(p, side, 'off')]
        ks = sorted(set(on) & set(off))
        print(f"- {p}, {side.lower()}: {ci([on[k] - off[k] for k in ks])} ns")
