#!/usr/bin/env python3
"""abandon=buffer (the page's rule: abandon only a download whose rest would arrive after the buffer less 1 s runs dry)
against abandon=dashjs (dash.js 5.2.1's AbandonRequestsRule), vivace-video and tcp-bbr, TMobile-LTE-short, 30-s ABR.

  python3 abandon.py collect RAW_DIR   RAW_DIR/<scenario>/<arm>/ (hold.sh's output) -> this folder's results.jsonl
                                        (the bench's rows) and abandons.jsonl (each run's abandonments, from its ABR log)
  python3 abandon.py                   the tables, from those two files
Means ± 95 % Student-t (../../student_t.py) over the pairs; paired differences per pair in brackets."""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..'))
from student_t import mean_ci95  # noqa: E402

SHORT = {'vivace-video': 'vv', 'tcp-bbr': 'bbr'}  # arm names in the tables (hold.sh's vvb, vvd, bbb, bbd)
ARMS = ['vv buffer', 'vv dashjs', 'bbr buffer', 'bbr dashjs']


def arm_of(row):
    return f"{SHORT.get(row['scheme'], row['scheme'])} {(row.get('player_params') or {}).get('abandon', 'default')}"


def abandons_of(run_dir):
    """The video switches an abandonment rule asked for (dash.js's or the page's), with the buffer the abandoned
    segment was requested at."""
    out, pending = [], []
    for line in open(os.path.join(run_dir, 'abr-segments-player-1.jsonl')):
        rec = json.loads(line)
        message = ((rec.get('reason') or {}).get('message') or '') if rec['kind'] == 'switch' else ''
        if 'Abandon' in message:
            pending.append({'at_s': round(rec['atMs'] / 1000, 2), 'from_kbps': rec['fromKbps'], 'to_kbps': rec['toKbps'],
                            'rate_kbps': rec['reason'].get('throughputInKbit'), 'rule': message.split(']')[0].lstrip('[')})
        elif rec['kind'] == 'segment' and rec.get('abandoned') and pending:
            pending[0]['buffer_at_request_s'] = rec.get('bufferS')
            out.append(pending.pop(0))
    return out + pending


def collect(raw):
    rows, abandons = [], []
    for path in sorted(glob.glob(os.path.join(raw, '*', '*', 'results.jsonl'))):
        for line in open(path):
            row = json.loads(line)
            rows.append(row)
            run_dir = os.path.join(os.path.dirname(path), row['artifacts']['telemetry'].split('/telemetry')[0]) \
                if 'telemetry' in (row.get('artifacts') or {}) else None
            found = abandons_of(run_dir) if run_dir and os.path.exists(os.path.join(run_dir, 'abr-segments-player-1.jsonl')) else None
            abandons.append({'run_id': row['run_id'], 'arm': arm_of(row), 'repetition': row['repetition'], 'abandons': found})
    rows.sort(key=lambda r: r['started_at'])
    with open(os.path.join(HERE, 'results.jsonl'), 'w') as f:
        f.writelines(json.dumps(r) + '\n' for r in rows)
    with open(os.path.join(HERE, 'abandons.jsonl'), 'w') as f:
        f.writelines(json.dumps(a) + '\n' for a in abandons)
    print(f'{len(rows)} runs')


def fmt(xs, d, sign=''):
    m, h = mean_ci95(xs)
    return f'{m:{sign}.{d}f} ± {h:.{d}f}'


METRICS = [('on screen Mbit/s', lambda r, a: sum(p['time_weighted_bitrate_mbps'] for p in r['players']) / len(r['players']), 3),
           ('downloaded mean Mbit/s', lambda r, a: r['avg_bitrate_mbps'], 3),
           ('abandonments', lambda r, a: len(a), 2),
           ('stalls', lambda r, a: r['stall_count'], 2),
           ('buffering %', lambda r, a: 100 * r['buffering_ratio'], 2),
           ('p95 queueing ms', lambda r, a: r['queue_delay_p95_ms'], 0)]


def report():
    rows = [json.loads(x) for x in open(os.path.join(HERE, 'results.jsonl')) if x.strip()]
    ab = {(a['arm'], a['repetition']): a['abandons'] or [] for a in map(json.loads, open(os.path.join(HERE, 'abandons.jsonl')))}
    runs = {}
    for r in rows:
        if r['status'] == 'ok' and r['players']:
            runs.setdefault(arm_of(r), {})[r['repetition']] = r

    def val(arm, rep, metric):
        return metric[1](runs[arm][rep], ab.get((arm, rep), []))

    print('| arm | n | ' + ' | '.join(m[0] for m in METRICS) + ' |')
    print('| --- | --- |' + ' --- |' * len(METRICS))
    for arm in [a for a in ARMS if a in runs]:
        reps = sorted(runs[arm])
        print(f'| {arm} | {len(reps)} | ' + ' | '.join(fmt([val(arm, n, m) for n in reps], m[2]) for m in METRICS) + ' |')
    print('\nPaired A − B (same pair, one hold), mean ± 95 % t (per pair):\n')
    for a, b in [('vv buffer', 'vv dashjs'), ('bbr buffer', 'bbr dashjs'), ('vv buffer', 'bbr buffer'), ('vv dashjs', 'bbr dashjs')]:
        reps = sorted(set(runs.get(a, {})) & set(runs.get(b, {})))
        if len(reps) < 2:
            continue
        print(f'- {a} − {b} (n = {len(reps)}):')
        for m in METRICS:
            diffs = [val(a, n, m) - val(b, n, m) for n in reps]
            print(f"  - {m[0]}: {fmt(diffs, m[2], '+')} ({', '.join(f'{d:+.{m[2]}f}' for d in diffs)})")
        played = METRICS[0]
        ratios = [val(a, n, played) / val(b, n, played) for n in reps]
        print(f"  - on screen ratio: {fmt(ratios, 3)} ({', '.join(f'{x:.3f}' for x in ratios)})")
    print('\nAbandonments (session s, from → to kbit/s, rate the rule measured, buffer when the segment was asked for):\n')
    for arm in [a for a in ARMS if a in runs]:
        for n in sorted(runs[arm]):
            items = ab.get((arm, n), [])
            text = '; '.join(f"{x['at_s']:.1f} s {x['from_kbps']}→{x['to_kbps']} at {x['rate_kbps']} kbit/s, buffer "
                             f"{x.get('buffer_at_request_s') if x.get('buffer_at_request_s') is not None else '?'} s" for x in items)
            print(f"- {arm} {n}: {text or 'none'}")


if __name__ == '__main__':
    if len(sys.argv) > 2 and sys.argv[1] == 'collect':
        collect(sys.argv[2])
    else:
        report()
