#!/usr/bin/env python3
"""sim_lte.sh's runs: one JSON line per run, then per trace and value the paired difference to value 0.
  python3 sim_lte.py rows OUT_DIR > sim-lte.jsonl
  python3 sim_lte.py table sim-lte.jsonl VALUE...
Per run: 40-s throughput, the first 2 s, 2-10 s and 10-40 s (the CSV's 50-ms samples), p95 RTT, loss, and the base
rate (pacing 100 ms after the first sample out of slow start). The unit of the interval is the trace window (the 3 seeds
of a window averaged first: a seed changes only the send jitter, so they are not independent draws)."""
import csv, glob, json, os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402

METRICS = ['throughput_mbps', 'first2s_mbps', 's2_10_mbps', 's10_40_mbps', 'p95_rtt_ms', 'loss_rate', 'base_mbps']

def rows(out):
    for j in sorted(glob.glob(os.path.join(out, '*.json'))):
        m = re.match(r'(.+)-o(\d+)-s(\d+)-r(\d+)\.json$', os.path.basename(j))
        flow = json.load(open(j))['flows'][0]
        c = list(csv.DictReader(open(j[:-5] + '.csv')))
        thr = [float(x['throughput_mbps']) for x in c]
        first = next((i for i, x in enumerate(c) if x['cc_state'] != 'slow_start'), None)
        print(json.dumps({'trace': m[1], 'offset_s': int(m[2]), 'seed': int(m[3]), 'value': int(m[4]),
                          'throughput_mbps': flow['throughput_mbps'], 'first2s_mbps': round(sum(thr[:40]) / 40, 3),
                          's2_10_mbps': round(sum(thr[40:200]) / 160, 3), 's10_40_mbps': round(sum(thr[200:800]) / 600, 3),
                          'p95_rtt_ms': flow['p95_rtt_ms'], 'loss_rate': flow['loss_rate'],
                          'base_mbps': float(c[first + 2]['pacing_rate_mbps']) if first is not None else None}))

def table(path, values):
    rs = [json.loads(line) for line in open(path)]
    key = {(r['trace'], r['offset_s'], r['seed'], r['value']): r for r in rs}
    for v in values:
        print(f'\n### value {v} − value 0 (mean over 11 windows ± 95 % t; runs lower of 33)\n')
        print('| trace | ' + ' | '.join(METRICS) + ' |')
        print('| --- |' + ' --- |' * len(METRICS))
        for t in sorted({r['trace'] for r in rs}):
            offs = sorted({r['offset_s'] for r in rs if r['trace'] == t})
            cells = []
            for m in METRICS:
                per_run = [key[(t, o, s, v)][m] - key[(t, o, s, 0)][m] for o in offs for s in (1, 2, 3)]
                per_win = [sum(key[(t, o, s, v)][m] - key[(t, o, s, 0)][m] for s in (1, 2, 3)) / 3 for o in offs]
                mean, half = mean_ci95(per_win)
                cells.append(f'{mean:+.3g} ± {half:.2g} ({sum(d < 0 for d in per_run)})')
            print(f'| {t} | ' + ' | '.join(cells) + ' |')

if __name__ == '__main__':
    if sys.argv[1:2] == ['rows']: rows(sys.argv[2])
    elif sys.argv[1:2] == ['table']: table(sys.argv[2], [int(v) for v in sys.argv[3:]])
    else: sys.exit(__doc__)
