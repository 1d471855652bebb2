#!/usr/bin/env python3
"""Paired A/B of two bench result sets (same run ids): HEAD vs 648a043, from the bench output directories (results.jsonl
and runs/*/telemetry). Usage: python3 ab.py HEAD_DIR[,HEAD_DIR...] OLD_DIR[,OLD_DIR...] (a later directory's repetition
replaces an earlier one's)."""
import json, sys, glob, os, itertools
from math import comb
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
ci = mean_ci95

def telemetry(d, r):
    f = glob.glob(os.path.join(d, os.path.dirname(r['artifacts']['telemetry'] + '/x'), '*.jsonl'))[0]
    rows = [json.loads(l) for l in open(f)]
    lo, hi = 3000, 29000
    area = 0.0
    for a, b in zip(rows, rows[1:]):
        s, e = max(a['t_ms'], lo), min(b['t_ms'], hi)
        if e > s: area += a['rate_bps'] * (e - s)
    rate = area / (hi - lo) / 1e6
    def at(t):
        return max((x for x in rows if x['t_ms'] <= t), key=lambda x: x['t_ms'])['sent_datagram_bytes']
    sent = (at(hi) - at(lo)) * 8 / ((hi - lo) / 1e3) / 1e6
    # probe MIs below the 8 Mbit/s bitrate whose utility went negative (the latency term), one per MI
    probes = {x['mi']: x for x in rows if x['state'] == 'probing' and 0 < x['mi_rate_bps'] < 8e6}
    pen = 100 * sum(x['utility'] < 0 for x in probes.values()) / max(1, len(probes))
    return rate, sent, pen

def load(d):
    out = {}
    for l in open(os.path.join(d, 'results.jsonl')):
        r = json.loads(l)
        if r['status'] != 'ok': continue
        rate, sent, pen = telemetry(d, r)
        out[r['repetition']] = {
            'buffering %': r['buffering_ratio'] * 100, 'stalls': r['stall_count'], 'stall time s': r['stall_time_s'],
            'startup s': r['startup_delay_s'], 'goodput Mbit/s': r['goodput_mbps'],
            'controller rate 3-29 s Mbit/s': rate, 'DATA sent 3-29 s Mbit/s': sent,
            'p95 queueing ms': r['queue_delay_p95_ms'], 'penalised probes < 8 Mbit/s %': pen, 'commit': r['provenance']['commit'][:7], 'dirty': r['provenance']['dirty']}
    return out

def signflip(ds):
    obs = abs(sum(ds)); n = 0; k = 0
    for signs in itertools.product([1, -1], repeat=len(ds)):
        n += 1; k += abs(sum(s * d for s, d in zip(signs, ds))) >= obs - 1e-12
    return k / n

def fisher(a, n1, b, n2):
    tot = a + b; N = n1 + n2
    p = lambda x: comb(n1, x) * comb(n2, tot - x) / comb(N, tot)
    pa = p(a)
    return sum(p(x) for x in range(max(0, tot - n2), min(n1, tot) + 1) if p(x) <= pa + 1e-12)

def load_all(arg):
    out = {}
    for d in arg.split(','): out.update(load(d))
    return out

head, old = load_all(sys.argv[1]), load_all(sys.argv[2])
reps = sorted(set(head) & set(old))
keys = [k for k in head[reps[0]] if k not in ('commit', 'dirty')]
print(f'pairs: {reps}; HEAD commits {sorted({head[r]["commit"] for r in reps})} dirty {sorted({head[r]["dirty"] for r in reps})}; '
      f'old commits {sorted({old[r]["commit"] for r in reps})}\n')
print('| metric | HEAD per rep | 648a043 per rep | HEAD mean ± 95% CI | 648a043 mean ± 95% CI | HEAD − 648a043 paired | sign-flip p |')
print('| --- | --- | --- | --- | --- | --- | --- |')
for k in keys:
    h = [head[r][k] for r in reps]; o = [old[r][k] for r in reps]; d = [a - b for a, b in zip(h, o)]
    f = lambda xs: ' / '.join(f'{x:.2f}' for x in xs)
    g = lambda xs: '%.2f ± %.2f' % ci(xs)
    print(f'| {k} | {f(h)} | {f(o)} | {g(h)} | {g(o)} | {g(d)} | {signflip(d):.2f} |')
hs = sum(head[r]['stalls'] > 0 for r in reps); os_ = sum(old[r]['stalls'] > 0 for r in reps)
print(f'\nruns that stalled: HEAD {hs}/{len(reps)}, 648a043 {os_}/{len(reps)}; Fisher exact p = {fisher(hs, len(reps), os_, len(reps)):.3f}')
