#!/usr/bin/env python3
"""This folder's real-path A/B (run_holds.sh): vv (vivace-video, video_starved_restart_lowest_rtt=1) vs vvmean (=0).
  ab.py collect OUT            -> results.jsonl (the bench's rows, each with its arm) and runs.jsonl (per run: on-screen
                                  bitrate, buffering ratio, p95 queueing delay at linkem, time at <= 0.12 Mbit/s from
                                  ../lte-standing-f0e86dab/floor_time.py, 1-min load at the run's start from holds.jsonl)
  ab.py table runs.jsonl       -> per trace: each arm's mean +- 95 % Student-t and the paired difference vv - vvmean"""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..'))
sys.path.insert(0, os.path.join(HERE, '..', 'lte-standing-f0e86dab'))
from student_t import mean_ci95  # noqa: E402
from floor_time import floor_time  # noqa: E402

ARMS = ('vv', 'vvmean')
METRICS = (('played_bitrate_mbps', 'on-screen Mbit/s', 2), ('buffering_pct', 'buffering %', 2),
           ('queue_delay_p95_ms', 'p95 queueing ms', 0), ('floor_s', 's at ≤ 0.12 Mbit/s', 2))


def loads():
    starts = {}
    for line in open(os.path.join(HERE, 'holds.jsonl')):
        h = json.loads(line)
        if h['event'].startswith('start '):
            starts[h['event'][len('start '):]] = (h['at'], h['load1'], h['wasm'])
    return starts


def collect(out):
    starts = loads()
    results, runs = [], []
    for scen in sorted(os.listdir(out)):
        for arm in ARMS:
            path = os.path.join(out, scen, arm, 'results.jsonl')
            if not os.path.exists(path):
                continue
            for line in open(path):
                row = json.loads(line)
                row['arm'] = arm
                results.append(row)
                run_dir = os.path.join(out, scen, arm, row['artifacts']['series'].rsplit('/', 1)[0])
                total, longest, start, _ = floor_time(run_dir)
                at, load1, wasm = starts.get(f"{scen} {arm}/{row['repetition']}", (None, None, None))
                runs.append({'trace': scen, 'pair': row['repetition'], 'arm': arm, 'status': row['status'],
                             'played_bitrate_mbps': row['played_bitrate_mbps'],
                             'buffering_pct': 100 * row['buffering_ratio'], 'stall_time_s': row['stall_time_s'],
                             'queue_delay_p95_ms': row['queue_delay_p95_ms'], 'floor_s': round(total, 3),
                             'floor_longest_s': round(longest, 3), 'floor_longest_from_s': start,
                             'started_at': at, 'load1': load1, 'wasm': wasm})
    with open(os.path.join(HERE, 'results.jsonl'), 'w') as f:
        f.writelines(json.dumps(r) + '\n' for r in results)
    with open(os.path.join(HERE, 'runs.jsonl'), 'w') as f:
        f.writelines(json.dumps(r) + '\n' for r in runs)


def fmt(xs, digits):
    if len(xs) < 2:
        return ' '.join(f'{x:.{digits}f}' for x in xs) or '–'
    m, h = mean_ci95(xs)
    return f'{m:.{digits}f} ± {h:.{digits}f}'


def table(path):
    runs = [json.loads(line) for line in open(path)]
    for scen in sorted({r['trace'] for r in runs}):
        by = {(r['arm'], r['pair']): r for r in runs if r['trace'] == scen and r['status'] == 'ok'}
        pairs = sorted(p for (a, p) in by if a == 'vv' and ('vvmean', p) in by)
        print(f'### {scen} ({len(pairs)} pairs)\n')
        print('| metric | vv (lowest RTT) | vvmean (mean RTT) | paired vv − vvmean | per pair |')
        print('| --- | --- | --- | --- | --- |')
        for key, name, d in METRICS:
            a = [by[('vv', p)][key] for p in pairs]
            b = [by[('vvmean', p)][key] for p in pairs]
            diff = [x - y for x, y in zip(a, b)]
            print(f'| {name} | {fmt(a, d)} | {fmt(b, d)} | {fmt(diff, d)} | '
                  + ', '.join(f'{x:+.{d}f}' for x in diff) + ' |')
        print()
        print('| pair | arm | started (UTC) | load1 | WASM | longest floor stretch s (from session s) |')
        print('| --- | --- | --- | --- | --- | --- |')
        for p in pairs:
            for arm in ARMS:
                r = by[(arm, p)]
                at = f" ({r['floor_longest_from_s']:.1f})" if r['floor_longest_from_s'] is not None else ''
                print(f"| {p} | {arm} | {(r['started_at'] or '')[11:19]} | {r['load1']} | {r['wasm']} | "
                      f"{r['floor_longest_s']:.2f}{at} |")
        print()


if __name__ == '__main__':
    if len(sys.argv) != 3 or sys.argv[1] not in ('collect', 'table'):
        sys.exit(__doc__)
    collect(sys.argv[2]) if sys.argv[1] == 'collect' else table(sys.argv[2])
