#!/usr/bin/env python3
"""rate-vs-capacity.svg: one pair of the real path, per link second (../lte-att/timeline.py's output, run as a
subprocess): the trace's capacity, each arm's delivered rate, the controller's mean rate (datagram arms) and the p95
queueing delay. Usage: python3 plot_pair.py OUT.svg TITLE NAME=RUN_DIR...  (RUN_DIR: runs/SCENARIO/SCHEME/N)"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TIMELINE = os.path.join(HERE, '..', 'lte-att', 'timeline.py')
COLORS = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e']


def seconds(run):
    out = subprocess.run([sys.executable, TIMELINE, run], check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        p = line.split()
        if len(p) >= 8 and p[0].isdigit():
            rows.append({'s': int(p[0]), 'cap': float(p[1]), 'deliv': float(p[3]), 'p95q': float(p[6]),
                         'ctl': None if p[7] == '-' else float(p[7])})
    return rows


def main():
    out_path, title, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
    arms = [(spec.split('=', 1)[0], seconds(spec.split('=', 1)[1])) for spec in specs]
    W, H, L, T, PH = 960, 560, 60, 40, 220
    end = max(r['s'] for _, rows in arms for r in rows)
    rmax = max(max(r['cap'], r['ctl'] or 0) for _, rows in arms for r in rows)
    rmax = min(rmax, 20.0)
    qmax = max(r['p95q'] for _, rows in arms for r in rows) or 1
    x = lambda s: L + (W - L - 20) * s / end  # noqa: E731
    y1 = lambda v: T + PH - PH * min(v, rmax) / rmax  # noqa: E731
    y2 = lambda v: T + PH + 60 + PH - PH * v / qmax  # noqa: E731
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<text x="{L}" y="20">{title}</text>',
           f'<text x="{L}" y="{T - 5}">Mbit/s per link second: capacity (grey), controller rate (solid), delivered (dashed)</text>',
           f'<text x="{L}" y="{T + PH + 55}">p95 queueing delay per link second, ms (max {qmax:.0f})</text>']
    for base, top in ((T, T + PH), (T + PH + 60, T + 2 * PH + 60)):
        svg.append(f'<line x1="{L}" y1="{top}" x2="{W - 20}" y2="{top}" stroke="black"/>')
        svg.append(f'<line x1="{L}" y1="{base}" x2="{L}" y2="{top}" stroke="black"/>')
    for s in range(0, end + 1, 5):
        svg.append(f'<text x="{x(s) - 5:.0f}" y="{T + 2 * PH + 78}">{s}</text>')
    svg.append(f'<text x="{L - 45}" y="{T + 10}">{rmax:.0f}</text><text x="{L - 20}" y="{T + PH}">0</text>')
    cap = arms[0][1]
    svg.append('<polyline fill="none" stroke="#999" stroke-width="4" points="' +
               ' '.join(f'{x(r["s"]):.1f},{y1(r["cap"]):.1f}' for r in cap) + '"/>')
    for i, (name, rows) in enumerate(arms):
        c = COLORS[i % len(COLORS)]
        ctl = [r for r in rows if r['ctl'] is not None]
        if ctl:
            svg.append(f'<polyline fill="none" stroke="{c}" stroke-width="1.5" points="' +
                       ' '.join(f'{x(r["s"]):.1f},{y1(r["ctl"]):.1f}' for r in ctl) + '"/>')
        svg.append(f'<polyline fill="none" stroke="{c}" stroke-dasharray="4,3" points="' +
                   ' '.join(f'{x(r["s"]):.1f},{y1(r["deliv"]):.1f}' for r in rows) + '"/>')
        svg.append(f'<polyline fill="none" stroke="{c}" points="' +
                   ' '.join(f'{x(r["s"]):.1f},{y2(r["p95q"]):.1f}' for r in rows) + '"/>')
        svg.append(f'<text x="{W - 200}" y="{T + 15 + 15 * i}" fill="{c}">{name}</text>')
    svg.append('</svg>')
    with open(out_path, 'w') as f:
        f.write('\n'.join(svg) + '\n')


if __name__ == '__main__':
    main()
