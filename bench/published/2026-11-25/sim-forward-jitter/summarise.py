"""Tables for summary.md: python3 bench/published/2026-11-25/sim-forward-jitter/summarise.py (from the repository root).
Simulator sweep from sim-sweep.jsonl (sweep.sh); real-path pairs from results.jsonl (bench merge of the six runs)."""
import collections
import json
import os
import statistics as st
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)


def mean_ci(values):
    if len(values) < 2:
        return f'{values[0]:.2f}'
    return '{:.2f} ± {:.2f}'.format(*mean_ci95(values))


def sweep():
    groups = collections.defaultdict(list)
    with open(os.path.join(HERE, 'sim-sweep.jsonl')) as f:
        for line in f:
            d = json.loads(line)
            groups[(d['cc_params'] or 'default', d['buffer_bytes'], d['jitter_sd_us'], d['jitter_tau_us'])].append(d)
    print('| vivace params | buffer | jitter_sd_us | jitter_tau_us | seeds | throughput Mbit/s | p95 queueing ms | median \\|g\\| | p90 \\|g\\| |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for (params, buffer, sd, tau), runs in groups.items():
        print(f"| {params} | {'75 KB' if buffer == 75000 else '1 MB'} | {sd} | {tau} | {len(runs)} | "
              f"{mean_ci([r['throughput_mbps'] for r in runs])} | {mean_ci([r['queue_p95_ms'] for r in runs])} | "
              f"{st.median(r['abs_rtt_gradient_median'] for r in runs):.4f} | {st.median(r['abs_rtt_gradient_p90'] for r in runs):.4f} |")


def real():
    path = os.path.join(HERE, 'results.jsonl')
    if not os.path.exists(path):
        return
    groups = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            d = json.loads(line)
            params = ','.join(f'{k}={v}' for k, v in sorted(d['controller_params'].items())) or 'default'
            groups[params].append(d)
    print()
    print('| vivace params | runs | goodput Mbit/s | bottleneck throughput Mbit/s | p95 queueing ms | paired sim Mbit/s |')
    print('| --- | --- | --- | --- | --- | --- |')
    for params, runs in groups.items():
        fid = [r['fidelity'] for r in runs]
        print(f"| {params} | {len(runs)} | {mean_ci([r['goodput_mbps'] for r in runs])} | "
              f"{mean_ci([x['real_throughput_mbps'] for x in fid])} | {mean_ci([r['queue_delay_p95_ms'] for r in runs])} | "
              f"{mean_ci([x['sim_throughput_mbps'] for x in fid])} |")


sweep()
real()
