#!/usr/bin/env python3
"""Issue 18's LTE targets with the page's default abandonment rule (abandon=buffer), per trace, 30-s ABR, arms
vv (vivace-video), v (vivace), bbr (tcp-bbr), cubic (tcp-cubic), paired by repetition (one hold per pair).

  python3 lte_abandon.py collect RAW [--redo REDO] [BEFORE_RAW...]
                                          RAW/<trace>/<arm>/ (hold.sh's output; REDO's pairs replace RAW's) -> this
                                          folder's results.jsonl (the bench's rows), replaced.jsonl and abandons.jsonl
                                          (each run's abandonments, from its ABR log, with
                                          ../abandon-if-doomed/abandon.py's abandons_of; also BEFORE_RAW's runs)
  python3 lte_abandon.py [BEFORE.jsonl...]  per trace: the arms' table, the paired ratios, and the same table of the
                                          runs before the rule for that trace in BEFORE (other folders' results)
Means ± 95 % Student-t (../../student_t.py, through abandon.py's fmt) over the pairs; the per-pair values in
brackets. The targets' verdicts are ../lte-driving-baseline/targets.py's (run it on results.jsonl)."""
import glob
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('abandon', os.path.join(HERE, '..', 'abandon-if-doomed', 'abandon.py'))
abandon = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(abandon)

ARMS = {'vivace-video': 'vv', 'vivace': 'v', 'tcp-bbr': 'bbr', 'tcp-cubic': 'cubic'}


def arm_of(row):
    """vv only for vivace-video with its defaults; other variants (other folders' vvc, vvo) are left out."""
    if row['scheme'] == 'vivace-video' and row.get('controller_params'):
        return None
    return ARMS.get(row['scheme'])


def runs_of(raw):
    """(bench row, its run directory) of every run under RAW/<trace>/<arm>/, in start order."""
    found = []
    for path in sorted(glob.glob(os.path.join(raw, '*', '*', 'results.jsonl'))):
        runs = os.path.join(os.path.dirname(path), 'runs')
        found += [(r, os.path.join(runs, r['run_id'])) for r in map(json.loads, filter(str.strip, open(path)))]
    return sorted(found, key=lambda rd: rd[0]['started_at'])


def collect(raw, redo, before_raw):
    """results.jsonl: RAW's rows, REDO's (same layout) in place of RAW's of the same trace and pair (a pair run again on
    one WASM with the trace's other pairs), the replaced ones in replaced.jsonl; abandons.jsonl: the abandonments of all
    these runs and of BEFORE_RAW's (the raw runs of the other folders' results the report sets beside these), keyed by
    run_id and started_at."""
    again = runs_of(redo) if redo else []
    key = {(r['scenario'], r['repetition']) for r, _ in again}
    found = sorted([rd for rd in runs_of(raw) if (rd[0]['scenario'], rd[0]['repetition']) not in key] + again,
                   key=lambda rd: rd[0]['started_at'])
    replaced = [rd for rd in runs_of(raw) if (rd[0]['scenario'], rd[0]['repetition']) in key]
    for name, rows in (('results.jsonl', found), ('replaced.jsonl', replaced)):
        with open(os.path.join(HERE, name), 'w') as f:
            f.writelines(json.dumps(row) + '\n' for row, _ in rows)
    with open(os.path.join(HERE, 'abandons.jsonl'), 'w') as ab:
        for row, run in found + replaced + [rd for b in before_raw for rd in runs_of(b)]:
            log = os.path.exists(os.path.join(run, 'abr-segments-player-1.jsonl'))
            ab.write(json.dumps({'run_id': row['run_id'], 'started_at': row['started_at'], 'arm': arm_of(row),
                                 'abandons': abandon.abandons_of(run) if log else None}) + '\n')
    print(f'{len(found)} runs, {len(replaced)} replaced')


def played(r):
    return sum(p['time_weighted_bitrate_mbps'] for p in r['players']) / len(r['players'])


COLUMNS = [('on screen Mbit/s', played, 3), ('downloaded Mbit/s', lambda r: r['avg_bitrate_mbps'], 3),
           ('buffering %', lambda r: 100 * r['buffering_ratio'], 2), ('start-up s', lambda r: r['startup_delay_s'], 2),
           ('p95 queueing ms', lambda r: r['queue_delay_p95_ms'], 0),
           ('wire B / media B', lambda r: r['wire_bytes_per_media_byte'], 3),
           ('abandonments / run', lambda r: len(r['abandons']) if r.get('abandons') is not None else None, 2)]


def fmt(xs, d, sign=''):
    """Mean ± 95 % t (abandon.py's cell) of the values known; one value as is."""
    xs = [x for x in xs if x is not None]
    return abandon.fmt(xs, d, sign) if len(xs) > 1 else ''.join(f'{x:{sign}.{d}f}' for x in xs) or '–'


def load(path, abandons):
    """{scenario: {arm: {repetition: row}}} of a results.jsonl's completed runs, with 'abandons' joined when known."""
    out = {}
    for line in open(path):
        r = json.loads(line) if line.strip() else None
        if not r or r['status'] != 'ok' or not r['players'] or arm_of(r) is None:
            continue
        r['abandons'] = abandons.get((r['run_id'], r['started_at']))
        out.setdefault(r['scenario'], {}).setdefault(arm_of(r), {})[r['repetition']] = r
    return out


def table(arms):
    print('| arm | n | ' + ' | '.join(c[0] for c in COLUMNS) + ' |')
    print('| --- | --- |' + ' --- |' * len(COLUMNS))
    for a in [a for a in ARMS.values() if a in arms]:
        rs = [arms[a][n] for n in sorted(arms[a])]
        print(f'| {a} | {len(rs)} | ' + ' | '.join(fmt([f(r) for r in rs], d) for _, f, d in COLUMNS) + ' |')


def paired(arms):
    def per_pair(a, b, f):
        return [f(arms[a][n], arms[b][n]) for n in sorted(set(arms.get(a, {})) & set(arms.get(b, {})))]
    lines = [('vv / bbr, on screen', per_pair('vv', 'bbr', lambda x, y: played(x) / played(y)), 3, ''),
             ('vv / cubic, on screen', per_pair('vv', 'cubic', lambda x, y: played(x) / played(y)), 3, ''),
             ('vv − v, on screen Mbit/s', per_pair('vv', 'v', lambda x, y: played(x) - played(y)), 3, '+'),
             ('vv / bbr, p95 queueing', per_pair('vv', 'bbr', lambda x, y: x['queue_delay_p95_ms'] / y['queue_delay_p95_ms']), 2, ''),
             ('vv / cubic, p95 queueing', per_pair('vv', 'cubic', lambda x, y: x['queue_delay_p95_ms'] / y['queue_delay_p95_ms']), 2, '')]
    print('\n| paired (same pair, one hold) | mean ± 95 % t (per pair) |\n| --- | --- |')
    for name, xs, d, sign in lines:
        if xs:
            print(f"| {name} | {fmt(xs, d, sign)} ({', '.join(f'{x:{sign}.{d}f}' for x in xs)}) |")


def report(before):
    abandons = {(a['run_id'], a['started_at']): a['abandons'] for a in map(json.loads, open(os.path.join(HERE, 'abandons.jsonl')))}
    now = load(os.path.join(HERE, 'results.jsonl'), abandons)
    earlier = [(p, load(p, abandons)) for p in before]
    replaced = load(os.path.join(HERE, 'replaced.jsonl'), abandons)
    for scenario in sorted(now):
        print(f'## {scenario}, abandon=buffer (this folder)\n')
        table(now[scenario])
        paired(now[scenario])
        print('\nAbandonments (session s, from → to kbit/s, the rate the rule measured, buffer at the request):\n')
        for a in [a for a in ARMS.values() if a in now[scenario]]:
            for n, r in sorted(now[scenario][a].items()):
                text = '; '.join(f"{x['at_s']:.1f} s {x['from_kbps']}→{x['to_kbps']} at {x['rate_kbps']} kbit/s, buffer "
                                 f"{x.get('buffer_at_request_s', '?')} s" for x in r['abandons'] or [])
                print(f'- {a}-{n}: {text or "none"}')
        for path, runs in [(os.path.join(HERE, 'replaced.jsonl'), replaced)] + earlier:
            if scenario in runs:
                what = 'replaced (run again on the later WASM)' if path.endswith('replaced.jsonl') else 'before the rule'
                print(f'\n### {what}: {os.path.relpath(path, HERE)}\n')
                table(runs[scenario])
                paired(runs[scenario])
        print()


if __name__ == '__main__':
    if sys.argv[1:2] == ['collect']:
        args = sys.argv[3:]
        redo = args[1] if args[:1] == ['--redo'] else None
        collect(sys.argv[2], redo, args[2:] if redo else args)
    else:
        report(sys.argv[1:])
