#!/usr/bin/env python3
"""This folder's real-path tables (issue 18, TMobile-LTE-short, 30-s ABR, one hold per pair): per arm means ± 95 %
Student-t over the pairs and paired differences with ../lte-abr-fix/stats.py's columns and helpers (imported), the
bitrate ratio to tcp-bbr per pair, and the start-up per run with ../lte-fade-cut-regain/why_tmobile.py's analysis
(imported: the first slow-start exit, why, the rate 0.2-0.7 s after it, the first link second at 0.9 x capacity,
rate/capacity in link s 3-9). Arms: vivace-video (its defaults: slow_start_persistent_queue on), vivace-video
slow_start_persistent_queue=0, vivace, tcp-bbr.
Usage: python3 stats_slow_start.py results.jsonl [RAW_DIR]   (RAW_DIR: OUT/tmobile-lte-short of hold.sh, for the start-up)"""
import glob
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'lte-abr-fix'))
from stats import arms_of, interval, print_pairs, print_table, value  # noqa: E402

SCENARIO = 'lte-tmobile-lte-short'
VV, OFF = 'vivace-video', 'vivace-video slow_start_persistent_queue=0'
ORDER = [VV, OFF, 'vivace', 'tcp-bbr']
PAIRS = [(VV, OFF), (VV, 'vivace'), (VV, 'tcp-bbr'), (OFF, 'tcp-bbr'), ('vivace', 'tcp-bbr')]
RAW_ARMS = [('vv', 'vivace-video'), ('vv-off', 'vivace-video'), ('v', 'vivace')]


def load_why_tmobile():
    spec = importlib.util.spec_from_file_location('why_tmobile', os.path.join(HERE, '..', 'lte-fade-cut-regain', 'why_tmobile.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    arms = arms_of(rows, SCENARIO)
    print(f'{SCENARIO} (30 s, ABR)\n')
    print_table(arms, ORDER)
    print_pairs(arms, PAIRS)
    print('\nAverage bitrate / tcp-bbr\'s, per pair:\n')
    for a in [a for a in (VV, OFF, 'vivace') if a in arms and 'tcp-bbr' in arms]:
        reps = sorted(set(arms[a]) & set(arms['tcp-bbr']))
        ratios = [value(arms[a][n], 'avg_bitrate_mbps') / value(arms['tcp-bbr'][n], 'avg_bitrate_mbps') for n in reps]
        print(f"- {a}: {interval(ratios, 3)} ({', '.join(f'{v:.3f}' for v in ratios)})")
    if len(sys.argv) < 3:
        return
    why = load_why_tmobile()
    print('\nStart-up per run (why_tmobile.py): first slow-start exit link s, why, exiting MI Mbit/s, its delivery, RTT '
          'gradient, rate 0.2-0.7 s after, first link s at 0.9 x capacity, median rate/capacity in link s 3-9\n')
    print('| run | exit s | why | exiting MI | delivered | gradient | rate 0.2-0.7 s after | 0.9 cap at s | rate/cap s 3-9 |')
    print('| --- ' * 9 + '|')
    per_arm = {}
    for arm, scheme in RAW_ARMS:
        for run in sorted(glob.glob(os.path.join(sys.argv[2], arm, 'runs', SCENARIO, scheme, '*'))):
            r = why.analyse(run, True)
            e = r['exit'] or {}
            per_arm.setdefault(arm, []).append(r)
            print(f"| {arm}-{os.path.basename(run)} | {why.fmt(e.get('s'), 1)} | {e.get('why', '–')} | "
                  f"{why.fmt(e.get('mir'), 1)} | {why.fmt(e.get('thr'), 1)} | {why.fmt(e.get('g'), 2)} | "
                  f"{why.fmt(e.get('base'), 1)} | {why.fmt(r['reach'], 0)} | {why.fmt(r['early'], 2)} |")
    print('\n| arm | rate 0.2-0.7 s after the exit | 0.9 cap at s | rate/cap s 3-9 |')
    print('| --- | --- | --- | --- |')
    for arm, rs in per_arm.items():
        base = [r['exit']['base'] for r in rs if r['exit'] and r['exit']['base'] is not None]
        print(f"| {arm} | {why.ci(base)} | {why.ci([r['reach'] for r in rs if r['reach'] is not None], 0)} | "
              f"{why.ci([r['early'] for r in rs if r['early'] is not None], 2)} |")


if __name__ == '__main__':
    main()
