#!/usr/bin/env python3
"""Where vivace-video's TMobile-LTE-short gap to tcp-bbr is left after slow_start_persistent_queue (issue 18), from
this folder's real-path runs (hold.sh: arms vv, vv-off, v, bbr; raw runs not committed) and, optionally, pcc-sim.

1. Unused capacity by phase and cause: ../lte-fade-cut-regain/why_tmobile.py's analyse (imported; it books each
   link-second with ../lte-bitrate-gap/bitrate_gap.py through ../lte-abr-fix/why_gap.py): start-up = bitrate_gap's
   first STARTUP_S seconds with arrivals, steady = the rest (queue-cut, below-cap split into what held the sender,
   idle with a full buffer, idle-gap).
2. The ABR side per run, from abr-segments-player-1.jsonl: which rendition of each segment index was on screen (the
   last completed download of the index that finished before the index's play time, play start = the first
   segment's end, no stalls: the run's playing time), abandonments (session s, rendition from -> to, dash.js's
   estimate before), re-downloads (why_gap.redownloads), the buffer at link s 9, dash.js's estimate over the link's
   capacity and the download path rate over capacity (bitrate_gap's), and the on-screen deficit to tcp-bbr of the
   same pair split into start-up indices (< 3) and later ones.
3. With SIM: pcc-sim on gradient-swing-span's TMobile real-path setting (its lte_settings, imported), vivace-video and
   vivace, gradient_span_ms 0 vs 300, seeds 1..N paired.
Usage: python3 why_gap_after.py RAW_DIR [SIM_BINARY SIM_OUT_DIR SEEDS]   (RAW_DIR: hold.sh's OUT/tmobile-lte-short)"""
import csv
import glob
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, '..', 'lte-fade-cut-regain'), os.path.join(HERE, '..', 'gradient-swing-span')]
import why_tmobile as why  # noqa: E402
bitrate_gap, why_gap, student_t = why.bitrate_gap, why.why_gap, why.student_t
SCENARIO = 'lte-tmobile-lte-short'
ARMS = [('vv', 'vivace-video'), ('vv-off', 'vivace-video'), ('v', 'vivace'), ('bbr', 'tcp-bbr')]
SEG_S, STARTUP_INDICES, BUFFER_AT = 2.0, 3, 9


def ci(xs, d=1, sign=''):
    xs = [x for x in xs if x is not None]
    if len(xs) >= 3:
        m, h = student_t.mean_ci95(xs)
        return f'{m:{sign}.{d}f} ± {h:.{d}f}'
    return ', '.join(f'{x:{sign}.{d}f}' for x in xs) or '–'


def result_row(root, arm, seed):
    for line in open(os.path.join(root, arm, 'results.jsonl')):
        r = json.loads(line)
        if r['seed'] == seed:
            return r
    return None


def on_screen(run, playing_s):
    """Rendition on screen per segment index (kbit/s) and the time-weighted mean (Mbit/s) of that reconstruction."""
    segs = [json.loads(line) for line in open(os.path.join(run, 'abr-segments-player-1.jsonl'))]
    done = [s for s in segs if s.get('kind') == 'segment' and not s.get('abandoned') and s.get('dashEndMs')]
    start = min(s['dashEndMs'] for s in done if s['index'] == 0) / 1000
    shown = []
    for i in range(int(playing_s // SEG_S) + 1):
        mine = [s for s in done if s['index'] == i]
        ready = [s for s in mine if s['dashEndMs'] / 1000 <= start + SEG_S * i] or mine[:1]
        shown.append(max(ready, key=lambda s: s['dashEndMs'])['renditionKbps'] if ready else None)
    w = [(min(SEG_S, playing_s - SEG_S * i), r) for i, r in enumerate(shown) if r]
    return shown, sum(a * r for a, r in w) / sum(a for a, _ in w) / 1000, w


def abr(run, per_s):
    segs = [json.loads(line) for line in open(os.path.join(run, 'abr-segments-player-1.jsonl'))]
    vids = [s for s in segs if s.get('kind') == 'segment']
    ab, prev = [], None
    for s in sorted(vids, key=lambda s: s.get('dashRequestMs') or 0):
        if s.get('abandoned'):
            nxt = next((t for t in vids if t['index'] == s['index'] and not t.get('abandoned')
                        and (t.get('dashRequestMs') or 0) > s['dashRequestMs']), None)
            ab.append(f"{s['dashRequestMs'] / 1000:.1f} ({s['renditionKbps']}→{nxt['renditionKbps'] if nxt else '–'}, "
                      f"est {prev if prev is not None else '–'})")
        elif s.get('estimateKbps') is not None:
            prev = s['estimateKbps']
    first8 = min((s['dashRequestMs'] / 1000 for s in vids if s['renditionKbps'] >= 8000), default=None)
    rows = {p['s']: p for p in per_s}
    est = [p['est'] / 1000 / p['cap'] for p in per_s if p['est'] and p['cap'] > 0 and p['out'] >= 0.5]
    return {'abandon': ab, 'first8000': first8, 'redl': why_gap.redownloads(run, 0, 1e9)['mbit'],
            'buf9': rows.get(BUFFER_AT, {}).get('buf'), 'est/cap': statistics.median(est) if est else None}


def abandon_windows(run, gap, tel):
    """Per abandoned video download (link clock): its link seconds, capacity, delivered, the controller's rate and
    the p95 queueing over them, the lowest controller rate, and the share of telemetry samples in it with a new loss,
    a gradient-cut probing MI, or slow start (a regain)."""
    _, ser_off = bitrate_gap.timeline(run)
    rows = {p['s']: p for p in gap['per_s']}
    out = []
    for g in bitrate_gap.segments(run, ser_off):
        if not g['abandoned']:
            continue
        secs = [rows[s] for s in range(int(g['start'] // 1000), int(g['end'] // 1000) + 1) if s in rows]
        inside = [t for t in tel if g['start'] / 1000 <= t['s'] <= g['end'] / 1000]
        mean = lambda k: statistics.mean(p[k] for p in secs if p[k] is not None) if any(p[k] is not None for p in secs) else None
        share = lambda f: sum(map(f, inside)) / len(inside) if inside else None
        out.append({'from': g['start'] / 1000, 'to': g['end'] / 1000, 'kbps': g['kbps'], 'cap': mean('cap'),
                    'deliv': mean('deliv'), 'ctl': mean('ctl'), 'p95q': max(p['p95q'] for p in secs),
                    'buf': secs[0]['buf'] if secs else None,
                    'min_rate': min((t['rate'] for t in inside), default=None), 'loss': share(lambda t: t['loss']),
                    'cut': share(lambda t: t['penalised']), 'ss': share(lambda t: t['state'] == 'slow_start')})
    return out


def collect(root):
    """{arm: {pair: why_tmobile's analysis + this file's ABR columns}} of RAW_DIR's runs."""
    res = {}
    found = [(arm, scheme, run) for arm, scheme in ARMS
             for run in sorted(glob.glob(os.path.join(root, arm, 'runs', SCENARIO, scheme, '*')))]
    for arm, scheme, run in found:
        n = int(os.path.basename(run))
        r = why.analyse(run, not scheme.startswith('tcp-'))
        gap = bitrate_gap.analyse(run)
        row = result_row(root, arm, n)
        p = row['players'][0]
        shown, recon, w = on_screen(run, p['playing_time_s'])
        r.update(abr(run, gap['per_s']))
        r['abandon_at'] = abandon_windows(run, gap, why.telemetry(run) if arm != 'bbr' else [])
        startup_deliv = sum(q['deliv'] for q in gap['per_s'] if q['s'] - gap['first'] < bitrate_gap.STARTUP_S)
        r.update({'shown': shown, 'recon': recon, 'w': w, 'played': p['time_weighted_bitrate_mbps'],
                  'downloaded': p['avg_bitrate_mbps'], 'path/cap': statistics.median(gap['path_over_cap']),
                  'deliv_start': startup_deliv, 'deliv_steady': gap['deliv_mbit'] - startup_deliv})
        res.setdefault(arm, {})[n] = r
    return res


def main(argv):
    if not argv:
        sys.exit(__doc__)
    res = collect(argv[0])
    steady = ['queue-cut', 'below-cap', 'idle-full', 'idle-gap']
    print('## 1. Unused capacity by phase and cause, Mbit per 30-s run (mean ± 95 % t over 3 pairs)\n')
    print('| arm | delivered s 1-4 | start-up unused | delivered after | ' + ' | '.join(steady)
          + ' | below-cap: app-short | slow-start | loss | gradient | steps | gradient-cut share of loss-free probing MIs |')
    print('| --- ' * 15 + '|')
    for arm, runs in res.items():
        rs = list(runs.values())
        dg = arm != 'bbr'
        print(f"| {arm} | {ci([r['deliv_start'] for r in rs])} | {ci([r['book']['startup'] for r in rs])} | "
              f"{ci([r['deliv_steady'] for r in rs])} | " + ' | '.join(ci([r['book'][c] for r in rs]) for c in steady) + ' | '
              + ' | '.join(ci([r['split'][c] for r in rs]) if dg else '–' for c in ['app-short', 'slow-start', 'loss', 'gradient', 'steps'])
              + f" | {ci([r['pen_share'] for r in rs], 2) if dg else '–'} |")
    print('\nPaired arm − bbr (same pair), Mbit:\n')
    print('| arm − bbr | delivered s 1-4 | start-up unused | delivered after | ' + ' | '.join(steady) + ' |')
    print('| --- ' * 8 + '|')
    for arm, runs in res.items():
        if arm == 'bbr':
            continue
        d = lambda g: ci([g(runs[n]) - g(res['bbr'][n]) for n in sorted(set(runs) & set(res['bbr']))], 1, '+')
        print(f"| {arm} | {d(lambda r: r['deliv_start'])} | {d(lambda r: r['book']['startup'])} | {d(lambda r: r['deliv_steady'])} | "
              + ' | '.join(d(lambda r, c=c: r['book'][c]) for c in steady) + ' |')
    print('\n## 2. The ABR side per run\n')
    print('| run | on screen Mbit/s | downloaded mean | reconstructed | renditions on screen by index | first 8000 request s '
          '| abandoned at session s (from→to, estimate before) | re-downloaded Mbit | buffer s at link s 9 '
          '| estimate / capacity (median) | download path / capacity (median) | idle, buffer full Mbit |')
    print('| --- ' * 12 + '|')
    for arm, runs in res.items():
        for n, r in runs.items():
            print(f"| {arm}-{n} | {r['played']:.2f} | {r['downloaded']:.2f} | {r['recon']:.2f} | "
                  f"{' '.join(str(x // 100 if x else '–') for x in r['shown'])} | {why.fmt(r['first8000'], 1)} | "
                  f"{'; '.join(r['abandon']) or 'none'} | {r['redl']:.1f} | {why.fmt(r['buf9'], 1)} | {why.fmt(r['est/cap'], 2)} | "
                  f"{why.fmt(r['path/cap'], 2)} | {r['book']['idle-full']:.1f} |")
    print('\n(renditions in 100 kbit/s: 80 = 8000)\n')
    print('Each abandoned download (dash.js 5.2.1 AbandonRequestsRule: buffer below bufferTimeDefault and the download\'s '
          'own rate projecting > 1.8 segment durations, i.e. < 4.4 Mbit/s for an 8000-kbit/s 2-s segment), on the link clock:\n')
    print('| run | link s | rendition | buffer s | capacity | delivered | controller rate | min controller rate | max p95 queueing ms '
          '| samples with a new loss | gradient-cut | slow start |')
    print('| --- ' * 12 + '|')
    for arm, runs in res.items():
        for n, r in runs.items():
            for a in r['abandon_at']:
                print(f"| {arm}-{n} | {a['from']:.1f}–{a['to']:.1f} | {a['kbps']} | {why.fmt(a['buf'], 1)} | {a['cap']:.1f} | "
                      f"{a['deliv']:.1f} | {why.fmt(a['ctl'], 1)} | {why.fmt(a['min_rate'], 1)} | {a['p95q']:.0f} | "
                      f"{why.fmt(a['loss'], 2)} | {why.fmt(a['cut'], 2)} | {why.fmt(a['ss'], 2)} |")
    print()
    print('On-screen deficit to tcp-bbr of the same pair, from the reconstruction, Mbit/s of the run\'s playing time '
          f'(indices < {STARTUP_INDICES}: start-up; the rest: steady):\n')
    print('| arm − bbr | on screen (published) | reconstructed | start-up indices | later indices | later indices after an abandonment |')
    print('| --- ' * 6 + '|')
    for arm, runs in res.items():
        if arm == 'bbr':
            continue
        rows = {k: [] for k in ['pub', 'rec', 'early', 'late', 'after_ab']}
        for n in sorted(set(runs) & set(res['bbr'])):
            a, b = runs[n], res['bbr'][n]
            play = sum(x for x, _ in a['w'])
            part = lambda lo, hi: sum(min(SEG_S, x) * ((ra or 0) - (rb or 0)) for i, ((x, ra), (_, rb))
                                      in enumerate(zip(a['w'], b['w'])) if lo <= i < hi) / 1000 / play
            first_ab = min((float(s.split()[0]) for s in a['abandon']), default=None)
            late = part(STARTUP_INDICES, 99)
            rows['pub'].append(a['played'] - b['played'])
            rows['rec'].append(a['recon'] - b['recon'])
            rows['early'].append(part(0, STARTUP_INDICES))
            rows['late'].append(late)
            rows['after_ab'].append(late if first_ab is not None else 0.0)
        print(f"| {arm} | " + ' | '.join(ci(rows[k], 2, '+') for k in rows) + ' |')
    if len(argv) >= 4:
        sim(argv[1], argv[2], int(argv[3]))


def sim(binary, out, seeds):
    import gradient_span_sim as gss
    frs = gss.frs
    setting = gss.lte_settings()[('tmobile', 'rp')]
    os.makedirs(out, exist_ok=True)
    got = {}
    for cc in ['vivace-video', 'vivace']:
        for span in [0, 300]:
            for seed in range(1, seeds + 1):
                path = os.path.join(out, f'{cc}-{span}-{seed}.csv')
                doc = gss.run(binary, ['--cc', cc, '--cc-param', f'gradient_span_ms={span}', *setting, '--seed', str(seed)], path)
                m = frs.metrics(path, doc, 'tmobile')
                m['rate_over_cap'] = gss.rate_over_cap(list(csv.DictReader(open(path))))
                got[(cc, span, seed)] = m
    print(f'\n## 3. pcc-sim, TMobile-LTE-short real-path setting, gradient_span_ms 300 − 0, seeds 1–{seeds} paired\n')
    keys = ['bitrate_mbps', 'throughput_mbps', 'rate_over_cap', 'p95_queue_ms', 'buffering_pct']
    print('| cc | span 0: bitrate | span 0: rate/cap | ' + ' | '.join(f'Δ {k}' for k in keys) + ' |')
    print('| --- ' * (3 + len(keys)) + '|')
    for cc in ['vivace-video', 'vivace']:
        base = [got[(cc, 0, s)] for s in range(1, seeds + 1)]
        print(f"| {cc} | {ci([m['bitrate_mbps'] for m in base], 2)} | {ci([m['rate_over_cap'] for m in base], 2)} | "
              + ' | '.join(ci([got[(cc, 300, s)][k] - got[(cc, 0, s)][k] for s in range(1, seeds + 1)], 2, '+') for k in keys) + ' |')


if __name__ == '__main__':
    main(sys.argv[1:])
