#!/usr/bin/env python3
"""Per run, from its abr-segments-player-1.jsonl (player/src/metrics/abr-segment-log.ts): the abandonments, the first
up-switch after the last one and how long after it came, the estimate then, and the segments fetched twice (dash.js
replacing buffered segments at a higher rendition). Session seconds. Usage: python3 abandon_upswitch.py NAME=RUNDIR..."""
import json
import os
import sys

print('| run | abandonments (s, from→to) | first up-switch after the last (s, from→to, rule) | after the abandonment s | segments fetched twice |')
print('| --- | --- | --- | --- | --- |')
for spec in sys.argv[1:]:
    name, run = spec.split('=', 1)
    recs = [json.loads(line) for line in open(os.path.join(run, 'abr-segments-player-1.jsonl'))]
    switches = sorted((r for r in recs if r['kind'] == 'switch'), key=lambda r: r['atMs'])
    abandons = [s for s in switches if 'Abandon' in str(s.get('reason') or '')]
    last = abandons[-1]['atMs'] if abandons else None
    up = next((s for s in switches if last is not None and s['atMs'] > last and (s['toKbps'] or 0) > (s['fromKbps'] or 0)), None)
    indices = [r['index'] for r in recs if r['kind'] == 'segment' and r['index'] is not None and not r['abandoned']]
    twice = len(indices) - len(set(indices))
    ab = ', '.join(f"{s['atMs'] / 1000:.2f} ({s['fromKbps']}→{s['toKbps']})" for s in abandons) or 'none'
    if up is None:
        upc, after = ('none' if abandons else '–'), ''
    else:
        reason = up.get('reason') or {}
        rule = 'BolaRule' if 'state' in reason and 'BOLA' in str(reason['state']) else str(reason.get('message', ''))[1:].split(']')[0] or '?'
        upc, after = f"{up['atMs'] / 1000:.2f} ({up['fromKbps']}→{up['toKbps']}, {rule})", f"{(up['atMs'] - last) / 1000:.2f}"
    print(f'| {name} | {ab} | {upc} | {after} | {twice} |')
