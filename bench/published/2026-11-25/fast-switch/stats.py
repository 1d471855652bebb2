#!/usr/bin/env python3
"""This folder's tables (issue 18, dash.js fast switch on LTE): vivace-video and tcp-bbr with the page's
fastSwitch=on (dash.js's own choice, today's default) and fastSwitch=off, Verizon-LTE-short, 30 s.

  python3 stats.py collect OUT... the bench outputs OUT/ARM (hold.sh) -> results.jsonl (the bench's rows) and
                                 redownloads.jsonl (per run: ../lte-abr-fix/why_gap.py's re-downloads, whole run and
                                 requests in session s 12-24, the video bytes downloaded, and the shared WASM's
                                 hash at the run's end from holds.jsonl)
  python3 stats.py               the tables from those two files: per arm mean ± 95 % Student-t (../../student_t.py),
                                 then off − on paired by seed (same hold) per scheme, with the per-pair values.
The bench's avg bitrate is the mean rendition of every loaded segment, re-downloads included; the time-weighted
bitrate is what was on screen (dash.js's rendered-quality events over playing time), the played video's bitrate."""
import glob
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# lte-abr-fix/stats.py's value and interval (a module of the same name as this script, so loaded by its path).
_spec = importlib.util.spec_from_file_location('lte_abr_fix_stats', os.path.join(HERE, '..', 'lte-abr-fix', 'stats.py'))
_abr_stats = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_abr_stats)
value, interval = _abr_stats.value, _abr_stats.interval

ARMS = ['vv-on', 'vv-off', 'bbr-on', 'bbr-off']
COLUMNS = [('avg_bitrate_mbps', 'avg bitrate Mbit/s (every loaded segment)', 1, 3),
           ('time_weighted_bitrate_mbps', 'time-weighted Mbit/s (on screen)', 1, 3),
           ('buffering_ratio', 'buffering %', 100, 2),
           ('queue_delay_p95_ms', 'p95 queueing ms', 1, 0), ('redownload_frac', 're-downloaded / downloaded', 1, 3),
           ('redownload_frac_win', 're-downloaded / downloaded, s 12–24', 1, 3), ('switch_count', 'switches', 1, 1),
           ('goodput_mbps', 'goodput Mbit/s', 1, 3)]


def redownloads(run):
    spec = importlib.util.spec_from_file_location('why_gap', os.path.join(HERE, '..', 'lte-abr-fix', 'why_gap.py'))
    why_gap = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(why_gap)
    whole = why_gap.redownloads(run, 0, float('inf'))
    win = why_gap.redownloads(run, 12, 24)
    return {'n': whole['n'], 'mbit': whole['mbit'], 'total_mbit': whole['total_win'],
            'n_win': win['n_win'], 'mbit_win': win['mbit_win'], 'total_mbit_win': win['total_win']}


def run_wasm():
    """(arm, seed) -> the shared WASM's sha256 prefix when that run ended (holds.jsonl, the last successful end)."""
    out = {}
    for e in map(json.loads, open(os.path.join(HERE, 'holds.jsonl'))):
        if e['event'].startswith('end ') and e['event'].endswith(' rc=0'):
            arm, seed = e['event'].split()[1].split('/')
            out[(arm, int(seed))] = e['wasm']
    return out


def collect(outs):
    wasm = run_wasm()
    with open(os.path.join(HERE, 'results.jsonl'), 'w') as res, open(os.path.join(HERE, 'redownloads.jsonl'), 'w') as red:
        for out in outs:
            for arm in ARMS:
                for line in open(os.path.join(out, arm, 'results.jsonl')):
                    r = json.loads(line)
                    res.write(line if line.endswith('\n') else line + '\n')
                    run = glob.glob(os.path.join(out, arm, 'runs', r['scenario'], r['scheme'], str(r['repetition'])))[0]
                    red.write(json.dumps({'arm': arm, 'run_id': r['run_id'], 'seed': r['seed'], 'wasm': wasm[(arm, r['seed'])],
                                          **redownloads(run)}) + '\n')


def table():
    red = {(d['arm'], d['seed']): d for d in map(json.loads, open(os.path.join(HERE, 'redownloads.jsonl')))}
    groups = {}  # (scheme, WASM for vivace-video: its controller differs between builds; tcp-bbr does not use it) -> mode -> seed -> row
    for r in map(json.loads, open(os.path.join(HERE, 'results.jsonl'))):
        if r['status'] != 'ok' or not r['players']:
            continue
        mode = r['player_params']['fastSwitch']
        d = red[(f"{'vv' if r['scheme'] == 'vivace-video' else 'bbr'}-{mode}", r['seed'])]
        r['redownload_frac'] = d['mbit'] / d['total_mbit']
        r['redownload_frac_win'] = d['mbit_win'] / d['total_mbit_win'] if d['total_mbit_win'] else 0.0
        group = f"{r['scheme']} (WASM {d['wasm']})" if r['scheme'] == 'vivace-video' else r['scheme']
        groups.setdefault(group, {}).setdefault(mode, {})[r['seed']] = r
    print('lte-verizon-lte-short (30 s, ABR), mean ± 95 % t over seeds\n')
    print('| arm | n | ' + ' | '.join(c[1] for c in COLUMNS) + ' |')
    print('| --- | --- |' + ' --- |' * len(COLUMNS))
    for group in sorted(groups):
        for mode in ('on', 'off'):
            rs = [groups[group][mode][n] for n in sorted(groups[group].get(mode, {}))]
            if rs:
                print(f'| {group} fastSwitch={mode} | {len(rs)} | '
                      + ' | '.join(interval([value(r, k) * s for r in rs], d) for k, _, s, d in COLUMNS) + ' |')
    print('\nPaired off − on (same seed, same hold), mean ± 95 % t, per seed in brackets:\n')
    for group in sorted(groups):
        on, off = groups[group].get('on', {}), groups[group].get('off', {})
        seeds = sorted(set(on) & set(off))
        if len(seeds) < 2:
            continue
        print(f'- {group} (n = {len(seeds)}, seeds {", ".join(map(str, seeds))}):')
        for k, name, s, d in COLUMNS:
            diffs = [(value(off[n], k) - value(on[n], k)) * s for n in seeds]
            print(f"  - {name}: {interval(diffs, d, '+')} ({', '.join(f'{v:+.{d}f}' for v in diffs)})")


if __name__ == '__main__':
    if sys.argv[1:2] == ['collect']:
        collect(sys.argv[2:])
    else:
        table()
