#!/usr/bin/env python3
"""Why dash.js picks lower renditions under vivace-video than under tcp-bbr on Verizon-LTE-short (issue 18), from the
raw runs of this folder (analysis only). Per pair (same seed, same hold) and arm, from abr-segments-player-1.jsonl on
the link clock (../lte-abr-fix/why_gap.py's bitrate_gap.timeline: link s = session s + offset):

1. On screen by phase: the rendition on screen each 10 ms, rebuilt from the downloads (the playhead runs from the
   startup delay without stalls, as the player counted <= 0.62 s of stall in every run; a segment shows the last
   rendition of it that finished by then, or its first download if none had, so a fast-switch replacement shows from
   its end), checked against the player's own time_weighted_bitrate_mbps. Phases by link s: start [0, FADE_FROM), fade [FADE_FROM, BACK), after [BACK, end).
2. After the capacity came back (requests from link s BACK): the buffer then; how long the abandonment lock
   (ABANDON_LOCK_S) still held; the seconds until the first request of >= 2000 and of 4000 kbit/s; the rules that
   switched (dash.js's reason: ThroughputRule, BOLA's state, InsufficientBufferRule, AbandonRequestRule); per finished
   download before the first 4000 request, its raw rate 8*bytes/download time over the link's capacity in those ms,
   the etp the origin sent over that capacity, and the stored sample over the raw rate (the 0.5 etp blend's lift); and
   dash.js's estimate at the decision that requested 4000 (or at the last decision before it) over capacity; the
   controller's mean rate over capacity per link s (timeline.py's, datagram arms).
3. Start-up: the first download's raw rate, etp and sample, the first 4000 request, dash.js's estimate after 5
   downloads beside the harmonic mean of their raw rates (the same estimate without the etp blend).
usage: python3 why_abr.py RUNS_ROOT   (RUNS_ROOT/verizon-lte-short/{vv,bbr}/runs/...; markdown on stdout)"""
import glob
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'lte-abr-fix'))
from stats import interval  # noqa: E402
from why_gap import bitrate_gap, result_row  # noqa: E402

FADE_FROM, BACK = 11, 17  # Verizon-LTE-short: capacity under 2.2 Mbit/s in link s 11-16, 6-7 from 17 (why-gap.md)
ABANDON_LOCK_S = 4.0  # player/src/session/playback-session.ts ABANDON_LOCK_MS
SEGMENT_S = 2.0
ARMS = [('vv', 'vivace-video'), ('bbr', 'tcp-bbr')]


def rule(reason):
    if not isinstance(reason, dict):
        return '?'
    if 'state' in reason:
        return 'BOLA'
    msg = reason.get('message', '')
    return msg[1:msg.index(']')] if msg.startswith('[') and ']' in msg else '?'


def load(run):
    rows, off = bitrate_gap.timeline(run)
    recs = [json.loads(line) for line in open(os.path.join(run, 'abr-segments-player-1.jsonl'))]
    segs, switches = [], []
    for r in recs:
        if r['kind'] == 'switch':
            switches.append({'t': r['atMs'] / 1000 + off, 'to': r['toKbps'], 'rule': rule(r['reason'])})
            continue
        t = r.get('transfer') or {}
        if r.get('dashRequestMs') is None or t.get('startMs') is None:
            continue
        segs.append({'req': r['dashRequestMs'] / 1000 + off, 'fb': (t.get('firstByteMs') or t['startMs']) / 1000 + off,
                     'end': None if t.get('endMs') is None else t['endMs'] / 1000 + off, 'index': r['index'],
                     'kbps': r['renditionKbps'], 'raw': r['sampleRawKbps'], 'sample': r['sampleKbps'], 'etp': r['etpKbps'],
                     'est': r['estimateKbps'], 'buf': r['bufferS'], 'ok': not r['abandoned'] and r['status'] == 200})
    return rows, off, sorted(segs, key=lambda s: s['req']), switches


def capacity(rows, a, b):
    """Mean capacity (kbit/s) of the link over [a, b) link s."""
    if b <= a:
        return None
    tot, s = 0.0, int(a)
    while s < b:
        lo, hi = max(a, s), min(b, s + 1)
        tot += (rows[s]['cap'] if s in rows else 0.0) * (hi - lo)
        s += 1
    return 1000 * tot / (b - a)


def on_screen(segs, off, startup_s, end_s, dt=0.01):
    """Kbit/s x s on screen per phase, and the playing seconds, from the downloads (see the docstring)."""
    done = sorted((s for s in segs if s['ok'] and s['end'] is not None), key=lambda s: s['end'])
    phase = {'start': [0.0, 0.0], 'fade': [0.0, 0.0], 'after': [0.0, 0.0]}
    t = startup_s + off
    while t < end_s + off:
        k = int((t - startup_s - off) // SEGMENT_S)
        mine = [s for s in done if s['index'] == k]
        have = [s for s in mine if s['end'] <= t] or mine[:1]
        if have:
            name = 'start' if t < FADE_FROM else 'fade' if t < BACK else 'after'
            phase[name][0] += have[-1]['kbps'] * dt
            phase[name][1] += dt
        t += dt
    return phase


def after_return(rows, segs, switches):
    back = BACK
    before = [s for s in segs if s['req'] < back]
    buf = next((s['buf'] for s in reversed(before) if s['buf'] is not None), None)
    aband = [w['t'] for w in switches if w['rule'] == 'AbandonRequestRule' and w['t'] < back]
    lock = max(0.0, aband[-1] + ABANDON_LOCK_S - back) if aband else 0.0
    post = [s for s in segs if s['req'] >= back]
    first = {q: next((s['req'] - back for s in post if s['kbps'] >= q), None) for q in (2000, 4000)}
    up_to = [s for s in post if first[4000] is None or s['req'] < back + first[4000]]
    raw_cap, etp_cap, lift = [], [], []
    for s in up_to:
        if not s['ok'] or s['raw'] is None or s['end'] is None:
            continue
        cap = capacity(rows, s['fb'], s['end'])
        if cap:
            raw_cap.append(s['raw'] / cap)
            if s['etp'] is not None:
                etp_cap.append(s['etp'] / cap)
        if s['sample'] is not None:
            lift.append(s['sample'] / s['raw'])
    # the estimate dash.js held when it asked for 4000 (the previous finished download's), over the capacity then
    dec = next((s for s in post if s['kbps'] >= 4000), post[-1] if post else None)
    prev = [s for s in segs if s['end'] is not None and s['end'] <= (dec['req'] if dec else 0) and s['est'] is not None]
    est_cap = prev[-1]['est'] / capacity(rows, dec['req'] - 1, dec['req']) if prev and dec else None
    rules = {}
    for w in switches:
        if w['t'] >= back:
            rules[w['rule']] = rules.get(w['rule'], 0) + 1
    return {'buf': buf, 'lock': lock, 'to2000': first[2000], 'to4000': first[4000], 'raw/cap': statistics.median(raw_cap),
            'etp/cap': statistics.median(etp_cap), 'lift': statistics.median(lift), 'est/cap': est_cap, 'n': len(raw_cap),
            'rules': rules, 'small': sum(1 for s in up_to if s['kbps'] <= 800),
            'ctl': ' '.join('–' if rows[k]['ctl'] is None else f"{rows[k]['ctl'] / rows[k]['cap']:.2f}" for k in range(back, back + 6))}


def harmonic(xs):
    return len(xs) / sum(1 / x for x in xs)


def start_up(rows, off, segs):
    """The first download's raw rate, etp and stored sample; the session s of the first 4000 request; dash.js's
    estimate after the 5th finished download and the harmonic mean of those 5 raw rates (no etp); the median raw rate
    over capacity of the downloads requested before the fade."""
    done = [s for s in segs if s['ok'] and s['raw'] is not None]
    first = done[0]
    to4000 = next((s['req'] - off for s in segs if s['kbps'] >= 4000), None)
    pre = [s['raw'] / capacity(rows, s['fb'], s['end']) for s in done if s['req'] < FADE_FROM and s['end'] is not None]
    return {'raw0': first['raw'], 'etp0': first['etp'], 'sample0': first['sample'], 'first4000_s': to4000,
            'est5': done[4]['est'], 'raw_h5': harmonic([s['raw'] for s in done[:5]]), 'pre_raw/cap': statistics.median(pre)}


def main(root):
    out = {}
    for arm, scheme in ARMS:
        for run in sorted(glob.glob(os.path.join(root, 'verizon-lte-short', arm, 'runs', '*', scheme, '*'))):
            rows, off, segs, switches = load(run)
            res = result_row(run)
            player = res['players'][0]
            end_s = player['startup_delay_s'] + player['playing_time_s'] + player['stall_time_s']
            ph = on_screen(segs, off, player['startup_delay_s'], end_s)
            played = sum(v[0] for v in ph.values()) / sum(v[1] for v in ph.values()) / 1000
            out[(arm, int(os.path.basename(run)))] = {
                'off': off, 'phase': ph, 'rebuilt': played, 'player': player['time_weighted_bitrate_mbps'],
                **after_return(rows, segs, switches), **start_up(rows, off, segs)}
    pairs = sorted({n for _, n in out})
    print('## On screen by phase (rebuilt from the downloads; Mbit/s x s, i.e. Mbit shown)\n')
    print('| pair | arm | link offset s | rebuilt / player time-weighted Mbit/s | start (link s < 11) | fade (11-16) | after (>= 17) |')
    print('| --- | --- | --- | --- | --- | --- | --- |')
    for n in pairs:
        for arm, _ in ARMS:
            o = out[(arm, n)]
            print(f"| {n} | {arm} | {o['off']:.1f} | {o['rebuilt']:.3f} / {o['player']:.3f} | "
                  + ' | '.join(f"{o['phase'][p][0] / 1000:.1f} in {o['phase'][p][1]:.1f} s" for p in ('start', 'fade', 'after')) + ' |')
    print('\n| vv − bbr, Mbit shown | start | fade | after | whole run |')
    print('| --- | --- | --- | --- | --- |')
    diffs = {p: [(out[('vv', n)]['phase'][p][0] - out[('bbr', n)]['phase'][p][0]) / 1000 for n in pairs] for p in ('start', 'fade', 'after')}
    whole = [sum(diffs[p][i] for p in diffs) for i in range(len(pairs))]
    print('| mean ± 95 % t (per pair) | ' + ' | '.join(f"{interval(diffs[p], 1, '+')} ({', '.join(f'{d:+.1f}' for d in diffs[p])})"
                                                      for p in ('start', 'fade', 'after'))
          + f" | {interval(whole, 1, '+')} ({', '.join(f'{d:+.1f}' for d in whole)}) |")
    print('\n## Start-up (before the fade)\n')
    print('| pair | arm | 1st download raw kbit/s | its etp | its sample | session s of the first 4000 request '
          '| estimate after 5 downloads | harmonic mean of their raw rates | raw / capacity before the fade (median) |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for n in pairs:
        for arm, _ in ARMS:
            o = out[(arm, n)]
            first4000 = '–' if o['first4000_s'] is None else f"{o['first4000_s']:.1f}"
            print(f"| {n} | {arm} | {o['raw0']:.0f} | {o['etp0']} | {o['sample0']:.0f} | {first4000} | {o['est5']:.0f} | "
                  f"{o['raw_h5']:.0f} | {o['pre_raw/cap']:.2f} |")
    print(f'\n## After the capacity came back (requests from link s {BACK})\n')
    print('| pair | arm | buffer s at return | abandonment lock left s | s to first 2000 | s to first 4000 | ≤ 800 requests before 4000 '
          '| raw / capacity (median) | etp / capacity | sample / raw (etp blend) | estimate / capacity at the 4000 decision | switches after (rule: n) '
          f'| controller rate / capacity, link s {BACK}-{BACK + 5} |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    f = lambda x, d=2: '–' if x is None else f'{x:.{d}f}'  # noqa: E731
    for n in pairs:
        for arm, _ in ARMS:
            o = out[(arm, n)]
            print(f"| {n} | {arm} | {f(o['buf'], 1)} | {f(o['lock'], 1)} | {f(o['to2000'], 1)} | {f(o['to4000'], 1)} | {o['small']} | "
                  f"{f(o['raw/cap'])} (n {o['n']}) | {f(o['etp/cap'])} | {f(o['lift'])} | {f(o['est/cap'])} | "
                  + ', '.join(f'{k}: {v}' for k, v in sorted(o['rules'].items())) + f" | {o['ctl']} |")
    print('\n| vv − bbr (mean ± 95 % t, per pair) | value |')
    print('| --- | --- |')
    for key, d in [('first4000_s', 1), ('est5', 0), ('pre_raw/cap', 2), ('to2000', 1), ('to4000', 1), ('lock', 1), ('raw/cap', 2), ('etp/cap', 2), ('lift', 2), ('est/cap', 2)]:
        xs = [out[('vv', n)][key] - out[('bbr', n)][key] for n in pairs]
        print(f"| {key} | {interval(xs, d, '+')} ({', '.join(f'{x:+.{d}f}' for x in xs)}) |")


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else '/tmp/A-real')
