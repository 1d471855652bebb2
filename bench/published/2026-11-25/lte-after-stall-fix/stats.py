#!/usr/bin/env python3
"""This folder's tables: per scheme the means with 95% Student-t intervals and the paired differences (same
repetition), as ../lte-queue-bound-bitrate/stats.py prints them (its functions, loaded by path), and vivace-video's
bitrate over tcp-bbr's and over the better TCP scheme's per repetition. Usage: python3 stats.py results.jsonl"""
import importlib.util
import os
import sys

_spec = importlib.util.spec_from_file_location('bound_bitrate_stats', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lte-queue-bound-bitrate', 'stats.py'))
_tables = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tables)
fmt = _tables._shared.fmt

by = _tables.load(sys.argv[1], lambda r: r['scheme'])
_tables.print_means(by, 'scheme')
print()
_tables.print_pairs(by, [('vivace-video', 'tcp-bbr'), ('vivace-video', 'tcp-cubic')])
print()
print("vivace-video's bitrate over tcp-bbr's and over the better TCP scheme's (per repetition), mean ± 95% t:")
reps = sorted(set(by['vivace-video']) & set(by['tcp-bbr']) & set(by['tcp-cubic']))
bbr = [by['vivace-video'][n]['avg_bitrate_mbps'] / by['tcp-bbr'][n]['avg_bitrate_mbps'] for n in reps]
best = [by['vivace-video'][n]['avg_bitrate_mbps'] / max(by['tcp-bbr'][n]['avg_bitrate_mbps'], by['tcp-cubic'][n]['avg_bitrate_mbps']) for n in reps]
print(f"- over tcp-bbr's {fmt(bbr, 3)} ({', '.join(f'{x:.3f}' for x in bbr)}); over the better TCP's {fmt(best, 3)} ({', '.join(f'{x:.3f}' for x in best)})")
