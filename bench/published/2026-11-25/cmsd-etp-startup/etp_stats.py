#!/usr/bin/env python3
"""This folder's tables from the raw runs of hold.sh (OUT/SCEN/ARM/...): per trace and arm (vv: vivace-video with
--etp-source measured; vvp: vivace-video with --etp-source pacing, the rule before; bbr: tcp-bbr), per run the players'
on-screen (time-weighted) bitrate, the session s of the first 4000-kbit/s request, the first download's raw rate, etp
and dash.js's stored sample (player log abr-segments-player-1.jsonl, read by ../lte-fade-cut-regain/why_abr.py's
load), buffering ratio, startup delay and p95 queueing delay; then means ± 95 % Student-t over the pairs (same seed,
same hold) and paired differences. A run that never asked for 4000 counts as 30 s (the run's length) in the means.
Usage: python3 etp_stats.py OUT [--collect]   (--collect also writes results.jsonl: the bench's rows, in hold order)"""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'lte-fade-cut-regain'))
sys.path.insert(0, os.path.join(HERE, '..', 'lte-abr-fix'))
from stats import interval  # noqa: E402
from why_abr import load, on_screen  # noqa: E402

SCHEME = {'vv': 'vivace-video', 'vvp': 'vivace-video', 'bbr': 'tcp-bbr'}
ARMS = ['vv', 'vvp', 'bbr']
RUN_S = 30.0


def holds():
    """(scen, arm, rep) -> (1-min load at its start, WASM prefix)."""
    out = {}
    for line in open(os.path.join(HERE, 'holds.jsonl')):
        h = json.loads(line)
        parts = h['event'].split()
        if parts[0] == 'start' and len(parts) == 3:
            arm, rep = parts[2].split('/')
            out[(parts[1], arm, int(rep))] = (h['load1'], h['wasm'])
    return out


def run_figures(out, scen, arm):
    figures = {}
    for row_file in glob.glob(os.path.join(out, scen, arm, 'results.jsonl')):
        for line in open(row_file):
            r = json.loads(line)
            if r['status'] != 'ok':
                continue
            run = os.path.join(out, scen, arm, r['artifacts']['series'].rsplit('/', 1)[0])
            _, off, segs, _ = load(run)
            done = [s for s in segs if s['ok'] and s['raw'] is not None]
            first4000 = next((s['req'] - off for s in segs if s['kbps'] >= 4000), None)
            p = r['players'][0]
            end_s = p['startup_delay_s'] + p['playing_time_s'] + p['stall_time_s']
            # Mbit shown per phase of Verizon-LTE-short's fade (why_abr.py's link-s bounds), rebuilt from the downloads
            phases = {k: v[0] / 1000 for k, v in on_screen(segs, off, p['startup_delay_s'], end_s).items()}
            figures[r['repetition']] = {**{f'shown_{k}': v for k, v in phases.items()},
                'row': r, 'onscreen': p['time_weighted_bitrate_mbps'], 'first4000': first4000,
                'first4000_or_run': RUN_S if first4000 is None else first4000,
                'raw0': done[0]['raw'], 'etp0': done[0]['etp'], 'sample0': done[0]['sample'],
                'etp_n': sum(1 for s in done[:5] if s['etp'] is not None),
                'buffering': 100 * r['buffering_ratio'], 'startup': r['startup_delay_s'], 'p95q': r['queue_delay_p95_ms']}
    return figures


def main(out, collect):
    notes = holds()
    scens = sorted({os.path.basename(os.path.dirname(p)) for p in glob.glob(os.path.join(out, '*', '*'))})
    rows = []
    for scen in scens:
        runs = {arm: run_figures(out, scen, arm) for arm in ARMS}
        print(f'## {scen}\n')
        print('| arm | pair | load1 | WASM | on screen Mbit/s | first 4000 request, session s | 1st download raw / etp / sample kbit/s '
              '| downloads of the first 5 with etp | buffering % | startup s | p95 queueing ms |')
        print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
        for arm in ARMS:
            for n, f in sorted(runs[arm].items()):
                load1, wasm = notes.get((scen, arm, n), ('?', '?'))
                f4 = '–' if f['first4000'] is None else f"{f['first4000']:.1f}"
                etp0 = '–' if f['etp0'] is None else f"{f['etp0']:.0f}"
                print(f"| {arm} | {n} | {load1} | {wasm} | {f['onscreen']:.3f} | {f4} | {f['raw0']:.0f} / {etp0} / {f['sample0']:.0f} "
                      f"| {f['etp_n']} | {f['buffering']:.2f} | {f['startup']:.2f} | {f['p95q']:.0f} |")
                rows.append((f['row']['started_at'], f['row']))
        print()
        keys = [('onscreen', 'on screen Mbit/s', 3), ('first4000_or_run', 'first 4000 request s', 1), ('buffering', 'buffering %', 2),
                ('startup', 'startup s', 2), ('p95q', 'p95 queueing ms', 0)]
        print('| arm | ' + ' | '.join(k[1] for k in keys) + ' |')
        print('| --- |' + ' --- |' * len(keys))
        for arm in ARMS:
            fs = list(runs[arm].values())
            if fs:
                print(f'| {arm} (n {len(fs)}) | ' + ' | '.join(interval([f[k] for f in fs], d) for k, _, d in keys) + ' |')
        print()
        phase_rows = []
        print('| paired difference | ' + ' | '.join(k[1] for k in keys) + ' |')
        print('| --- |' + ' --- |' * len(keys))
        pkeys = [('shown_start', 'Mbit shown, link s < 11', 1), ('shown_fade', 'link s 11-16', 1), ('shown_after', 'link s >= 17', 1)]
        for a, b in [('vv', 'vvp'), ('vv', 'bbr'), ('vvp', 'bbr')]:
            reps = sorted(set(runs[a]) & set(runs[b]))
            if len(reps) < 2:
                continue
            if scen == 'verizon-lte-short':
                cells = []
                for k, _, d in pkeys:
                    diffs = [runs[a][n][k] - runs[b][n][k] for n in reps]
                    cells.append(f"{interval(diffs, d, '+')} ({', '.join(f'{x:+.{d}f}' for x in diffs)})")
                phase_rows.append(f'| {a} − {b} (n {len(reps)}) | ' + ' | '.join(cells) + ' |')
            cells = []
            for k, _, d in keys:
                diffs = [runs[a][n][k] - runs[b][n][k] for n in reps]
                cells.append(f"{interval(diffs, d, '+')} ({', '.join(f'{x:+.{d}f}' for x in diffs)})")
            print(f'| {a} − {b} (n {len(reps)}) | ' + ' | '.join(cells) + ' |')
        print()
        if phase_rows:
            print('On screen by phase of the fade, Mbit shown (why_abr.py on_screen, rebuilt from the downloads):\n')
            print('| paired difference | ' + ' | '.join(k[1] for k in pkeys) + ' |')
            print('| --- |' + ' --- |' * len(pkeys))
            print('\n'.join(phase_rows) + '\n')
    if collect:
        with open(os.path.join(HERE, 'results.jsonl'), 'w') as fh:
            for _, r in sorted(rows, key=lambda x: x[0]):
                fh.write(json.dumps(r) + '\n')


if __name__ == '__main__':
    main(sys.argv[1], '--collect' in sys.argv[2:])
