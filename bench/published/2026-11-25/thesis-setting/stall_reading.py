#!/usr/bin/env python3
"""Per datagram run of a bench output dir: what the controller saw against what the link did. From the origin's MI
telemetry: srtt (median, max), the longest stretch of MIs with zero measured throughput, the largest bytes in flight;
from linkem's link-summary.json: the downlink queue's p95/max delay and drops, the uplink's p95 delay; from the
origin's session.stall_reasons: time the sender waited on each reason. Usage: stall_reading.py OUT_DIR..."""
import glob, json, os, statistics, sys

print('| run | buffering % | srtt median ms | srtt max ms | min RTT ms | longest zero-throughput stretch s | max in flight KB | down queue p95 / max ms | down queue drops % | up queue p95 ms | origin: descheduled / receiver-window / silent-peer / event-loop-busy ms | event-loop delay p99 ms |')
print('| --- ' * 12 + '|')
for out in sys.argv[1:]:
    for line in open(os.path.join(out, 'results.jsonl')):
        r = json.loads(line)
        run = os.path.join(out, 'runs', r['scenario'], r['scheme'], str(r['repetition']))
        tel = sorted(glob.glob(os.path.join(run, 'telemetry', '*.jsonl')))
        if not tel:
            continue
        mi = [json.loads(l) for l in open(tel[0])]
        srtt = [o['srtt_us'] / 1000 for o in mi if o['srtt_us'] > 0]
        zero, start, longest = False, 0, 0
        for o in mi:
            if o['throughput_bps'] == 0 and o['t_ms'] > 3000:
                if not zero: zero, start = True, o['t_ms']
                longest = max(longest, o['t_ms'] - start)
            else:
                zero = False
        link = json.load(open(os.path.join(run, 'link-summary.json')))
        d, u = link['down'], link['up']
        sr = {}
        for l in open(os.path.join(run, 'origin.log')):
            if 'session.stall_reasons' in l:
                sr = json.loads(l)
        print(f"| {r['run_id']} | {100 * (r['buffering_ratio'] or 0):.2f} | {statistics.median(srtt):.0f} | {max(srtt):.0f} | {min(o['min_rtt_us'] for o in mi if o['min_rtt_us'] > 0) / 1000:.0f} | {longest / 1000:.1f} | {max(o['bytes_in_flight'] for o in mi) / 1000:.0f} | {d['queueDelayMs']['p95']:.0f} / {d['queueDelayMs']['max']:.0f} | {100 * d['queueDropPackets'] / max(1, d['ingressPackets']):.1f} | {u['queueDelayMs']['p95']:.1f} | {sr.get('stall_descheduled_ms', 0)} / {sr.get('stall_receiver_window_ms', 0)} / {sr.get('stall_silent_peer_ms', 0)} / {sr.get('stall_event_loop_busy_ms', 0)} | {sr.get('event_loop_delay_p99_ms', '')} |")
