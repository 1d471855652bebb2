#!/usr/bin/env python3
"""Why vivace-video (vv) and vivace (v) start 3.6-5.7 s late on ATT-LTE-driving-2016 where TCP starts in 0.6-2.9 s, and
what each arm entered the long fade (link s 19-26) with. Reads the bench run directories of this folder's runs (pair 1
from REDO, pairs 2-3 from OUT, as assemble.py) and prints why-att-startup.md's tables.

Clocks: the link's (ms since linkem's init timestamp, link-down.log's header, epoch ms); the origin's log and telemetry
file are on the same machine clock (session.open's wall time; telemetry t_ms counts from it). The player's times are on
its own clock (the session's start, performance.now()); they are given as logged, not moved to the link's clock.
The trace's uplink outages (no delivery opportunity for >= 300 ms) come from bench/traces/ATT-LTE-driving-2016.up.
Per link-second fade rows come from ../lte-bitrate-gap/bitrate_gap.py (imported; player columns aligned to +-1 s).
usage: python3 why_att_startup.py OUT REDO"""
import datetime
import glob
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('bitrate_gap', os.path.join(HERE, '..', 'lte-bitrate-gap', 'bitrate_gap.py'))
bitrate_gap = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bitrate_gap)
SCEN = 'att-lte-driving-2016'
SCHEMES = {'vv': 'vivace-video', 'v': 'vivace', 'bbr': 'tcp-bbr', 'cubic': 'tcp-cubic'}
UP_TRACE = os.path.join(HERE, '..', '..', '..', 'traces', 'ATT-LTE-driving-2016.up')
FADE = (19, 26)


def run_dir(out, redo, arm, n):
    base = redo if n == 1 else out
    return os.path.join(base, SCEN, arm, 'runs', f'lte-{SCEN}', SCHEMES[arm], str(n))


def result_row(run):
    arm_dir = run.split('/runs/')[0]
    rid = '/'.join(run.split('/runs/')[1].split('/'))
    for line in open(os.path.join(arm_dir, 'results.jsonl')):
        r = json.loads(line)
        if r['run_id'] == rid and r['status'] == 'ok':
            return r
    return None


def up_outages(min_ms=300, until_ms=40000):
    ts = [int(x) for x in open(UP_TRACE) if x.strip()]
    return [(a, b) for a, b in zip(ts, ts[1:]) if b - a >= min_ms and a < until_ms]


def link_init_ms(run):
    for line in open(os.path.join(run, 'link-down.log')):
        if line.startswith('# init timestamp:'):
            return int(line.split(':')[1])
    return None


def epoch_ms(iso):
    return datetime.datetime.fromisoformat(iso.replace('Z', '+00:00')).timestamp() * 1000


def down_bytes(run, lo_ms, hi_ms):
    """Bytes the downlink delivered in [lo_ms, hi_ms) of the link clock."""
    b = 0
    for line in open(os.path.join(run, 'link-down.log')):
        p = line.split()
        if len(p) >= 3 and p[1] == '-' and lo_ms <= int(p[0]) < hi_ms:
            b += int(p[2])
    return b


def segments(run):
    out = []
    for line in open(os.path.join(run, 'abr-segments-player-1.jsonl')):
        o = json.loads(line)
        if o.get('kind') == 'segment' and o.get('dashRequestMs') is not None:
            out.append(o)
    return sorted(out, key=lambda o: o['dashRequestMs'])


def origin_side(run):
    """Datagram runs: link-clock times of the session's open, its first requests at the origin, the first ack, and the
    controller's rate through its first slow start."""
    tel_files = glob.glob(os.path.join(run, 'telemetry', '*.jsonl'))
    if not tel_files:
        return None
    # origin.log's JSON lines; the session's open is one with '"event":"session.open"'
    line = next(x for x in open(os.path.join(run, 'origin.log')) if '"event":"session.open"' in x)
    opened = epoch_ms(json.loads(line)['time']) - link_init_ms(run)
    rows = [json.loads(x) for x in open(tel_files[0])]
    first = {}
    last_upd = 0
    v_rates = []
    for r in rows:
        u = r.get('cmcd_updates', 0)
        if u != last_upd:
            first.setdefault(r.get('cmcd_ot'), r['t_ms'])
            if r.get('cmcd_ot') == 'v':
                v_rates.append(r['rate_bps'] / 1e6)
            last_upd = u
    ack = next(r for r in rows if r['srtt_us'] > 0)
    low = min((r for r in rows if r['t_ms'] <= ack['t_ms'] + 1500), key=lambda r: r['rate_bps'])
    exit_row = next((r for r in rows if r['t_ms'] > ack['t_ms'] and r['state'] != 'slow_start'), None)
    max_ss = max(r['rate_bps'] for r in rows if r['state'] == 'slow_start' and (exit_row is None or r['t_ms'] <= exit_row['t_ms']))
    link = lambda t: opened + t
    return {
        'open': opened, 'manifest': link(first.get('m', float('nan'))), 'init': link(first.get('i', float('nan'))),
        'video': link(first.get('v', float('nan'))), 'ack': link(ack['t_ms']), 'ack_rtt': ack['latest_rtt_us'] / 1000,
        'ack_srtt': ack['srtt_us'] / 1000, 'low': low['rate_bps'] / 1e6, 'low_at': link(low['t_ms']),
        'exit': link(exit_row['t_ms']) if exit_row else None, 'exit_rate': exit_row['rate_bps'] / 1e6 if exit_row else None,
        'max_ss': max_ss / 1e6, 'v_rates': v_rates[:4]}


def startup(run):
    segs = segments(run)
    r = result_row(run)
    s0 = segs[0]
    done = next(o for o in segs if not o.get('abandoned'))
    t = lambda x: '-' if x is None else f'{x / 1000:.2f}'
    end0 = s0.get('dashEndMs')
    return {'delay': r['players'][0]['startup_delay_s'] if r and r['players'] else None,
            'req': t(s0['dashRequestMs']), 'fb': t(s0.get('dashFirstByteMs')), 'end': t(end0),
            'kbps': s0['renditionKbps'], 'abandoned': bool(s0.get('abandoned')), 'sample': s0.get('sampleKbps'),
            'done_kbps': done['renditionKbps'], 'done_req': t(done['dashRequestMs']), 'done_end': t(done.get('dashEndMs')),
            'done_path': done.get('pathKbps')}


def fade(run):
    a = bitrate_gap.analyse(run)
    by_s = {p['s']: p for p in a['per_s']}
    segs = bitrate_gap.segments(run, bitrate_gap.timeline(run)[1])
    lo, hi = FADE
    before = by_s.get(lo - 1, {})
    zero = [s for s in range(lo - 3, hi + 2) if s in by_s and by_s[s]['buf'] is not None and by_s[s]['buf'] <= 0.3]
    peak = max((by_s[s]['buf'] or 0) for s in range(lo - 8, lo) if s in by_s)
    ab = [f"{g['kbps']}@{g['start'] / 1000:.1f}" for g in segs if g['abandoned'] and lo - 6 <= g['start'] / 1000 <= hi]
    fs = [by_s[s] for s in range(lo, hi + 1) if s in by_s]
    cap = sum(p['cap'] for p in fs) / len(fs)
    deliv = sum(p['deliv'] for p in fs) / len(fs)
    ctl = [p['ctl'] for p in fs if p['ctl'] is not None]
    return {'buf': before.get('buf'), 'br': before.get('br'), 'fetch': before.get('fetch'), 'est': before.get('est'),
            'peak': peak, 'zero': zero, 'abandoned': ab, 'cap': cap, 'deliv': deliv,
            'ctl': sum(ctl) / len(ctl) if ctl else None, 'p95q': max(p['p95q'] for p in fs),
            'fetch_13_18': sorted({by_s[s]['fetch'] for s in range(13, lo) if s in by_s and by_s[s]['fetch']})}


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    out, redo = argv
    runs = [(arm, n, run_dir(out, redo, arm, n)) for arm in SCHEMES for n in (1, 2, 3)]
    runs = [(a, n, d) for a, n, d in runs if os.path.isdir(d)]
    print('Uplink outages of the trace (link ms, >= 300 ms without a delivery opportunity): ' +
          ', '.join(f'{a}-{b}' for a, b in up_outages()) + '\n')
    print('## 1. Start-up on the player\'s clock (s since the session object; first video request = the first segment dash.js asked for)\n')
    print('| run | start-up delay s | 1st video req s | its rendition kbps | 1st byte s | end/abandon s | abandoned (dash.js sample kbit/s) | 1st completed: kbps, req s, end s, path kbit/s | down kB delivered link 2.5-3.007 s |')
    print('| --- ' * 9 + '|')
    for arm, n, d in runs:
        s = startup(d)
        ab = f"yes ({s['sample']})" if s['abandoned'] else 'no'
        print(f"| {arm}-{n} | {s['delay']:.2f} | {s['req']} | {s['kbps']} | {s['fb']} | {s['end']} | {ab} | "
              f"{s['done_kbps']}, {s['done_req']}, {s['done_end']}, {s['done_path'] or 0:.0f} | {down_bytes(d, 2500, 3007) / 1000:.0f} |")
    print('\n## 2. Datagram runs on the link clock (s): session open, first manifest/init/video request at the origin, first ack, the controller\'s first slow start\n')
    print('| run | session open | manifest | init | 1st video | 1st ack (its RTT ms, sRTT ms) | lowest rate within 1.5 s of it Mbit/s (at) | slow-start exit s (rate, max in slow start Mbit/s) | rate at the first 4 video requests Mbit/s |')
    print('| --- ' * 9 + '|')
    for arm, n, d in runs:
        o = origin_side(d)
        if o is None:
            continue
        ex = f"{o['exit'] / 1000:.2f} ({o['exit_rate']:.2f}, {o['max_ss']:.2f})" if o['exit'] else '-'
        print(f"| {arm}-{n} | {o['open'] / 1000:.2f} | {o['manifest'] / 1000:.2f} | {o['init'] / 1000:.2f} | {o['video'] / 1000:.2f} | "
              f"{o['ack'] / 1000:.2f} ({o['ack_rtt']:.0f}, {o['ack_srtt']:.0f}) | {o['low']:.2f} ({o['low_at'] / 1000:.2f}) | {ex} | "
              + ', '.join(f'{x:.2f}' for x in o['v_rates']) + ' |')
    lo, hi = FADE
    print(f'\n## 3. Into the long fade (link s {lo}-{hi}; player columns +-1 s)\n')
    print(f'| run | buffer s at s {lo - 1} (peak s {lo - 8}-{lo - 1}) | playing / fetching kbps at s {lo - 1} | dash.js estimate kbps | renditions fetched s 13-{lo - 1} | buffer <= 0.3 s at link s | abandoned (kbps@link s) | fade: capacity / delivered / controller Mbit/s, max p95 queue ms |')
    print('| --- ' * 8 + '|')
    for arm, n, d in runs:
        f = fade(d)
        zs = ','.join(str(s) for s in f['zero']) or '-'
        ctl = '-' if f['ctl'] is None else f"{f['ctl']:.2f}"
        print(f"| {arm}-{n} | {bitrate_gap.fmt(f['buf'], 1)} ({f['peak']:.1f}) | {bitrate_gap.fmt(f['br'], 1)} / {f['fetch'] or '-'} | {f['est'] or '-'} | "
              f"{', '.join(str(x) for x in f['fetch_13_18']) or '-'} | {zs} | {', '.join(f['abandoned']) or '-'} | "
              f"{f['cap']:.2f} / {f['deliv']:.2f} / {ctl}, {f['p95q']:.0f} |")


if __name__ == '__main__':
    main(sys.argv[1:])
