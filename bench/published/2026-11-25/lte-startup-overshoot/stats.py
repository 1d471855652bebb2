#!/usr/bin/env python3
"""This folder's tables: per variant (scheme, with vivace-video split by video_startup_full_latency: "start-up full
latency" = 1, "scaled" = 0) the means with 95% Student-t intervals and the paired differences (same repetition), as
../lte-queue-bound-bitrate/stats.py prints them (its functions, loaded by path), and each vivace-video arm's bitrate
over tcp-bbr's and over the better TCP scheme's per repetition. Usage: python3 stats.py results.jsonl"""
import importlib.util
import os
import sys

_spec = importlib.util.spec_from_file_location('bound_bitrate_stats', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lte-queue-bound-bitrate', 'stats.py'))
_tables = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tables)
fmt = _tables._shared.fmt
ON, OFF = 'vivace-video (start-up full latency)', 'vivace-video (scaled)'


def variant(r):
    if r['scheme'] != 'vivace-video':
        return r['scheme']
    return ON if (r.get('controller_params') or {}).get('video_startup_full_latency') == 1 else OFF


by = _tables.load(sys.argv[1], variant)
_tables.print_means(by, 'variant')
print()
_tables.print_pairs(by, [(ON, OFF), (ON, 'tcp-bbr'), (OFF, 'tcp-bbr'), (ON, 'tcp-cubic'), (OFF, 'tcp-cubic')], ratio_to='tcp-bbr')
print()
print("Bitrate over the better TCP scheme's (per repetition), mean ± 95% t:")
for arm in (ON, OFF):
    reps = sorted(set(by.get(arm, {})) & set(by.get('tcp-bbr', {})) & set(by.get('tcp-cubic', {})))
    if not reps:
        continue
    best = [by[arm][n]['avg_bitrate_mbps'] / max(by['tcp-bbr'][n]['avg_bitrate_mbps'], by['tcp-cubic'][n]['avg_bitrate_mbps']) for n in reps]
    print(f"- {arm}: {fmt(best, 3)} ({', '.join(f'{x:.3f}' for x in best)})")
