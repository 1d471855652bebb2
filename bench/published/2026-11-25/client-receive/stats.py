# Tables of summary.md from results.jsonl: means with 95% intervals (Student t) per set, and the paired differences
# (push - before, the two runs of one heavy-lock hold). usage: python3 stats.py results.jsonl
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
rows = [json.loads(line) for line in open(sys.argv[1])]

def fmt(xs, p=1):
    m, h = mean_ci95(xs)
    return f'{m:.{p}f} ± {h:.{p}f}'

METRICS = [
    ('goodput Mbit/s', lambda r: r['goodput_mbps']),
    ('throughput Mbit/s', lambda r: r['throughput_mbps']),
    ('client µs/datagram', lambda r: r['client_us_per_datagram']),
    ('origin µs/datagram', lambda r: r['origin_us_per_datagram']),
    ('client CPU %', lambda r: r['cpu_percent']['client']),
    ('origin CPU %', lambda r: r['cpu_percent']['origin']),
    ('client waiting %', lambda r: r['cpu_wait_percent']['client']),
    ('client packets sent per datagram', lambda r: r['client_packets_sent'] / r['datagrams_delivered']),
    ('ACKs per datagram', lambda r: r['acks_sent'] / r['datagrams_delivered']),
    ('p95 queueing ms', lambda r: r['queue_p95_ms']),
]
sets = {}
for r in rows:
    sets.setdefault(r['label'], []).append(r)
print('| set | runs | load 1-min before→after | ' + ' | '.join(name for name, _ in METRICS) + ' |')
print('|' + ' --- |' * (len(METRICS) + 3))
for label, rs in sets.items():
    loads = ', '.join(f"{r['load_before']:.1f}→{r['load_after']:.1f}" for r in rs)
    cells = ' | '.join(fmt([f(r) for r in rs], 3 if 'per datagram' in name and 'µs' not in name else 1) for name, f in METRICS)
    print(f'| {label} | {len(rs)} | {loads} | {cells} |')
if 'before' in sets and 'push' in sets:
    b = {r['rep']: r for r in sets['before']}
    a = {r['rep']: r for r in sets['push']}
    reps = sorted(set(a) & set(b))
    print()
    print(f'Paired (push − before, same hold, {len(reps)} pairs, reps {reps}):')
    for name, f in METRICS:
        d = [f(a[k]) - f(b[k]) for k in reps]
        p = 3 if 'per datagram' in name and 'µs' not in name else 1
        print(f'- {name}: {fmt(d, p)} (per pair: ' + ', '.join(f'{x:+.{p}f}' for x in d) + ')')
