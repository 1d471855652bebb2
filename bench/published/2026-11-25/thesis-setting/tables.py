#!/usr/bin/env python3
"""Tables for a bench/published/2026-11-25 folder: per scenario and scheme, means with 95% intervals (Student t) over
repetitions; paired differences (pairs = the same repetition, i.e. the same seed) of each scheme in --pcc against each
in --vs; with --holds, a table of each lock hold's start, end, load and commit.
With --pairs A:C,B:D, only those pairs are differenced (e.g. each aided scheme against its plain one).
Usage: python3 tables.py results.jsonl --pcc A,B --vs C,D [--pairs A:C,B:D] [--holds holds.jsonl]"""
import argparse
import importlib.util
import json
import os
from collections import defaultdict

# mean ± 95% CI (Student t): video-bitrates/tables.py's definition, loaded by path (both files are named tables.py)
_spec = importlib.util.spec_from_file_location('video_bitrates_tables', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'video-bitrates', 'tables.py'))
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)

METRICS = [  # (label, field, scale, digits)
    ('buffering %', 'buffering_ratio', 100, 2), ('stalls', 'stall_count', 1, 1), ('stall s', 'stall_time_s', 1, 2),
    ('startup s', 'startup_delay_s', 1, 2), ('avg bitrate Mbit/s', 'avg_bitrate_mbps', 1, 2), ('switches', 'switch_count', 1, 1),
    ('goodput Mbit/s', 'goodput_mbps', 1, 2), ('p95 queueing ms', 'queue_delay_p95_ms', 1, 1),
    ('wire B per media B', 'wire_bytes_per_media_byte', 1, 3), ('aid waste % of bytes received', 'prefetch_waste_ratio', 100, 2),
]
PAIRED = [m for m in METRICS if m[1] in ('buffering_ratio', 'avg_bitrate_mbps', 'goodput_mbps', 'queue_delay_p95_ms', 'prefetch_waste_ratio')]


def fmt(xs, digits):
    return _shared.fmt(xs, digits) if xs else 'n/a'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('results')
    ap.add_argument('--pcc', required=True)
    ap.add_argument('--vs', required=True)
    ap.add_argument('--pairs')
    ap.add_argument('--holds')
    a = ap.parse_args()
    runs = [json.loads(l) for l in open(a.results) if l.strip()]
    by = defaultdict(dict)
    for r in runs:
        if r['status'] == 'ok':
            by[(r['scenario'], r['scheme'])][r['repetition']] = r
    failed = [r['run_id'] for r in runs if r['status'] != 'ok']
    scenarios = sorted({s for s, _ in by})
    for sc in scenarios:
        schemes = [s for s in a.pcc.split(',') + a.vs.split(',') if (sc, s) in by]
        print(f'### {sc}\n')
        print('| scheme | runs | ' + ' | '.join(m[0] for m in METRICS) + ' | buffering % per repetition |')
        print('| --- ' * (len(METRICS) + 3) + '|')
        for s in schemes:
            rr = by[(sc, s)]
            cells = []
            for _, f, scale, d in METRICS:
                xs = [rr[k][f] * scale for k in sorted(rr) if isinstance(rr[k].get(f), (int, float))]
                cells.append(fmt(xs, d))
            per = ', '.join(f'r{k} {100 * rr[k]["buffering_ratio"]:.2f}' for k in sorted(rr))
            print(f'| {s} | {len(rr)} | ' + ' | '.join(cells) + f' | {per} |')
        print('\nPaired by repetition (same seed), first scheme minus second, mean ± 95% CI:\n')
        print('| scheme | vs | pairs | ' + ' | '.join(m[0] for m in PAIRED) + ' |')
        print('| --- ' * (len(PAIRED) + 3) + '|')
        pairs = [tuple(x.split(':')) for x in a.pairs.split(',')] if a.pairs else [(p, v) for p in a.pcc.split(',') for v in a.vs.split(',')]
        for p, v in pairs:
            if True:
                if (sc, p) not in by or (sc, v) not in by:
                    continue
                ks = sorted(set(by[(sc, p)]) & set(by[(sc, v)]))
                cells = []
                for _, f, scale, d in PAIRED:
                    xs = [(by[(sc, p)][k][f] - by[(sc, v)][k][f]) * scale for k in ks
                          if isinstance(by[(sc, p)][k].get(f), (int, float)) and isinstance(by[(sc, v)][k].get(f), (int, float))]
                    cells.append(fmt(xs, d))
                print(f'| {p} | {v} | {len(ks)} | ' + ' | '.join(cells) + ' |')
        print()
    if failed:
        print('Failed runs (not averaged in): ' + ', '.join(failed) + '\n')
    print('| run | started (UTC) | commit | wall s |')
    print('| --- | --- | --- | --- |')
    for r in sorted(runs, key=lambda r: r['started_at']):
        c = (r.get('provenance') or {}).get('commit', '?')[:7]
        dirty = ' (with uncommitted changes)' if (r.get('provenance') or {}).get('dirty') else ''
        print(f'| {r["run_id"]} | {r["started_at"][:19]} | {c}{dirty} | {r["wall_s"]:.1f} |')
    if a.holds:
        print('\n| hold | repetition | start (UTC) | load at start (1, 5, 15 min) | end (UTC) | load at end | HEAD at start | rc |')
        print('| --- | --- | --- | --- | --- | --- | --- | --- |')
        ev = [json.loads(l) for l in open(a.holds) if l.strip()]
        for s in [e for e in ev if e['event'] == 'start']:
            e = next((x for x in ev if x['event'] == 'end' and x['label'] == s['label'] and x['rep'] == s['rep'] and x['t'] >= s['t']), None)
            print(f'| {s["label"]} | {s["rep"]} | {s["t"]} | {s["loadavg"]} | {e["t"] if e else "-"} | {e["loadavg"] if e else "-"} | {s["head"]} | {e["rc"] if e else "-"} |')


if __name__ == '__main__':
    main()
