#!/usr/bin/env python3
"""bitrate.svg: per arm, mean average bitrate and p95 queueing delay with 95 % Student-t whiskers (../../student_t.py),
one panel per scenario in results.jsonl. Usage: python3 plot.py results.jsonl OUT.svg"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402
from stats import arm  # noqa: E402  (the arm names of this folder's table)

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
ORDER = ['vivace-video', 'vivace-video dash.js ABR', 'vivace-video regain_without_queue=1', 'vivace', 'tcp-bbr',
         'tcp-bbr dash.js ABR', 'tcp-cubic']
scenarios = sorted({r['scenario'] for r in rows}, key=lambda s: 'verizon' not in s)
METRICS = [('avg_bitrate_mbps', 'avg bitrate, Mbit/s', 5), ('queue_delay_p95_ms', 'p95 queueing delay, ms', 800)]
W, PH, LEFT, BAR = 900, 230, 250, 20
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{40 + len(scenarios) * len(METRICS) * PH}" font-family="sans-serif" font-size="12">']
y0 = 30
for sc in scenarios:
    for key, label, top in METRICS:
        out.append(f'<text x="10" y="{y0}" font-weight="bold">{sc}: {label} (mean, 95 % t)</text>')
        by = {}
        for r in rows:
            if r['scenario'] == sc and r['status'] == 'ok' and r['players']:
                by.setdefault(arm(r), []).append(r[key])
        names = [a for a in ORDER if a in by]
        scale = (W - LEFT - 40) / top
        for i, a in enumerate(names):
            m, h = mean_ci95(by[a]) if len(by[a]) > 1 else (by[a][0], 0.0)
            y = y0 + 15 + i * (BAR + 6)
            color = '#c0392b' if a.startswith('vivace-video') else '#7f8c8d' if a.startswith('tcp') else '#2980b9'
            out.append(f'<text x="{LEFT - 6}" y="{y + 14}" text-anchor="end">{a} (n={len(by[a])})</text>')
            out.append(f'<rect x="{LEFT}" y="{y}" width="{min(m, top) * scale:.1f}" height="{BAR}" fill="{color}" opacity="0.75"/>')
            lo, hi = max(0.0, m - h), min(top, m + h)
            out.append(f'<line x1="{LEFT + lo * scale:.1f}" x2="{LEFT + hi * scale:.1f}" y1="{y + BAR / 2}" y2="{y + BAR / 2}" stroke="black"/>')
            out.append(f'<text x="{LEFT + min(hi, top) * scale + 4:.1f}" y="{y + 14}">{m:.2f}</text>' if key == 'avg_bitrate_mbps'
                       else f'<text x="{LEFT + min(hi, top) * scale + 4:.1f}" y="{y + 14}">{m:.0f}</text>')
        y0 += PH
out.append('</svg>')
open(sys.argv[2], 'w').write('\n'.join(out) + '\n')
