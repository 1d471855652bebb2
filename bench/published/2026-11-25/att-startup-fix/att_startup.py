#!/usr/bin/env python3
"""This folder's tables (ATT-LTE-driving-2016, 30-s ABR, arms vv, vvoff, v, bbr, cubic; pairs = repetitions, one hold
each): per arm means with 95 % Student-t intervals of start-up delay, on-screen bitrate, buffering and p95 queueing;
paired vv - vvoff and vv - arm; per run the start-up and the controller's first slow start on the link clock
(../lte-driving-baseline/why_att_startup.py's startup() and origin_side(), imported), and issue 18's targets
(../lte-driving-baseline/targets.py, imported).
Usage: python3 att_startup.py OUT   (OUT as given to run_holds.sh)"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'lte-driving-baseline'))
import targets  # noqa: E402
import why_att_startup as why  # noqa: E402
from student_t import mean_ci95  # noqa: E402  (../../student_t.py, on the path targets' stats.py set)
SCEN = why.SCEN
ARMS = {'vv': 'vivace-video', 'vvoff': 'vivace-video', 'v': 'vivace', 'bbr': 'tcp-bbr', 'cubic': 'tcp-cubic'}
METRICS = {'start-up s': lambda r: r['players'][0]['startup_delay_s'], 'on screen Mbit/s': targets.played,
           **{k: f for k, f in targets.METRICS.items() if k != 'on screen'}}
DIGITS = {'start-up s': 2, 'on screen Mbit/s': 3, 'buffering %': 2, 'p95 queueing': 0, 'wire/media': 3}


def rows_by_arm(out):
    """{arm: {repetition: (row, run directory)}} of the completed runs under OUT/SCEN/ARM."""
    arms = {}
    for arm, scheme in ARMS.items():
        path = os.path.join(out, SCEN, arm, 'results.jsonl')
        if not os.path.exists(path):
            continue
        for line in open(path):
            r = json.loads(line)
            if r['status'] == 'ok' and r['players']:
                run = os.path.join(out, SCEN, arm, 'runs', f'lte-{SCEN}', scheme, str(r['repetition']))
                arms.setdefault(arm, {})[r['repetition']] = (r, run)
    return arms


def runs(arms):
    """(arm, repetition, run directory) of every run, arm by arm."""
    for arm, reps in arms.items():
        for n, (_, run) in sorted(reps.items()):
            yield arm, n, run


def ci(xs, d, sign=''):
    if len(xs) < 2:
        return ', '.join(f'{x:{sign}.{d}f}' for x in xs)
    m, h = mean_ci95(xs)
    return f'{m:{sign}.{d}f} ± {h:.{d}f}'


def main(out):
    arms = rows_by_arm(out)
    print(f'## {SCEN}, 30-s ABR: per arm, mean ± 95 % t over pairs\n')
    print('| arm | n | ' + ' | '.join(METRICS) + ' |')
    print('| --- | --- |' + ' --- |' * len(METRICS))
    for arm, reps in arms.items():
        rs = [r for r, _ in reps.values()]
        print(f'| {arm} | {len(rs)} | ' + ' | '.join(ci([f(r) for r in rs], DIGITS[k]) for k, f in METRICS.items()) + ' |')
    print('\n## Paired differences A - B (same repetition, same hold), mean ± 95 % t (per pair)\n')
    print('| A - B | n | ' + ' | '.join(METRICS) + ' |')
    print('| --- | --- |' + ' --- |' * len(METRICS))
    for a, b in [('vv', 'vvoff'), ('v', 'vvoff'), ('vv', 'v'), ('vv', 'bbr'), ('vv', 'cubic')]:
        if a not in arms or b not in arms:
            continue
        reps = sorted(set(arms[a]) & set(arms[b]))
        cells = []
        for k, f in METRICS.items():
            ds = [f(arms[a][n][0]) - f(arms[b][n][0]) for n in reps]
            cells.append(f"{ci(ds, DIGITS[k], '+')} ({', '.join(f'{x:+.{DIGITS[k]}f}' for x in ds)})")
        print(f'| {a} - {b} | {len(reps)} | ' + ' | '.join(cells) + ' |')
    print('\n## Start-up per run (player clock; why_att_startup.startup)\n')
    print('| run | start-up s | 1st video req s | abandoned (sample kbit/s) | 1st completed: kbps, end s |')
    print('| --- ' * 5 + '|')
    for arm, n, run in runs(arms):
        s = why.startup(run)
        ab = f"yes ({s['sample']})" if s['abandoned'] else 'no'
        print(f"| {arm}-{n} | {s['delay']:.2f} | {s['req']} | {ab} | {s['done_kbps']}, {s['done_end']} |")
    print('\n## Datagram runs on the link clock (s; why_att_startup.origin_side)\n')
    print('| run | session open | 1st ack (RTT, sRTT ms) | lowest rate within 1.5 s of it Mbit/s (at) | slow-start exit (rate, max) | rate at the first 4 video requests |')
    print('| --- ' * 6 + '|')
    for arm, n, run in runs(arms):
        o = why.origin_side(run)
        if o is None:
            continue
        ex = f"{o['exit'] / 1000:.2f} ({o['exit_rate']:.2f}, {o['max_ss']:.2f})" if o['exit'] else '-'
        print(f"| {arm}-{n} | {o['open'] / 1000:.2f} | {o['ack'] / 1000:.2f} ({o['ack_rtt']:.0f}, {o['ack_srtt']:.0f}) | "
              f"{o['low']:.2f} ({o['low_at'] / 1000:.2f}) | {ex} | " + ', '.join(f'{x:.2f}' for x in o['v_rates']) + ' |')


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1])
