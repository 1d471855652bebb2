#!/usr/bin/env python3
"""Floor tables for bench/published/2026-11-25/multiflow-floor: per run, buffering and what the machine did meanwhile
(machine-HOLD.jsonl, from machine-log.ts: per-class CPU and run-queue wait, CPU pressure, busy share, Chromium's threads),
averaged over the run's seconds from 8 s after its start to 3 s before its end (the players' playing time); per
scenario and scheme, means with 95% Student t intervals; with RUNS_DIR, the controllers' RTT samples per session.
Usage: python3 floor.py results.jsonl machine-h1.jsonl [machine-h2.jsonl ...] [--runs OUT_DIR ...]"""
import glob
import importlib.util
import json
import os
import sys
from collections import Counter, defaultdict
from datetime import datetime, timedelta

# mean ± 95% CI (Student t): video-bitrates/tables.py's definition, loaded by path
_spec = importlib.util.spec_from_file_location('video_bitrates_tables', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'video-bitrates', 'tables.py'))
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)


def ts(s):
    return datetime.fromisoformat(s.replace('Z', '+00:00'))


def window(rows, run):
    a = ts(run['started_at'])
    b = a + timedelta(seconds=run['wall_s'])
    return [x for x in rows if a + timedelta(seconds=8) <= ts(x['at']) <= b - timedelta(seconds=3)]


def mean(xs):
    return sum(xs) / len(xs) if xs else float('nan')


def rtts(runs_dirs, run):
    """Each session's latest-RTT samples after 5 s, p50 / p95 ms, or '' without the run folder."""
    for d in runs_dirs:
        files = sorted(glob.glob(os.path.join(d, run['artifacts'].get('telemetry', '-'), '*.jsonl')))
        if not files:
            continue
        out = []
        for f in files:
            v = sorted(x['latest_rtt_us'] / 1e3 for x in map(json.loads, open(f)) if x['t_ms'] > 5000 and x['latest_rtt_us'] > 0)
            if v:
                out.append(f'{v[len(v) // 2]:.0f}/{v[int(len(v) * 0.95)]:.0f}')
        return ', '.join(out)
    return ''


def main(argv):
    runs_dirs = argv[argv.index('--runs') + 1:] if '--runs' in argv else []
    files = argv[:argv.index('--runs')] if '--runs' in argv else argv
    results = [json.loads(l) for l in open(files[0]) if l.strip()]
    machine = [json.loads(l) for f in files[1:] for l in open(f) if l.strip()]
    print('| run | buffering % per player (mean) | goodput Mbit/s | Chromium CPU % | Chromium run-queue wait % | origin CPU % (wait) | linkem CPU % | CPU pressure % | machine busy % (of 200) | controller RTT p50/p95 ms per session | Chromium threads (% of a core) |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    by = defaultdict(list)
    for r in results:
        if r.get('status') != 'ok':
            print(f"| {r['run_id']} | failed: {r.get('error', '')[:80]} |")
            continue
        w = window(machine, r)
        m = lambda f: mean([f(x) for x in w])
        threads = Counter()
        for x in w:
            threads.update(x.get('chromium_threads', {}))
        top = ', '.join(f'{k} {v / len(w):.0f}' for k, v in threads.most_common(6)) if threads else 'not logged'
        by[(r['scenario'], r['scheme'])].append(r)
        print(f"| {r['run_id']} | {', '.join('%.1f' % (100 * p['buffering_ratio']) for p in r['players'])} ({100 * r['buffering_ratio']:.2f}) "
              f"| {r['goodput_mbps']:.1f} | {m(lambda x: x['cpu']['chromium']):.0f} | {m(lambda x: x['wait']['chromium']):.0f} "
              f"| {m(lambda x: x['cpu']['origin']):.0f} ({m(lambda x: x['wait']['origin']):.0f}) | {m(lambda x: x['cpu']['linkem']):.0f} "
              f"| {m(lambda x: x['psi_some_pct']):.0f} | {m(lambda x: x['busy_pct']):.0f} | {rtts(runs_dirs, r)} | {top} |")
    print()
    print('| scenario | scheme | n | buffering % | players with a stall | goodput Mbit/s | Chromium CPU % | CPU pressure % |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- |')
    for (scenario, scheme), rs in sorted(by.items()):
        cpu = [mean([x['cpu']['chromium'] for x in window(machine, r)]) for r in rs]
        psi = [mean([x['psi_some_pct'] for x in window(machine, r)]) for r in rs]
        stalled = sum(1 for r in rs for p in r['players'] if p['stall_count'] > 0)
        print(f"| {scenario} | {scheme} | {len(rs)} | {_shared.fmt([100 * r['buffering_ratio'] for r in rs], 2)} | {stalled} of {sum(len(r['players']) for r in rs)} "
              f"| {_shared.fmt([r['goodput_mbps'] for r in rs], 1)} | {_shared.fmt(cpu, 0)} | {_shared.fmt(psi, 0)} |")


if __name__ == '__main__':
    main(sys.argv[1:])
