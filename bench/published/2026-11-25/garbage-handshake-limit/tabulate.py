#!/usr/bin/env python3
"""Table of the garbage-handshake-limit runs: python3 tabulate.py RESULTS.jsonl HOLDS.jsonl [ORIGIN_LOG_ROOT]
(one row per run, then means with 95 % intervals, Student's t). ORIGIN_LOG_ROOT: the parent of the bench's --out
folders, named run1, run2, ..., for the victim's stall reasons (session.stall_reasons of sessions not from the hostile 127.0.0.1)."""
import glob, json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
ci = mean_ci95

def victim_stalls(log_path):
    """Seconds of the victim's sending gaps charged to a busy event loop / a descheduled process."""
    hostile, busy, desched = set(), 0.0, 0.0
    lines = [json.loads(l) for l in open(log_path) if l.startswith('{')]
    for e in lines:
        if e.get('event') == 'session.open' and str(e.get('remote', '')).startswith('127.0.0.1:'):
            hostile.add(e['session'])
    for e in lines:
        if e.get('event') == 'session.stall_reasons' and e['session'] not in hostile:
            busy += e.get('stall_event_loop_busy_ms', 0) / 1000
            desched += e.get('stall_descheduled_ms', 0) / 1000
    return busy, desched

results = [json.loads(l) for l in open(sys.argv[1])]
holds = [json.loads(l) for l in open(sys.argv[2]) if l.startswith('{')]
root = sys.argv[3] if len(sys.argv) > 3 else None
load = {}
for h in holds:
    load.setdefault(h['run'], {})[h['phase']] = h
rows, cols = [], {k: [] for k in ('clean', 'loaded', 'change', 'rise', 'acc', 'ref', 'sil', 'fail')}
print('| run | load start → end | commit | hostile rate /s | hostile sessions accepted (not closed) | handshakes refused by the origin | client connect failures | goodput clean → loaded Mbit/s | change | buffering % clean → loaded | busy / descheduled s, clean → loaded |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for r in sorted(results, key=lambda r: r['run_id']):
    f = r['fault']['figures']
    h = load.get(r['run_id'], {})
    stalls = ''
    if root:
        c = glob.glob(os.path.join(root, 'run[0-9]', 'runs', r['run_id'], 'clean', 'origin-1.log'))
        l = glob.glob(os.path.join(root, 'run[0-9]', 'runs', r['run_id'], 'loaded', 'origin-1.log'))
        if c and l:
            cb, cd = victim_stalls(c[0]); lb, ld = victim_stalls(l[0])
            stalls = f'{cb:.2f} / {cd:.2f} → {lb:.2f} / {ld:.2f}'
            for k, v in (('cb', cb), ('cd', cd), ('lb', lb), ('ld', ld)):
                cols.setdefault(k, []).append(v)
    print(f"| {r['run_id']} | {h.get('start', {}).get('loadavg', '?').split()[0]} → {h.get('end', {}).get('loadavg', '?').split()[0]} | "
          f"{r['provenance']['commit'][:7]} | {f['hostile_rate_per_s']:,.0f} | {f['hostile_sessions']} ({f['hostile_not_closed']}) | "
          f"{f.get('handshakes_refused')} | {f['hostile_connect_failures']} | "
          f"{f['clean_goodput_mbps']:.2f} → {f['loaded_goodput_mbps']:.2f} | {f['goodput_change'] * 100:+.1f} % | "
          f"{f['clean_buffering_ratio'] * 100:.2f} → {f['loaded_buffering_ratio'] * 100:.2f} | {stalls} |")
    cols['clean'].append(f['clean_goodput_mbps']); cols['loaded'].append(f['loaded_goodput_mbps'])
    cols['change'].append(f['goodput_change'] * 100); cols['rise'].append(f['buffering_rise_points'])
    cols['acc'].append(f['hostile_sessions']); cols['ref'].append(f.get('handshakes_refused') or 0); cols['fail'].append(f['hostile_connect_failures'])
n = len(results)
fmt = lambda k, d=2: '{:.{d}f} ± {:.{d}f}'.format(*ci(cols[k]), d=d)
print(f"| mean ± 95 % CI (n = {n}) | | | | {fmt('acc', 0)} | {fmt('ref', 0)} | {fmt('fail', 0)} | {fmt('clean')} → {fmt('loaded')} | **{fmt('change', 1)} %** | rise {fmt('rise')} points | |")
within = sum(1 for c in cols['change'] if abs(c) <= 10)
print(f"\nruns within 10 %: {within} of {n}")
if cols.get('lb'):
    print(f"victim's sending stalls (s per session), event loop busy: clean {fmt('cb')} → loaded {fmt('lb')}; descheduled: clean {fmt('cd')} → loaded {fmt('ld')}")
