#!/usr/bin/env python3
"""Each AbandonRequestRule switch in the per-segment ABR records: the run, when, from -> to, the throughput dash.js's rule
measured on the abandoned request, the previous and next segments' path rates, the buffer before, and the rule of the
switch that chose the abandoned segment's rendition. Usage: python3 abandons.py SEGDIR [SEGDIR ...]"""
import glob
import json
import os
import sys

for segdir in sys.argv[1:]:
    for f in sorted(glob.glob(os.path.join(segdir, '**', '*.jsonl'), recursive=True)):
        run = '/'.join(f[:-len('.jsonl')].split(os.sep)[-2:])
        recs = [json.loads(l) for l in open(f) if l.strip()]
        last_switch = None
        for i, x in enumerate(recs):
            if x['kind'] == 'switch':
                msg = str(x.get('reason'))
                if 'AbandonRequest' in msg:
                    segs_before = [s for s in recs[:i] if s['kind'] == 'segment' and not s['abandoned'] and s.get('pathKbps')]
                    segs_after = [s for s in recs[i:] if s['kind'] == 'segment' and not s['abandoned'] and s.get('pathKbps')]
                    ab = [s for s in recs[:i + 3] if s['kind'] == 'segment' and s['abandoned']]
                    print(json.dumps(dict(
                        records=segdir, run=run, at_s=round(x['atMs'] / 1000, 2), from_kbps=x['fromKbps'], to_kbps=x['toKbps'],
                        measured_kbps=(x.get('reason') or {}).get('throughputInKbit'),
                        prev_path_kbps=[round(s['pathKbps']) for s in segs_before[-3:]],
                        next_path_kbps=[round(s['pathKbps']) for s in segs_after[:5]],
                        buffer_s_before=segs_before[-1]['bufferS'] if segs_before else None,
                        chosen_by=last_switch)))
                else:
                    last_switch = [round(x['atMs'] / 1000, 2), x['fromKbps'], x['toKbps'], msg[msg.find('[') + 1:msg.find(']')] if '[' in msg else msg[:60]]
