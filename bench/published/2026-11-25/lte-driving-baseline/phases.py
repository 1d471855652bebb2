#!/usr/bin/env python3
"""Which phase of a driving trace carries vivace-video's bitrate gap to a TCP scheme (issue 18), from the bench run
directories, with ../lte-bitrate-gap/bitrate_gap.py's per-link-second table (imported: capacity, delivered, the
player's playing bitrate, the booked cause of unused capacity).

Each link-second from the first arrival to the player's last sample is one phase:
  start-up  the first bitrate_gap.STARTUP_S seconds with arrivals;
  fade      capacity < FADE_SHARE x the run's median capacity;
  after     within AFTER_S seconds after a fade second;
  steady    the rest.
Per run and phase: seconds, delivered Mbit, unused Mbit (capacity - delivered), and the on-screen share: the sum over
the phase's seconds of the playing bitrate divided by all the run's seconds with a playing bitrate (so the phases'
shares add up to the run's mean playing bitrate). Then A - B paired by repetition (labels ARM-N), mean ± 95 % t.
usage: python3 phases.py ARM-N=RUN_DIR...   (markdown on stdout; the first label's arm is B)"""
import importlib.util
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('bitrate_gap', os.path.join(HERE, '..', 'lte-bitrate-gap', 'bitrate_gap.py'))
bitrate_gap = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bitrate_gap)
FADE_SHARE = 0.5
AFTER_S = 5
PHASES = ['start-up', 'fade', 'after', 'steady']


def phases(per_s):
    """{second: phase} of a run's per-second rows."""
    med = statistics.median(p['cap'] for p in per_s)
    first = per_s[0]['s']
    out, last_fade = {}, None
    for p in per_s:
        s = p['s']
        if s - first < bitrate_gap.STARTUP_S:
            out[s] = 'start-up'
        elif p['cap'] < FADE_SHARE * med:
            out[s], last_fade = 'fade', s
        elif last_fade is not None and s - last_fade <= AFTER_S:
            out[s] = 'after'
        else:
            out[s] = 'steady'
    return out


def analyse(run):
    per_s = bitrate_gap.analyse(run)['per_s']
    ph = phases(per_s)
    playing = [p for p in per_s if p['br'] is not None]
    res = {k: {'s': 0, 'deliv': 0.0, 'unused': 0.0, 'screen': 0.0} for k in PHASES}
    for p in per_s:
        r = res[ph[p['s']]]
        r['s'] += 1
        r['deliv'] += p['deliv']
        r['unused'] += p['unused']
        if p['br'] is not None:
            r['screen'] += p['br'] / len(playing)
    return res


def ci(xs, d=2):
    if len(xs) < 2:
        return ', '.join(f'{x:+.{d}f}' for x in xs)
    m, h = bitrate_gap.student_t.mean_ci95(xs)
    return f'{m:+.{d}f} ± {h:.{d}f}'


def main(argv):
    if not argv:
        sys.exit(__doc__)
    arms = {}
    for arg in argv:
        label, _, run = arg.partition('=')
        arm, _, rep = label.rpartition('-')
        arms.setdefault(arm, {})[rep] = analyse(run)
    print('| run | ' + ' | '.join(f'{k}: s, delivered Mbit, on-screen share Mbit/s' for k in PHASES) + ' |')
    print('| --- ' * (1 + len(PHASES)) + '|')
    for arm, reps in arms.items():
        for rep, a in sorted(reps.items()):
            print(f'| {arm}-{rep} | ' + ' | '.join(f"{a[k]['s']}, {a[k]['deliv']:.1f}, {a[k]['screen']:.2f}" for k in PHASES) + ' |')
    names = list(arms)
    print(f'\nPaired A − {names[0]} (same seed), mean ± 95 % t over pairs:\n')
    print('| A | n | ' + ' | '.join(f'{k} delivered Mbit | {k} on-screen share Mbit/s' for k in PHASES) + ' |')
    print('| --- ' * (2 + 2 * len(PHASES)) + '|')
    for arm in names[1:]:
        reps = sorted(set(arms[arm]) & set(arms[names[0]]))
        cells = []
        for k in PHASES:
            for c in ('deliv', 'screen'):
                cells.append(ci([arms[arm][r][k][c] - arms[names[0]][r][k][c] for r in reps]))
        print(f'| {arm} | {len(reps)} | ' + ' | '.join(cells) + ' |')


if __name__ == '__main__':
    main(sys.argv[1:])
