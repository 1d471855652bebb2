#!/usr/bin/env python3
"""Prefetch waste as the origin counted it (datagram schemes only; the kernel-TCP origin counts cancelled early
requests, not their bytes): the last MI telemetry line of each `+prefetch` session carries prefetch_requests,
prefetch_cancelled and prefetch_cancelled_bytes_sent (body bytes sent for early requests the player cancelled,
retransmissions included), against the session's sent_bytes. Cancellations after the session's last MI line are not
in it. Usage: origin_waste.py OUT_DIR..."""
import glob, json, os, sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'thesis-setting'))
from tables import fmt  # noqa: E402  (mean ± 95% CI, Student t: one definition for both folders)

per_scheme = defaultdict(lambda: {'player': [], 'origin': []})

print('| run | rendition switches | player: early requests served / cancelled | player: waste bytes | player waste % of bytes received | origin: early requests / cancelled | origin: cancelled body bytes sent | origin: bytes sent | origin waste % of bytes sent |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for out in sys.argv[1:]:
    for line in open(os.path.join(out, 'results.jsonl')):
        r = json.loads(line)
        if not r['scheme'].endswith('+prefetch'):
            continue
        run = os.path.join(out, 'runs', r['scenario'], r['scheme'], str(r['repetition']))
        tel = sorted(glob.glob(os.path.join(run, 'telemetry', '*.jsonl')))
        p = r['players'][0]
        if r.get('prefetch_waste_ratio') is not None:
            per_scheme[r['scheme']]['player'].append(100 * r['prefetch_waste_ratio'])
        player = (f"{r['switch_count']} | {p.get('prefetch_hits')} / {p.get('prefetch_cancelled')} | {r.get('prefetch_waste_bytes')} | "
                  + (f"{100 * r['prefetch_waste_ratio']:.2f}" if r.get('prefetch_waste_ratio') is not None else 'n/a'))
        if not tel:
            print(f"| {r['run_id']} | {player} | n/a (kernel TCP) | | | |")
            continue
        last = {}
        for l in open(tel[0]):
            o = json.loads(l)
            if 'prefetch_requests' in o:
                last = o
        if not last:
            print(f"| {r['run_id']} | {player} | 0 / 0 | 0 | | |")
            continue
        per_scheme[r['scheme']]['origin'].append(100 * last['prefetch_cancelled_bytes_sent'] / last['sent_bytes'])
        print(f"| {r['run_id']} | {player} | {last['prefetch_requests']} / {last['prefetch_cancelled']} | {last['prefetch_cancelled_bytes_sent']} | {last['sent_bytes']} | {100 * last['prefetch_cancelled_bytes_sent'] / last['sent_bytes']:.2f} |")

print('\n| scheme | player waste % of bytes received (mean ± 95% CI) | origin waste % of bytes sent (mean ± 95% CI) |')
print('| --- | --- | --- |')
for scheme, v in per_scheme.items():
    print(f"| {scheme} | {fmt(v['player'], 2)} | {fmt(v['origin'], 2) if v['origin'] else 'n/a (kernel TCP)'} |")
