#!/usr/bin/env python3
"""Replay of the page's new estimate over last session's logged samples: the per-segment tables of
../lte-abr-switch-up/table.md (on-2: vivace-video with regain_without_queue=1, seed 2; bbr-1: tcp-bbr, seed 1; raw runs
not kept). Per segment: dash.js's EWMA estimate as logged and the harmonic mean of the last 5 stored samples (the
samples before the table's first row are unknown, so the mean starts at its 5th row), and whether 0.9 x it clears the
2000 kbit/s rung. Times are session seconds; an abandonment locks up-switches for 10 s (dash.js) or 4 s (the page).
Usage: python3 replay_harmonic.py [../lte-abr-switch-up/table.md]"""
import os
import re
import sys

path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lte-abr-switch-up', 'table.md')
SAMPLES, SAFETY, RUNG = 5, 0.9, 2000
section = None
runs = {}
for line in open(path):
    m = re.match(r'^## (\S+) \(', line)
    if m:
        section = m.group(1)
        runs[section] = []
        continue
    if section and line.startswith('| ') and re.match(r'^\| \d', line):
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        runs[section].append(cells)
for name, rows in runs.items():
    print(f'\n{name}: request s, rendition, stored sample kbit/s, dash.js estimate, harmonic-{SAMPLES} estimate, 0.9 x harmonic clears {RUNG}')
    stored = []
    abandon_at = None
    for cells in rows:
        if cells[1].startswith('switch'):
            if 'Abandon' in cells[1]:
                abandon_at = float(cells[0])
                print(f'  {cells[0]:>6} {cells[1][:40]}  (locked to {abandon_at + 10:.2f} s by dash.js, {abandon_at + 4:.2f} s by the page)')
            continue
        stored.append(float(cells[7]))
        harmonic = len(stored[-SAMPLES:]) / sum(1 / v for v in stored[-SAMPLES:]) if len(stored) >= SAMPLES else None
        h = f'{harmonic:7.0f}' if harmonic is not None else '      –'
        clears = '' if harmonic is None else ('yes' if SAFETY * harmonic >= RUNG else 'no')
        print(f'  {cells[0]:>6} {cells[1]:>16} {float(cells[7]):7.0f} {float(cells[8]):7.0f} {h} {clears}')
