#!/usr/bin/env python3
"""progress=received (a WebTransport download's progress counts every body byte that arrived) against progress=in-order
(only the bytes before the first hole, the count before this change), vivace-video, with tcp-bbr beside them,
TMobile-LTE-short, 30-s ABR, the page's default abandon=buffer rule; and the two progress modes under dash.js's own
AbandonRequestsRule (abandon=dashjs), the rule dashjs-sample-gap counted the deflated readings against.

  python3 progress.py collect RAW_DIR   RAW_DIR/<scenario>/<arm>/ (hold.sh's output) -> this folder's results.jsonl
                                         (the bench's rows) and abandons.jsonl (each run's abandonments, from its ABR log)
  python3 progress.py                   the tables, from those two files
The per-run figures and the abandonment reading are ../abandon-if-doomed/abandon.py's (imported); means ± 95 %
Student-t (../../student_t.py) over the pairs, paired differences per pair in brackets."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'abandon-if-doomed'))
import abandon  # noqa: E402
from abandon import METRICS, fmt  # noqa: E402

ARMS = ['vv received', 'vv in-order', 'bbr', 'vv received abandon=dashjs', 'vv in-order abandon=dashjs']
HOLD_ARMS = {'vvr': ARMS[0], 'vvi': ARMS[1], 'bbr': ARMS[2], 'vvrd': ARMS[3], 'vvid': ARMS[4]}  # hold.sh's arm names
PAIRS = [(ARMS[0], ARMS[1]), (ARMS[0], 'bbr'), (ARMS[1], 'bbr'), (ARMS[3], ARMS[4])]


def loads():
    """The 1-min load at each run's start (holds.jsonl, hold.sh's notes), by (arm, repetition)."""
    out = {}
    path = os.path.join(HERE, 'holds.jsonl')
    for note in map(json.loads, open(path) if os.path.exists(path) else []):
        words = note['event'].split()
        if words[0] == 'start' and '/' in words[-1]:
            arm, rep = words[-1].split('/')
            out[(HOLD_ARMS.get(arm, arm), int(rep))] = note['load1']
    return out


def arm_of(row):
    if row['scheme'] == 'tcp-bbr':
        return 'bbr'
    short = {'vivace-video': 'vv', 'vivace': 'v'}.get(row['scheme'], row['scheme'])
    params = row.get('player_params') or {}
    rule = f" abandon={params['abandon']}" if 'abandon' in params else ''
    return f"{short} {params.get('progress', 'received')}{rule}"


def collect(raw):
    """abandon.py's collect, writing here and naming the arms by their progress mode."""
    abandon.HERE, abandon.arm_of = HERE, arm_of
    abandon.collect(raw)


def figures():
    """Each ok run's METRICS values and abandonments, by arm and repetition."""
    with open(os.path.join(HERE, 'abandons.jsonl')) as f:
        ab = {(x['arm'], x['repetition']): x['abandons'] or [] for x in map(json.loads, f)}
    per, found = {}, {}
    with open(os.path.join(HERE, 'results.jsonl')) as f:
        for row in (json.loads(line) for line in f if line.strip()):
            key = (arm_of(row), row['repetition'])
            if row['status'] == 'ok' and row['players']:
                found[key] = ab.get(key, [])
                per.setdefault(key[0], {})[key[1]] = [m[1](row, found[key]) for m in METRICS]
    return per, found


def report():
    per, found = figures()
    arms = [a for a in ARMS if a in per]
    load = loads()
    print('| arm | n | ' + ' | '.join(m[0] for m in METRICS) + ' |')
    print('| --- | --- |' + ' --- |' * len(METRICS))
    for a in arms:
        print(f'| {a} | {len(per[a])} | ' + ' | '.join(fmt([v[i] for v in per[a].values()], m[2]) for i, m in enumerate(METRICS)) + ' |')
    print('\nPaired A − B per pair (same repetition = same hold, back to back), mean ± 95 % t, per pair in brackets:\n')
    print('| A − B | n | ' + ' | '.join(m[0] for m in METRICS) + ' | on screen A / B |')
    print('| --- | --- |' + ' --- |' * (len(METRICS) + 1))
    for a, b in PAIRS:
        reps = sorted(set(per.get(a, {})) & set(per.get(b, {})))
        if len(reps) < 2:
            continue
        cells = []
        for i, m in enumerate(METRICS):
            d = [per[a][n][i] - per[b][n][i] for n in reps]
            cells.append(f"{fmt(d, m[2], '+')} ({', '.join(f'{x:+.{m[2]}f}' for x in d)})")
        q = [per[a][n][0] / per[b][n][0] for n in reps]
        cells.append(f"{fmt(q, 3)} ({', '.join(f'{x:.3f}' for x in q)})")
        print(f'| {a} − {b} | {len(reps)} | ' + ' | '.join(cells) + ' |')
    print('\nEach run: the 1-min load at its start (holds.jsonl) and its abandonments, as session time: rendition from → to '
          '(kbit/s), the download rate the rule read (kbit/s), the buffer (s) when the abandoned segment was asked for.\n')
    print('| run | load | abandonments |')
    print('| --- | --- | --- |')
    for key in sorted(found, key=lambda k: (ARMS.index(k[0]) if k[0] in ARMS else 9, k[1])):
        items = [f"{x['at_s']:.1f} s: {x['from_kbps']} → {x['to_kbps']}, read {x['rate_kbps']}, buffer {x.get('buffer_at_request_s', '?')}"
                 for x in found[key]]
        print(f"| {key[0]} {key[1]} | {load.get(key, '?')} | {'; '.join(items) or 'none'} |")


if __name__ == '__main__':
    collect(sys.argv[2]) if sys.argv[1:2] == ['collect'] else report()
