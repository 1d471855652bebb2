#!/usr/bin/env python3
"""Startup and run figures of bench run directories: python3 summarise.py LABEL OUT_DIR...  -> JSON lines on stdout.

Per run: t90_s and first2s_mbps from linkem's downlink log (startup.py), slow start's end from the origin's
telemetry (time after the session's first record, rate_bps the controller moved to, and the last slow-start MI's
rate), and throughput / goodput / p95 queueing from the run's results.jsonl line."""
import glob, json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from startup import link_log

label = sys.argv[1]
for out in sys.argv[2:]:
    for line in open(os.path.join(out, 'results.jsonl')):
        r = json.loads(line)
        run = os.path.join(out, 'runs', r['scenario'], r['scheme'], str(r['repetition']))
        t90, first2 = link_log(os.path.join(run, 'link-down.log'))
        exit_s = exit_rate = last_ss = target2 = None
        tel = sorted(glob.glob(os.path.join(run, 'telemetry', '*.jsonl')))
        if tel:
            recs = [json.loads(l) for l in open(tel[0])]
            early = [rec['rate_bps'] for rec in recs if rec['t_us'] - recs[0]['t_us'] < 2e6]
            target2 = round(sum(early) / len(early) / 1e6, 1)
            for rec in recs:
                if rec['state'] == 'slow_start':
                    last_ss = rec['rate_bps']
                else:
                    exit_s, exit_rate = (rec['t_us'] - recs[0]['t_us']) / 1e6, rec['rate_bps']
                    break
        f = r.get('fidelity') or {}
        print(json.dumps({
            'label': label, 'run_id': r['run_id'], 'status': r['status'], 'commit': r['provenance']['commit'][:7],
            'dirty': r['provenance']['dirty'], 'started_at': r['started_at'],
            't90_s': t90, 'first2s_mbps': round(first2, 1),
            'slow_start_end_s': exit_s, 'slow_start_last_mbps': last_ss and round(last_ss / 1e6, 1),
            'after_slow_start_mbps': exit_rate and round(exit_rate / 1e6, 1),
            'target_first2s_mbps': target2,
            'throughput_mbps': f.get('real_throughput_mbps') and round(f['real_throughput_mbps'], 1),
            'goodput_mbps': r['goodput_mbps'], 'queue_p95_ms': r['queue_delay_p95_ms'],
            'sim_throughput_mbps': f.get('sim_throughput_mbps') and round(f['sim_throughput_mbps'], 1),
        }))
