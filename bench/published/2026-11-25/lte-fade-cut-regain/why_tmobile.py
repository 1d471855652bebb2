#!/usr/bin/env python3
"""Why vivace-video (and vivace) stay below TMobile-LTE-short's capacity (issue 18), from the raw bench run directories.

Per run, ../lte-bitrate-gap/bitrate_gap.py (imported through ../lte-abr-fix/why_gap.py) books each link-second's unused capacity (Mbit) to startup,
idle-full, idle-gap, queue-cut or below-cap. Here the busy share of the startup and below-cap seconds (capacity less
delivered less the idle share; seconds whose p95 queueing or the one before reached the queue bound stay queue-cut)
is split once more, for the datagram schemes, by what held the sender:
  app-short   it sent < 0.8 x the controller's rate (the request's bytes ran out first);
  ctl-capped  it sent at the controller's rate, split by the origin telemetry samples of that second (majority):
    slow-start   the controller was in slow start (a start, or a regain's doubling);
    paced-cap    vivace-video's Sammy cap was in force (player spare >= 12 s) and the rate >= 0.9 x it;
    loss         a packet was lost in the second or the one before (probing after a loss);
    gradient     probing, and an MI result of the second lost nothing yet its utility fell > 10 % below its reward
                 x^0.9: the RTT-gradient term counted (the significance filter let it through);
    steps        probing with clean MIs only: the rate climbs by the bounded gradient steps (omega, theta).
The telemetry samples the controller about every 100 ms with the latest MI result (not every MI). Its player state is
rebuilt as the server binds it (binding-player-state.ts): per CMCD object type the latest report, fresh for 4 s;
spare = the smallest buffer less its age, bitrate = the sum of the fresh types' br; the cap = k x bitrate with k
3.2 at 12 s of spare falling to 2.8 at 24 s (vivace_video.c). Also per run: the first slow-start exit (the exiting MI's
rate, delivery, RTT gradient, loss; its fall-back), the link-second the controller's rate first reached 0.9 x the
capacity, and the median controller rate / capacity in link s 3-9; of the loss-free probing MIs the share the gradient
term cut (and of those, the share that delivered >= 0.95 of what they sent: no queue grew, eq. 4.4, so RTT noise),
and the median |gradient| of clean probing MIs.
usage: python3 why_tmobile.py ROOT   (ROOT/ARM/runs/lte-tmobile-lte-short/SCHEME/N; markdown on stdout)"""
import glob
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# ../lte-abr-fix/why_gap.py loads bitrate_gap.py and student_t.py and holds the controller-capped share (CTL_SHARE)
_spec = importlib.util.spec_from_file_location('why_gap', os.path.join(HERE, '..', 'lte-abr-fix', 'why_gap.py'))
why_gap = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(why_gap)
bitrate_gap, student_t, CTL_SHARE = why_gap.bitrate_gap, why_gap.student_t, why_gap.CTL_SHARE
ARMS = [('vv', 'vivace-video'), ('vvo', 'vivace-video'), ('v', 'vivace'), ('bbr', 'tcp-bbr'), ('cubic', 'tcp-cubic')]
HELD = ['slow-start', 'paced-cap', 'loss', 'gradient', 'steps']
STALE_US = 4_000_000  # binding-player-state.ts: max(PLAYER_STATE_STALE_MIN_US, STALE_AFTER_OBJECTS x 2-s objects)
HEALTHY_MS, JITTER_GRADIENT, EPS = 12000.0, 0.1, 0.05  # vivace_video.c, vivace_slow_start.c, vivace_params.h
EARLY = (3, 9)


def telemetry(run):
    """Telemetry samples placed on the link clock (timeline.py's alignment), with the rebuilt binding player state."""
    text = subprocess.run([sys.executable, bitrate_gap.TIMELINE, run], check=True, capture_output=True, text=True).stdout
    off = float(re.search(r'telemetry link-second = t_ms/1000 \+ (-?[0-9.]+)', text).group(1))
    out, reports, last_upd, lost = [], {}, None, 0
    for line in open(glob.glob(os.path.join(run, 'telemetry', '*.jsonl'))[0]):
        o = json.loads(line)
        t_us = o['t_us']
        if o.get('cmcd_updates') != last_upd and o.get('cmcd_ot') in ('v', 'a') and 'cmcd_bl_ms' in o:
            reports[o['cmcd_ot']] = (t_us - o.get('cmcd_age_ms', 0) * 1000, o['cmcd_bl_ms'], o.get('cmcd_br_kbps') or 0)
        last_upd = o.get('cmcd_updates')
        fresh = [r for r in reports.values() if t_us - r[0] <= STALE_US]
        if not fresh and reports:
            fresh = [max(reports.values())]
        spare = min((bl - (t_us - at) / 1000 for at, bl, _ in fresh), default=-1)
        br = sum(b for _, _, b in fresh) * 1e3
        cap = None
        if spare >= HEALTHY_MS and br > 0:
            cap = (3.2 - 0.4 * min(1.0, (spare - HEALTHY_MS) / HEALTHY_MS)) * br * 1e-6
        new_loss = o['packets_lost'] > lost
        lost = o['packets_lost']
        x = o['mi_rate_bps'] * 1e-6
        penalised = (not new_loss and x > 0 and o['state'] == 'probing' and o['rtt_gradient'] > 0
                     and o['utility'] < 0.9 * x ** 0.9)
        out.append({'s': o['t_ms'] / 1000 + off, 'state': o['state'], 'rate': o['rate_bps'] * 1e-6, 'mi': o['mi'],
                    'mir': x, 'thr': o['throughput_bps'] * 1e-6, 'g': o['rtt_gradient'], 'loss': new_loss,
                    'lost': o['packets_lost'], 'cap': cap, 'spare': spare, 'penalised': penalised})
    return out


def first_exit(tel):
    """The first slow_start -> other transition: the sample after it carries the exiting MI's result."""
    for a, b in zip(tel, tel[1:]):
        if a['state'] == 'slow_start' and b['state'] != 'slow_start' and b['mir'] > 0:
            if b['lost'] > 0:
                why = 'loss'
            elif b['g'] >= JITTER_GRADIENT:
                why = 'gradient'
            elif b['thr'] < (1 - EPS) * b['mir']:
                why = 'delivery short'
            else:
                why = 'utility drop'
            after = [t['rate'] for t in tel if b['s'] + 0.2 <= t['s'] <= b['s'] + 0.7]
            return {'s': b['s'], 'mir': b['mir'], 'thr': b['thr'], 'g': b['g'], 'why': why, 'fallback': b['rate'],
                    'base': statistics.median(after) if after else None,
                    'pipe': max((t['thr'] for t in tel if t['s'] <= b['s'] and t['state'] == 'slow_start'), default=0.0)}
    return None


def analyse(run, datagram):
    gap = bitrate_gap.analyse(run)
    tel = telemetry(run) if datagram else []
    by_s = {}
    for t in tel:
        by_s.setdefault(int(t['s']), []).append(t)
    book = dict(gap['booked'])
    split = {'app-short': 0.0, **{h: 0.0 for h in HELD}}
    rows = {p['s']: p for p in gap['per_s']}
    cap_s = 0
    reach = None
    for p in gap['per_s']:
        s = p['s']
        samples = by_s.get(s, [])
        if any(t['cap'] is not None for t in samples):
            cap_s += 1
        if reach is None and p['ctl'] is not None and p['cap'] > 0 and p['ctl'] >= 0.9 * p['cap']:
            reach = s
        if not datagram or p['ctl'] is None:
            continue
        idle = min(p['unused'], p['cap'] * (1 - p['out']))
        busy = p['unused'] - idle
        queued = max(p['p95q'], rows.get(s - 1, p)['p95q']) >= bitrate_gap.QUEUE_BOUND_MS
        if busy <= 0 or queued:
            continue
        if p['arr'] < CTL_SHARE * p['ctl']:
            split['app-short'] += busy
            continue
        prev = by_s.get(s - 1, [])
        votes = {h: 0 for h in HELD}
        for t in samples:
            if t['state'] == 'slow_start':
                votes['slow-start'] += 1
            elif t['cap'] is not None and t['rate'] >= 0.9 * t['cap']:
                votes['paced-cap'] += 1
            elif t['loss'] or any(u['loss'] for u in prev):
                votes['loss'] += 1
            elif t['penalised']:
                votes['gradient'] += 1
            else:
                votes['steps'] += 1
        # a second with any gradient-penalised probing MI and no loss or slow start: the gradient held it
        if votes['gradient'] and not votes['loss'] and votes['slow-start'] <= votes['gradient']:
            split['gradient'] += busy
        elif samples:
            split[max(HELD, key=lambda h: votes[h])] += busy
    early = [rows[s]['ctl'] / rows[s]['cap'] for s in range(EARLY[0], EARLY[1] + 1)
             if s in rows and rows[s]['ctl'] is not None and rows[s]['cap'] > 0]
    probing = [t for t in tel if t['state'] == 'probing' and not t['loss'] and t['mir'] > 0]
    clean = [abs(t['g']) for t in probing if t['thr'] >= (1 - EPS) * t['mir']]
    return {'cap': gap['cap_mbit'], 'deliv': gap['deliv_mbit'], 'book': book, 'split': split, 'exit': first_exit(tel),
            'reach': reach, 'early': statistics.median(early) if early else None, 'cap_s': cap_s,
            'pen_share': sum(t['penalised'] for t in probing) / len(probing) if probing else None,
            'noise_g': statistics.median(clean) if clean else None,
            'pen_clean': (sum(t['thr'] >= (1 - EPS) * t['mir'] for t in probing if t['penalised'])
                          / max(1, sum(t['penalised'] for t in probing))),
            'pen_g': statistics.median([t['g'] for t in probing if t['penalised']] or [0.0]),
            'max_spare': max((t['spare'] for t in tel), default=None)}


def fmt(x, d):
    return '–' if x is None else f'{x:.{d}f}'


def ci(xs, d=1):
    xs = [x for x in xs if x is not None]
    if len(xs) >= 3:
        m, h = student_t.mean_ci95(xs)
        return f'{m:.{d}f} ± {h:.{d}f}'
    return ', '.join(f'{x:.{d}f}' for x in xs) or '–'


def main(argv):
    if not argv:
        sys.exit(__doc__)
    root = argv[0]
    res = {}
    for arm, scheme in ARMS:
        for run in sorted(glob.glob(os.path.join(root, arm, 'runs', 'lte-tmobile-lte-short', scheme, '*'))):
            res.setdefault(arm, {})[os.path.basename(run)] = analyse(run, not scheme.startswith('tcp-'))
    print('## Unused capacity by cause, Mbit per run (bitrate_gap.py), mean ± 95 % t over pairs\n')
    print('| arm | n | capacity | delivered | ' + ' | '.join(bitrate_gap.CAUSES) + ' |')
    print('| --- ' * (4 + len(bitrate_gap.CAUSES)) + '|')
    for arm, runs in res.items():
        rs = list(runs.values())
        print(f'| {arm} | {len(rs)} | {ci([r["cap"] for r in rs])} | {ci([r["deliv"] for r in rs])} | '
              + ' | '.join(ci([r['book'][c] for r in rs]) for c in bitrate_gap.CAUSES) + ' |')
    print('\n## Paired: arm − tcp-bbr, same pair, Mbit (mean ± 95 % t)\n')
    print('| arm | delivered | ' + ' | '.join(bitrate_gap.CAUSES) + ' |')
    print('| --- ' * (2 + len(bitrate_gap.CAUSES)) + '|')
    for arm, runs in res.items():
        if arm == 'bbr':
            continue
        reps = sorted(set(runs) & set(res['bbr']))
        d = lambda g: ci([g(runs[n]) - g(res['bbr'][n]) for n in reps])
        print(f'| {arm} − bbr | {d(lambda r: r["deliv"])} | '
              + ' | '.join(d(lambda r, c=c: r['book'][c]) for c in bitrate_gap.CAUSES) + ' |')
    print('\n## The busy, unqueued unused capacity (startup + below-cap) by what held the sender, Mbit per run\n')
    cols = ['app-short'] + HELD
    print('| arm | ' + ' | '.join(cols) + ' | seconds with the paced cap in force | max spare s |')
    print('| --- ' * (3 + len(cols)) + '|')
    for arm, runs in res.items():
        rs = list(runs.values())
        if rs[0]['exit'] is None and not rs[0]['split']['steps']:
            continue
        print(f'| {arm} | ' + ' | '.join(ci([r['split'][c] for r in rs]) for c in cols)
              + f' | {ci([r["cap_s"] for r in rs], 0)} | {ci([r["max_spare"] / 1000 for r in rs if r["max_spare"] is not None])} |')
    print('\n## Start-up per run: first slow-start exit (link s; exiting MI rate, its delivery, RTT gradient), '
          'slow start\'s best MI delivery, the first sample after the exit (fall-back, or its drain MI at half), '
          'the median rate 0.2-0.7 s after it, first link s with rate ≥ 0.9 × capacity, median rate/capacity in link s 3-9\n')
    print('| run | exit s | why | exiting MI Mbit/s | delivered | gradient | slow-start best delivery | first rate after | rate 0.2-0.7 s after | reached 0.9 cap at s | rate/cap s 3-9 | probing MIs penalised by the gradient | of them delivered ≥ 0.95 of sent | their median gradient | median |g| of clean probing MIs |')
    print('| --- ' * 15 + '|')
    for arm, runs in res.items():
        for n, r in runs.items():
            e = r['exit']
            if e is None:
                continue
            ex = (f"{e['s']:.1f} | {e['why']} | {e['mir']:.1f} | {e['thr']:.1f} | {e['g']:.2f} | {e['pipe']:.1f} | "
                  f"{e['fallback']:.1f} | {fmt(e['base'], 1)}" if e else '– | – | – | – | – | – | – | –')
            print(f"| {arm}-{n} | {ex} | {'–' if r['reach'] is None else r['reach']} | {fmt(r['early'], 2)} | "
                  f"{fmt(r['pen_share'], 2)} | {fmt(r['pen_clean'], 2)} | {fmt(r['pen_g'], 2)} | {fmt(r['noise_g'], 3)} |")
    print('\n## Per arm, mean ± 95 % t over pairs\n')
    print('| arm | rate/cap s 3-9 | rate 0.2-0.7 s after the exit, Mbit/s | reached 0.9 cap at s | penalised share | of them clean | median clean |g| |')
    print('| --- ' * 7 + '|')
    for arm, runs in res.items():
        rs = list(runs.values())
        if rs[0]['exit'] is None:
            continue
        print(f"| {arm} | {ci([r['early'] for r in rs], 2)} | {ci([r['exit']['base'] for r in rs if r['exit']])} | "
              f"{ci([r['reach'] for r in rs], 0)} | {ci([r['pen_share'] for r in rs], 2)} | "
              f"{ci([r['pen_clean'] for r in rs], 2)} | {ci([r['noise_g'] for r in rs], 3)} |")


if __name__ == '__main__':
    main(sys.argv[1:])
