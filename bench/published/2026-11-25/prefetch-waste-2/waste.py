#!/usr/bin/env python3
"""Prefetch waste per run and per scheme: the player's count (bytes received for early requests dash.js never used,
results.jsonl) and the origin's (origin-counts.jsonl: bytes sent for early requests cancelled while still being
sent). Since the prefix is small, most unused prefixes had been sent whole before the switch: the origin saw no
cancellation for them and only the player's count has them. So the bytes sent as waste are bounded by
origin cancelled bytes sent + player waste bytes (an upper bound: a prefix cancelled in flight is in both), over the
origin's bytes sent. The kernel-TCP origin of these runs counted no bytes: player's figure only.
Usage: waste.py results.jsonl origin-counts.jsonl"""
import json, os, sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'thesis-setting'))
from tables import fmt  # noqa: E402  (mean ± 95% CI, Student t)

origin = {o['run_id']: o for o in map(json.loads, open(sys.argv[2]))}
per = defaultdict(lambda: defaultdict(list))
print('| run | commit | switches | player: early requests served / cancelled | player: waste bytes | player % of bytes received | origin: early requests / cancelled | origin: cancelled bytes sent | origin: bytes sent | origin % of bytes sent | bound: (origin cancelled + player waste) % of bytes sent |')
print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
for r in map(json.loads, open(sys.argv[1])):
    if not r['scheme'].endswith('+prefetch'):
        continue
    p, o = r['players'][0], origin.get(r['run_id'], {})
    player_pct = 100 * r['prefetch_waste_ratio']
    per[r['scheme']]['player'].append(player_pct)
    row = f"| {r['run_id']} | {r['provenance']['commit'][:7]} | {r['switch_count']} | {p['prefetch_hits']} / {p['prefetch_cancelled']} | {r['prefetch_waste_bytes']} | {player_pct:.2f} |"
    if 'sent_bytes' not in o:
        print(row + ' n/a (kernel TCP) | | | | |')
        continue
    origin_pct = 100 * o['prefetch_cancelled_bytes_sent'] / o['sent_bytes']
    bound_pct = 100 * (o['prefetch_cancelled_bytes_sent'] + r['prefetch_waste_bytes']) / o['sent_bytes']
    per[r['scheme']]['origin'].append(origin_pct)
    per[r['scheme']]['bound'].append(bound_pct)
    print(row + f" {o['prefetch_requests']} / {o['prefetch_cancelled']} | {o['prefetch_cancelled_bytes_sent']} | {o['sent_bytes']} | {origin_pct:.2f} | {bound_pct:.2f} |")
print('\n| scheme | player % of bytes received | origin % of bytes sent | bound % of bytes sent |')
print('| --- | --- | --- | --- |')
for scheme, v in per.items():
    na = 'n/a (kernel TCP)'
    print(f"| {scheme} | {fmt(v['player'], 2)} | {fmt(v['origin'], 2) if v['origin'] else na} | {fmt(v['bound'], 2) if v['bound'] else na} |")
