#!/usr/bin/env python3
"""Per-MI table around slow start's exit, from pcc-replay --mi (open-loop: the recorded acks, the controller's
decisions recomputed).  python3 exit_mis.py PCC_REPLAY RECORDING... -> markdown tables + one JSON line per run.
Slow start = the MIs whose targets double-ish and rise; the exit = the first MI whose target is below the highest
before it. Drain MI = the first post-exit MI that sent under 0.7 x the next MIs' target. Rates in Mbit/s of payload
(the controller's unit; x ~1.05 for IP)."""
import json, subprocess, sys

def mis(tool, rec):
    out = subprocess.run(['nice', '-n', '10', tool, '--mi', rec], capture_output=True, text=True).stdout
    return [json.loads(l) for l in out.splitlines() if l.startswith('{')]

tool = sys.argv[1]
for rec in sys.argv[2:]:
    rows = mis(tool, rec)
    t0 = rows[0]['startUs']
    peak = 0; exit_i = None
    for i, r in enumerate(rows):
        if r['targetRateBps'] < peak * 0.9 and exit_i is None: exit_i = i
        peak = max(peak, r['targetRateBps'])
    print('\n' + rec.split('/runs/')[-1].split('/record')[0])
    print('| MI | start s | ms | target | sent | delivered | gradient | lost | avg/min RTT ms | utility |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for r in rows[max(0, exit_i - 5):exit_i + 6]:
        print('| %d | %.3f | %d | %.1f | %.1f | %.1f | %.3f | %d | %.1f/%.1f | %.1f |' % (r['id'], (r['startUs'] - t0) / 1e6,
              r['durationUs'] // 1000, r['targetRateBps'] / 1e6, r['sendRateBps'] / 1e6, r['throughputBps'] / 1e6,
              r['rttGradient'], r['packetsLost'], r['avgRttUs'] / 1e3, r['minRttUs'] / 1e3, r['utility']))
    pre = rows[:exit_i]
    post = [r for r in rows[exit_i:] if r['startUs'] - t0 < 2e6]
    later = [r for r in rows[exit_i + 1:exit_i + 30]]
    w = lambda rs, k: sum(r[k] * r['durationUs'] for r in rs) / max(1, sum(r['durationUs'] for r in rs)) / 1e6
    print(json.dumps({'run': rec.split('/runs/')[-1].split('/record')[0], 'exit_s': round((rows[exit_i]['startUs'] - t0) / 1e6, 3),
        'ss_peak_target': round(max(r['targetRateBps'] for r in pre) / 1e6, 1),
        'ss_max_sent': round(max(r['sendRateBps'] for r in pre) / 1e6, 1),
        'ss_max_delivered': round(max(r['throughputBps'] for r in pre) / 1e6, 1),
        'first_post_exit_sent': round(rows[exit_i]['sendRateBps'] / 1e6, 1), 'first_post_exit_ms': rows[exit_i]['durationUs'] // 1000,
        'post_exit_targets_min_max': [round(min(r['targetRateBps'] for r in later) / 1e6, 1), round(max(r['targetRateBps'] for r in later) / 1e6, 1)],
        'target_exit_to_2s': round(w(post, 'targetRateBps'), 1), 'sent_exit_to_2s': round(w(post, 'sendRateBps'), 1)}))
