#!/usr/bin/env python3
"""Where a video run's bitrate is lost after start-up (issue 18), per link-second, from one bench run directory.

The per-second link, controller and player columns come from ../lte-att/timeline.py (run as a program; its player
clock offset is reused). Added here, from the player's abr-segments-player-1.jsonl on that clock: the share of the
second with a video request outstanding (out), the rendition being fetched (fetch), dash.js's throughput estimate
after the last completed segment (est), and per segment the download's path rate over the link's capacity then.

Unused capacity (capacity - delivered, Mbit) of each second from the first arrival to the player's last sample is
booked to one cause:
  startup    the first STARTUP_S seconds with arrivals;
  idle-full  no request outstanding, player buffer >= FULL_BUFFER_S (dash.js waits on a full buffer);
  idle-gap   no request outstanding, buffer lower (request gaps, dash.js not asking);
  queue-cut  a request outstanding, the second or the one before had p95 queueing >= QUEUE_BOUND_MS (the sender
             backed off a queue: vivace-video's queue bound lets ~185 ms stand, lte-queue-bound-bitrate);
  below-cap  a request outstanding and no such queue: the sender's rate was below capacity while data waited.
The idle share of a second is capacity x (1 - out), capped at its unused capacity; the rest is the busy share.
usage: python3 bitrate_gap.py [--json OUT.json] LABEL=RUN_DIR...   (markdown on stdout)"""
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TIMELINE = os.path.join(HERE, '..', 'lte-att', 'timeline.py')
STARTUP_S = 4
FULL_BUFFER_S = 12.0
QUEUE_BOUND_MS = 185
CAUSES = ['startup', 'idle-full', 'idle-gap', 'queue-cut', 'below-cap']
_spec = importlib.util.spec_from_file_location('student_t', os.path.join(HERE, '..', '..', 'student_t.py'))
student_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(student_t)


def timeline(run):
    """Rows of timeline.py's table by link-second, and its player offset (link-second = player t_s + offset)."""
    text = subprocess.run([sys.executable, TIMELINE, run], check=True, capture_output=True, text=True).stdout
    rows, ser_off = {}, 0.0
    for line in text.splitlines():
        if line.startswith('# align:'):
            ser_off = float(line.rsplit('t_s + ', 1)[1].split()[0])
            continue
        cells = line.split('|')
        head = cells[0].split()
        if not head or not head[0].isdigit():
            continue
        player = cells[1].split() if len(cells) > 1 else []
        rows[int(head[0])] = {
            'cap': float(head[1]), 'arr': float(head[2]), 'deliv': float(head[3]), 'p95q': float(head[6]),
            'ctl': None if head[7] == '-' else float(head[7]), 'state': head[8] if len(head) > 8 else '',
            'buf': float(player[0]) if player else None, 'br': float(player[1]) if player else None}
    return rows, ser_off


def segments(run, ser_off):
    """Video segment downloads on the link clock (ms): start, end, rendition, estimate, path kbit/s, abandoned."""
    out = []
    for line in open(os.path.join(run, 'abr-segments-player-1.jsonl')):
        o = json.loads(line)
        t = o.get('transfer') or {}
        if o.get('kind') != 'segment' or t.get('startMs') is None:
            continue
        end = t.get('endMs') or t['startMs'] + (o.get('traceMs') or 0)
        out.append({'start': t['startMs'] + ser_off * 1000, 'end': end + ser_off * 1000, 'kbps': o['renditionKbps'],
                    'est': o.get('estimateKbps'), 'path': o.get('pathKbps'), 'abandoned': o.get('abandoned')})
    return sorted(out, key=lambda s: s['start'])


def analyse(run):
    rows, ser_off = timeline(run)
    segs = segments(run, ser_off)
    played = [s for s, r in rows.items() if r['buf'] is not None]
    first = min(s for s, r in rows.items() if r['arr'] > 0)
    last = max(played)
    per_s, booked = [], {c: 0.0 for c in CAUSES}
    seconds = {c: 0 for c in CAUSES}
    for s in range(first, last + 1):
        r = rows[s]
        lo, hi = s * 1000, (s + 1) * 1000
        busy = sorted((max(lo, g['start']), min(hi, g['end'])) for g in segs if g['start'] < hi and g['end'] > lo)
        covered, edge = 0.0, lo
        for a, b in busy:
            covered += max(0.0, b - max(a, edge))
            edge = max(edge, b)
        out = covered / 1000
        fetch = max((g['kbps'] for g in segs if g['start'] < hi and g['end'] > lo), default=None)
        est = next((g['est'] for g in reversed(segs) if g['end'] <= hi and g['est'] is not None), None)
        unused = max(0.0, r['cap'] - r['deliv'])
        if s - first < STARTUP_S:
            share = {'startup': unused}
        else:
            idle = min(unused, r['cap'] * (1 - out))
            full = r['buf'] is not None and r['buf'] >= FULL_BUFFER_S
            queued = max(r['p95q'], rows.get(s - 1, r)['p95q']) >= QUEUE_BOUND_MS
            share = {'idle-full' if full else 'idle-gap': idle, 'queue-cut' if queued else 'below-cap': unused - idle}
        for c, v in share.items():
            booked[c] += v
        seconds[max(share, key=share.get)] += 1
        per_s.append({'s': s, **r, 'out': out, 'fetch': fetch, 'est': est, 'unused': unused,
                      'cause': max(share, key=share.get) if unused > 0.05 else ''})
    # the ABR's input: each finished download's path rate over the mean capacity of the link-seconds it spanned
    ratios = []
    for g in segs:
        if g['abandoned'] or not g['path']:
            continue
        span = [rows[s]['cap'] for s in range(int(g['start'] // 1000), int(g['end'] // 1000) + 1) if s in rows]
        if span and sum(span) > 0:
            ratios.append(g['path'] / 1000 / (sum(span) / len(span)))
    cap = sum(rows[s]['cap'] for s in range(first, last + 1))
    deliv = sum(rows[s]['deliv'] for s in range(first, last + 1))
    return {'run': run, 'first': first, 'last': last, 'cap_mbit': cap, 'deliv_mbit': deliv, 'booked': booked,
            'seconds': seconds, 'per_s': per_s, 'path_over_cap': ratios}


def fmt(x, d=2):
    return '-' if x is None else f'{x:.{d}f}'


def main(argv):
    json_out = None
    if argv[:1] == ['--json']:
        json_out, argv = argv[1], argv[2:]
    if not argv:
        sys.exit(__doc__)
    results = {}
    for arg in argv:
        label, _, run = arg.partition('=')
        if not run or not os.path.isdir(run):
            sys.exit(f'bitrate_gap.py: {arg!r} is not LABEL=RUN_DIR')
        results[label] = analyse(run)
    print('## Unused capacity by cause (Mbit, from the first arrival to the last player sample)\n')
    print('| run | link s | capacity | delivered | unused | ' + ' | '.join(CAUSES) + ' | download path rate / capacity (median, n) |')
    print('| --- ' * (6 + len(CAUSES)) + '|')
    for label, a in results.items():
        unused = sum(a['booked'].values())
        rs = sorted(a['path_over_cap'])
        med = rs[len(rs) // 2] if rs else None
        cells = ' | '.join(f"{a['booked'][c]:.1f} ({a['seconds'][c]} s)" for c in CAUSES)
        print(f"| {label} | {a['first']}-{a['last']} | {a['cap_mbit']:.1f} | {a['deliv_mbit']:.1f} | {unused:.1f} | {cells} | {fmt(med)} ({len(rs)}) |")
    print('\n(n s) = seconds whose largest share went to that cause.')
    # labels ARM-N: per arm means, and ARM - the first arm paired by N, with 95 % Student-t intervals
    arms = {}
    for label, a in results.items():
        arm, _, rep = label.rpartition('-')
        arms.setdefault(arm, {})[rep] = a
    if len(arms) > 1:
        names = list(arms)
        cols = ['delivered'] + CAUSES + ['path/cap']
        val = lambda a, c: (a['deliv_mbit'] if c == 'delivered' else a['booked'][c] if c in CAUSES else
                            sorted(a['path_over_cap'])[len(a['path_over_cap']) // 2])
        ci = lambda xs: '%.2f ± %.2f' % student_t.mean_ci95(xs) if len(xs) > 1 else '%.2f' % xs[0]
        print('\n## Means over repetitions (Mbit per run; path/cap: the run\'s median ratio; 95 % Student-t)\n')
        print('| arm | n | ' + ' | '.join(cols) + ' |')
        print('| --- ' * (2 + len(cols)) + '|')
        for arm, reps in arms.items():
            print(f'| {arm} | {len(reps)} | ' + ' | '.join(ci([val(a, c) for a in reps.values()]) for c in cols) + ' |')
        for arm in names[1:]:
            reps = sorted(set(arms[arm]) & set(arms[names[0]]))
            if reps:
                print(f'| {arm} - {names[0]} (paired) | {len(reps)} | ' + ' | '.join(
                    ci([val(arms[arm][r], c) - val(arms[names[0]][r], c) for r in reps]) for c in cols) + ' |')
    for label, a in results.items():
        print(f"\n## {label}: {a['run']}\n")
        print('| s | cap | deliv | sent | ctl | p95q ms | state | out | fetch kbps | est kbps | buffer s | playing Mbit/s | cause |')
        print('| --- ' * 13 + '|')
        for p in a['per_s']:
            print(f"| {p['s']} | {p['cap']:.2f} | {p['deliv']:.2f} | {p['arr']:.2f} | {fmt(p['ctl'])} | {p['p95q']:.0f} | {p['state']} | "
                  f"{p['out']:.2f} | {p['fetch'] or '-'} | {p['est'] or '-'} | {fmt(p['buf'], 1)} | {fmt(p['br'], 1)} | {p['cause']} |")
    if json_out:
        with open(json_out, 'w') as f:
            json.dump({k: {'per_s': v['per_s'], 'booked': v['booked']} for k, v in results.items()}, f)


if __name__ == '__main__':
    main(sys.argv[1:])
