#!/usr/bin/env python3
"""Per run of the 2x2 (latency term b, moving): linkem throughput, goodput, p95 queueing, and from the recording the
MI target / sent rate (after 2 s, weighted by MI duration), lossy MIs, lossless MIs with an RTT-gradient penalty.
Usage: collect.py RUNS_DIR PCC_REPLAY > results.jsonl"""
import sys, json, glob, os, subprocess
runs, replay = sys.argv[1], sys.argv[2]
def mis(path):
    out = subprocess.run([replay, '--mi', path], capture_output=True, text=True, check=True).stdout
    return [json.loads(l) for l in out.splitlines()]
for d in sorted(glob.glob(os.path.join(runs, '[A-Z]-[0-9]'))):
    inv = os.path.basename(d)
    for l in open(os.path.join(d, 'results.jsonl')):
        r = json.loads(l)
        p = r.get('controller_params') or {}
        b_on = r['scheme'] == 'vivace'
        moving = p.get('moving', 1 if r['scheme'] == 'vivace-loss' else 0)
        cond = r['scheme'] + ''.join(f' {k}={v}' for k, v in sorted(p.items()))
        row = {'invocation': inv, 'repetition': int(inv.split('-')[1]), 'scheme': r['scheme'], 'controller_params': p,
               'condition': cond, 'latency_term': b_on, 'moving': moving, 'goodput_mbps': r['goodput_mbps'],
               'throughput_mbps': (r.get('fidelity') or {}).get('real_throughput_mbps'),
               'sim_throughput_mbps': (r.get('fidelity') or {}).get('sim_throughput_mbps'),
               'cpu_mean_percent': (r.get('fidelity') or {}).get('cpu_mean_percent'),
               'cpu_wait_mean_percent': (r.get('fidelity') or {}).get('cpu_wait_mean_percent'),
               'queue_delay_p95_ms': r['queue_delay_p95_ms'], 'started_at': r['started_at'],
               'commit': (r.get('provenance') or {}).get('commit')}
        rec = glob.glob(os.path.join(d, 'runs', r['run_id'], 'record', '*.replay'))
        if rec:
            ms = mis(rec[0]); t0 = ms[0]['startUs']
            ms = [m for m in ms if m['startUs'] - t0 > 2e6 and not m['appLimited'] and not m['timedOut'] and m['sendRateBps'] > 0]
            w = sum(m['durationUs'] for m in ms)
            tw = lambda k: sum(m[k] * m['durationUs'] for m in ms) / w / 1e6
            lossy = sum(m['packetsLost'] > 0 for m in ms)
            # a lossless MI's utility below x^0.9 - 4.5x carries a latency penalty (gradient >= 0.01 costs >= 9x; the
            # smoothed loss term of a lossless MI is ~0.1x at 1% average loss)
            pen = sum(m['packetsLost'] == 0 and m['utility'] < (m['sendRateBps'] * 1e-6) ** 0.9 - 4.5 * m['sendRateBps'] * 1e-6 for m in ms)
            row.update({'mi_target_mbps': round(tw('targetRateBps'), 2), 'mi_sent_mbps': round(tw('sendRateBps'), 2),
                        'mi_throughput_mbps': round(tw('throughputBps'), 2), 'mis': len(ms),
                        'lossy_mi_pct': round(100 * lossy / len(ms), 1), 'lossless_penalised_mi_pct': round(100 * pen / len(ms), 1),
                        'recording': os.path.relpath(rec[0], runs)})
        print(json.dumps(row))
