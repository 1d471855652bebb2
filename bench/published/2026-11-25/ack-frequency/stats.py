# Tables of summary.md from results.jsonl: per scheme, means with 95% intervals (Student t) without (off) and with (on)
# the ACK-frequency request, and the paired differences (on - off, the two runs of one heavy-lock hold).
# usage: python3 stats.py results.jsonl
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
rows = [json.loads(line) for line in open(sys.argv[1])]

def fmt(xs, p):
    m, h = mean_ci95(xs)
    return f'{m:.{p}f} ± {h:.{p}f}'

# (name, value of a run, decimals)
METRICS = [
    ('client µs/packet', lambda r: r['client_us_per_packet'], 1),
    ('client packets sent per packet', lambda r: r['client_packets_sent'] / r['packets_delivered_down'], 3),
    ('goodput Mbit/s', lambda r: r['goodput_mbps'], 1),
    ('throughput Mbit/s', lambda r: r['throughput_mbps'], 1),
    ('p95 queueing ms', lambda r: r['queue_p95_ms'], 1),
    ('client CPU %', lambda r: r['cpu_percent']['client'], 1),
    ('origin µs/packet', lambda r: r['origin_us_per_packet'], 1),
    ('linkem CPU %', lambda r: r['cpu_percent']['linkem'], 1),
]
for scheme in dict.fromkeys(r['scheme'] for r in rows):
    print(f'### {scheme}\n')
    print('| set | runs | load 1-min before→after | ' + ' | '.join(name for name, _, _ in METRICS) + ' |')
    print('|' + ' --- |' * (len(METRICS) + 3))
    sets = {v: {r['rep']: r for r in rows if r['scheme'] == scheme and r['variant'] == v} for v in ('off', 'on')}
    for v, rs in sets.items():
        if not rs:
            continue
        loads = ', '.join(f"{r['load_before']:.1f}→{r['load_after']:.1f}" for r in rs.values())
        cells = ' | '.join(fmt([f(r) for r in rs.values()], p) for _, f, p in METRICS)
        print(f'| {v} | {len(rs)} | {loads} | {cells} |')
    reps = sorted(set(sets['off']) & set(sets['on']))
    print(f'\nPaired (on − off, same hold, {len(reps)} pairs, reps {reps}):')
    for name, f, p in METRICS:
        d = [f(sets['on'][k]) - f(sets['off'][k]) for k in reps]
        if len(d) > 0:
            print(f'- {name}: {fmt(d, p)} (per pair: ' + ', '.join(f'{x:+.{p}f}' for x in d) + ')')
    frames = sorted({r['quic_ack_frequency_frames_sent'] for r in rows if r['scheme'] == scheme and r['variant'] == 'on'} - {None})
    print(f'\nACK_FREQUENCY frames the origin sent per "on" session: {frames}\n')
