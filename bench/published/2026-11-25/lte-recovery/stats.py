#!/usr/bin/env python3
"""This folder's tables: per arm (scheme; vivace-video split by video_hold_pre_dip_rate: "held" = its default 1,
"not held" = 0) the means with 95% Student-t intervals and the paired differences (same repetition), as
../lte-queue-bound-bitrate/stats.py prints them (its functions, loaded by path), and the bitrate over tcp-bbr's and
over the better TCP scheme's per repetition. Usage: python3 stats.py results.jsonl"""
import importlib.util
import os
import sys

_spec = importlib.util.spec_from_file_location('bound_bitrate_stats', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lte-queue-bound-bitrate', 'stats.py'))
_tables = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tables)
fmt = _tables._shared.fmt
HELD, NOT_HELD = 'vivace-video (held)', 'vivace-video (not held)'


def arm(r):
    if r['scheme'] != 'vivace-video':
        return r['scheme']
    return NOT_HELD if (r.get('controller_params') or {}).get('video_hold_pre_dip_rate') == 0 else HELD


by = _tables.load(sys.argv[1], arm)
_tables.print_means(by, 'arm')
print()
_tables.print_pairs(by, [(HELD, NOT_HELD), (HELD, 'tcp-bbr'), (NOT_HELD, 'tcp-bbr'), ('vivace', 'tcp-bbr'), (HELD, 'vivace')])
print()
print("Bitrate over tcp-bbr's and over the better TCP scheme's (per repetition), mean ± 95% t:")
for a in [HELD, NOT_HELD, 'vivace']:
    if a not in by or 'tcp-bbr' not in by:
        continue
    reps = sorted(set(by[a]) & set(by['tcp-bbr']))
    ratios = [by[a][n]['avg_bitrate_mbps'] / by['tcp-bbr'][n]['avg_bitrate_mbps'] for n in reps]
    line = f"- {a}: over tcp-bbr's {fmt(ratios, 3)} ({', '.join(f'{x:.3f}' for x in ratios)})"
    both = [n for n in reps if 'tcp-cubic' in by and n in by['tcp-cubic']]
    if both:
        best = [by[a][n]['avg_bitrate_mbps'] / max(by['tcp-bbr'][n]['avg_bitrate_mbps'], by['tcp-cubic'][n]['avg_bitrate_mbps']) for n in both]
        line += f"; over the better TCP's {fmt(best, 3)} ({', '.join(f'{x:.3f}' for x in best)})"
    print(line)
