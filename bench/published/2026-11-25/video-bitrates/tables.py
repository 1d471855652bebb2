#!/usr/bin/env python3
"""Tables for bench/published/2026-11-25/video-bitrates: per scenario and scheme means with 95% intervals (Student t),
paired differences vivace-video − each baseline (pairs = same repetition, i.e. same seed), Jain's index of the
players' goodput, and issue 18's verdicts; with holds.jsonl, a per-run table of start, load, commit and WASM.
Usage: python3 tables.py results.jsonl [holds.jsonl]"""
import json
import math
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
VIDEO = 'vivace-video'
BASELINES = ['vivace', 'tcp-cubic', 'tcp-bbr']
TCP = ['tcp-cubic', 'tcp-bbr']


def ci(xs):  # other folders' scripts load this file for ci and fmt
    return mean_ci95(xs, as_stats_ts=True)


def fmt(xs, digits):
    m, h = ci(xs)
    if math.isnan(h):
        return f'{m:.{digits}f} (n=1)'
    return f'{m:.{digits}f} ± {h:.{digits}f}'


def jain(xs):
    s = sum(xs)
    q = sum(x * x for x in xs)
    return s * s / (len(xs) * q) if q > 0 else float('nan')


def player_goodputs(run):
    return [p['bytes_received'] * 8 / run['duration_s'] / 1e6 for p in run['players']]


METRICS = [
    ('buffering ratio %', lambda r: 100 * r['buffering_ratio'], 2),
    ('stalls', lambda r: r['stall_count'], 1),
    ('avg bitrate Mbit/s', lambda r: r['avg_bitrate_mbps'], 2),
    ('goodput Mbit/s', lambda r: r['goodput_mbps'], 2),
    ('p95 queueing ms', lambda r: r['queue_delay_p95_ms'], 1),
    ('wire B per media B', lambda r: r['wire_bytes_per_media_byte'], 4),
]


def main(path):
    runs = [json.loads(line) for line in open(path) if line.strip()]
    ok = [r for r in runs if r.get('status') == 'ok']
    failed = [r for r in runs if r.get('status') != 'ok']
    by = defaultdict(dict)  # scenario -> scheme -> rep -> run
    for r in ok:
        by[r['scenario']].setdefault(r['scheme'], {})[r['repetition']] = r
    out = []
    for sc in sorted(by, key=lambda s: (s.startswith('multiflow'), float(s.split('-')[2].rstrip('mbps')) if s.startswith('changing-rtt-') else 0)):
        schemes = by[sc]
        multi = any(len(r['players']) > 1 for s in schemes.values() for r in s.values())
        out.append(f'### {sc}\n')
        head = ['scheme', 'n'] + [m[0] for m in METRICS] + (["Jain's index (players' goodput)"] if multi else [])
        out.append('| ' + ' | '.join(head) + ' |')
        out.append('|' + ' --- |' * len(head))
        order = [VIDEO] + BASELINES
        for s in order:
            if s not in schemes:
                continue
            reps = [schemes[s][k] for k in sorted(schemes[s])]
            row = [s, str(len(reps))] + [fmt([f(r) for r in reps], d) for _, f, d in METRICS]
            if multi:
                row.append(fmt([jain(player_goodputs(r)) for r in reps], 3))
            out.append('| ' + ' | '.join(row) + ' |')
        out.append('')
        out.append('Per run (repetition = seed): buffering % / stalls / goodput Mbit/s' + (' / per-player goodput Mbit/s / per-player buffering % / per-player startup s' if multi else ''))
        out.append('')
        for s in order:
            if s not in schemes:
                continue
            cells = []
            for k in sorted(schemes[s]):
                r = schemes[s][k]
                c = f'{k}: {100 * r["buffering_ratio"]:.2f} / {r["stall_count"]:.2f} / {r["goodput_mbps"]:.2f}'
                if multi:
                    c += ' / ' + ','.join(f'{g:.2f}' for g in player_goodputs(r))
                    c += ' / ' + ','.join(f'{100 * p["buffering_ratio"]:.1f}' for p in r['players'])
                    c += ' / ' + ','.join(f'{p["startup_delay_s"]:.1f}' for p in r['players'])
                cells.append(c)
            out.append(f'- {s}: ' + '; '.join(cells))
        out.append('')
        if VIDEO in schemes:
            out.append('Paired differences (same repetition and seed; mean ± 95% CI over pairs):')
            out.append('')
            out.append('| pair | pairs | buffering points | goodput Mbit/s | p95 queueing ms | wire B per media B |')
            out.append('| --- | --- | --- | --- | --- | --- |')
            for b in BASELINES:
                if b not in schemes:
                    continue
                reps = sorted(set(schemes[VIDEO]) & set(schemes[b]))
                if not reps:
                    continue
                d = lambda f: [f(schemes[VIDEO][k]) - f(schemes[b][k]) for k in reps]
                bp = d(lambda r: 100 * r['buffering_ratio'])
                out.append(f'| {VIDEO} − {b} | {len(reps)} | ' + ', '.join(f'{x:+.2f}' for x in bp) + f' → {fmt(bp, 2)} | '
                           f'{fmt(d(lambda r: r["goodput_mbps"]), 2)} | {fmt(d(lambda r: r["queue_delay_p95_ms"]), 1)} | '
                           f'{fmt(d(lambda r: r["wire_bytes_per_media_byte"]), 4)} |')
            out.append('')
            out.append(verdict(sc, schemes, multi))
            out.append('')
    if failed:
        out.append('Failed runs: ' + '; '.join(f'{r["run_id"]}: {str(r.get("error"))[:120]}' for r in failed))
    print('\n'.join(out))


def mean_buf(schemes, s):
    reps = schemes.get(s, {})
    return sum(100 * r['buffering_ratio'] for r in reps.values()) / len(reps) if reps else None


def below(vv, v):
    red = 100 * (1 - vv / v)
    return f'{red:.0f} % below it' if red >= 0 else f'{-red:.0f} % above it'


def verdict(sc, schemes, multi):
    vv = mean_buf(schemes, VIDEO)
    tcp = {t: mean_buf(schemes, t) for t in TCP if t in schemes}
    n = len(schemes[VIDEO])
    parts = []
    if not multi:
        ok_abs = vv <= 0.5
        parts.append(f'vivace-video {vv:.2f} % ≤ 0.5 %: {"met" if ok_abs else f"missed by {vv - 0.5:.2f} points"}')
        if tcp:
            best_name = min(tcp, key=tcp.get)
            best = tcp[best_name]
            parts.append(f'≤ the better TCP ({best_name} {best:.2f} %): ' + ('met' if vv <= best else f'missed by {vv - best:.2f} points'))
            for t, v in tcp.items():
                if v >= 2:
                    lim = 0.1 * v
                    parts.append(f'≥ 90 % below {t} ({v:.2f} %, i.e. ≤ {lim:.2f} %): ' + ('met' if vv <= lim else f'missed by {vv - lim:.2f} points ({below(vv, v)})'))
            if all(v < 2 for v in tcp.values()):
                parts.append('no TCP buffered ≥ 2 %, so the 90 % clause does not apply')
    else:
        for t, v in tcp.items():
            lim = 0.24 * v
            parts.append(f'≥ 76 % below {t} ({v:.2f} %, i.e. ≤ {lim:.2f} %): ' + ('met' if vv <= lim and v > 0 else (f'missed by {vv - lim:.2f} points ({below(vv, v)})' if v > 0 else f'missed: {t} did not buffer, so no reduction is possible')))
        js = [jain(player_goodputs(r)) for r in schemes[VIDEO].values()]
        jm = sum(js) / len(js)
        parts.append(f"Jain ≥ 0.95: {'met' if jm >= 0.95 else f'missed by {0.95 - jm:.3f}'} (mean {jm:.3f}, min {min(js):.3f})")
    return f'**Verdict ({n} repetition{"s" if n != 1 else ""}).** ' + '; '.join(parts) + '.'


def holds_table(path, results_path):
    res = {}
    for line in open(results_path):
        r = json.loads(line)
        res[r['run_id']] = r
    starts, ends = {}, {}
    for line in open(path):
        h = json.loads(line)
        (starts if 'start' in h else ends)[h['id']] = h
    print('| run | start UTC | load before → after (1-min) | HEAD at start | WASM sha256 (16) | tree dirty (controller-wasm, server) | buffering % | stalls | goodput Mbit/s |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for rid, h in starts.items():
        e = ends.get(rid, {})
        r = res.get(rid)
        fig = f"{100 * r['buffering_ratio']:.2f} | {r['stall_count']:.2f} | {r['goodput_mbps']:.2f}" if r and r.get('status') == 'ok' else 'not in results | | '
        print(f"| {rid} | {h['start'][11:19]} | {h['load_before'].split()[0]} → {e.get('load_after', '?').split()[0]} | {h['commit']} | "
              f"{h['wasm_sha256']} | {'yes' if h['status'] else 'no'} | {fig} |")


if __name__ == '__main__':
    main(sys.argv[1])
    if len(sys.argv) > 2:
        print()
        holds_table(sys.argv[2], sys.argv[1])
