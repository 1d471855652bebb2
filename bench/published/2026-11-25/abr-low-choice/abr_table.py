#!/usr/bin/env python3
"""Per-request ABR table for TMobile-LTE-driving 30-s ABR runs (issue 18 item 6: why dash.js chose low).

usage: nice -n 19 python3 abr_table.py ROOT TRACE OUTDIR [FIRST_S]
ROOT: the campaign dir (/tmp/H5-lte); TRACE: the mahimahi .down trace. Reads, per run, abr-segments-player-1.jsonl
(dash.js's samples, estimate, CMSD etp, switch reasons), series.json (capacity per player second, to align the trace),
telemetry/*.jsonl (controller rate_bps, vv only) and origin.log (request.cancelled, to align the session clock).
Writes OUTDIR/requests.jsonl and OUTDIR/requests.md.
"""
import glob, json, math, os, sys
from datetime import datetime

ROOT, TRACE, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
FIRST_S = float(sys.argv[4]) if len(sys.argv) > 4 else 15.0
LOCK_S = 4.0  # player/src/session/playback-session.ts ABANDON_LOCK_MS (abandonLoadTimeout), abrThroughput=harmonic

ms = [int(l.split()[0]) for l in open(TRACE) if l.strip() and not l.startswith('#')]
period = ms[-1]
def cap_mbps(s):  # capacity of trace second s (the trace loops), as bench/harness/link.ts counts it
    lo, hi = (s * 1000) % period, (s * 1000) % period + 1000
    return sum(1 for m in ms if lo <= m < hi) * 1504 * 8 / 1e6
caps = [cap_mbps(s) for s in range(60)]

def link_offset(series):
    """Offsets (s) at which capacity[floor(t_s + off)] reproduces every series capacity_mbps (runner.ts)."""
    ok = [o / 100 for o in range(0, 1500) if all(abs(caps[int(math.floor(p['t_s'] + o / 100))] - p['capacity_mbps']) < 0.02 for p in series if p.get('capacity_mbps') is not None)]
    return (ok[0], ok[-1]) if ok else (None, None)

def session_offset(run, ev):
    """Session clock (telemetry t_ms) minus dash clock (ms), from the first abandoned request: dash.js's abandon time vs
    the origin's request.cancelled; None when no abandon."""
    opened = cancelled = None
    for l in open(os.path.join(run, 'origin.log')):
        if not l.startswith('{'): continue
        e = json.loads(l)
        if e.get('event') == 'session.open' and opened is None: opened = e['time']
        if e.get('event') == 'request.cancelled' and cancelled is None: cancelled = e['time']
    ab = [e for e in ev if e['kind'] == 'switch' and 'AbandonIfDoomed' in json.dumps(e['reason'])]
    if not (opened and cancelled and ab): return None
    p = lambda s: datetime.fromisoformat(s.replace('Z', '+00:00')).timestamp() * 1000
    return (p(cancelled) - p(opened)) - ab[0]['atMs']

rows = []
for run in sorted(glob.glob(os.path.join(ROOT, 'tmobile-lte-driving', '*', 'runs', '*', '*', '*'))):
    arm, pair = run.split('/')[-2], int(run.split('/')[-1])
    if arm not in ('vivace-video', 'tcp-bbr'): continue
    ev = [json.loads(l) for l in open(os.path.join(run, 'abr-segments-player-1.jsonl'))]
    series = json.load(open(os.path.join(run, 'series.json')))
    lo, hi = link_offset(series); off = None if lo is None else (lo + hi) / 2
    tel = []
    for f in glob.glob(os.path.join(run, 'telemetry', '*.jsonl')):
        tel += [json.loads(l) for l in open(f) if l.startswith('{')]
    tel = [t for t in tel if 'rate_bps' in t]
    soff = session_offset(run, ev) if tel else None
    def ctl(t0, t1):  # controller rate_bps over [t0, t1] dash-ms: (at t0, min, max) Mbit/s
        if soff is None: return (None, None, None)
        w = [t['rate_bps'] / 1e6 for t in tel if t0 + soff <= t['t_ms'] <= t1 + soff]
        before = [t['rate_bps'] / 1e6 for t in tel if t['t_ms'] <= t0 + soff]
        return (round(before[-1], 2) if before else None, round(min(w), 2) if w else None, round(max(w), 2) if w else None)
    switches = sorted([e for e in ev if e['kind'] == 'switch'], key=lambda e: e['atMs'])
    aband = [s['atMs'] for s in switches if 'AbandonIfDoomed' in json.dumps(s['reason'])]
    for e in sorted([e for e in ev if e['kind'] == 'segment'], key=lambda e: e['dashRequestMs']):
        t = e['dashRequestMs']
        if t / 1000 > FIRST_S: continue
        last = [s for s in switches if s['atMs'] <= t]
        reason = last[-1]['reason'] if last else None
        rule = (reason.get('message', '').split(']')[0].lstrip('[') if reason and 'message' in reason else ('BolaRule ' + reason['state'] if reason and 'state' in reason else 'start (initial bitrate)')) if reason else 'start (initial bitrate)'
        locked = any(a <= t < a + LOCK_S * 1000 for a in aband)
        c0, cmin, cmax = ctl(t, e['dashEndMs'])
        rows.append({
            'arm': arm, 'pair': pair, 'seg': e['path'].rsplit('/', 1)[-1], 'req_s': round(t / 1000, 3), 'end_s': round(e['dashEndMs'] / 1000, 3),
            'rendition_kbps': e['renditionKbps'], 'buffer_s': e['bufferS'], 'estimate_kbps': e['estimateKbps'],
            'sample_kbps': e['sampleKbps'], 'sample_raw_kbps': round(e['sampleRawKbps']) if e['sampleRawKbps'] else None,
            'etp_kbps': e['etpKbps'], 'abandoned': e['abandoned'], 'last_switch_rule': rule, 'in_abandon_lock': locked,
            'ctl_rate_at_req_mbps': c0, 'ctl_rate_min_mbps': cmin, 'ctl_rate_max_mbps': cmax,
            'link_s': None if off is None else round(t / 1000 + off, 2),
            'capacity_mbps': None if off is None else round(caps[int(math.floor(t / 1000 + off))], 2),
            'link_offset_s': [lo, hi], 'session_offset_ms': None if soff is None else round(soff),
        })

os.makedirs(OUT, exist_ok=True)
with open(os.path.join(OUT, 'requests.jsonl'), 'w') as f:
    for r in rows: f.write(json.dumps(r) + '\n')
cols = ['req_s', 'link_s', 'seg', 'rendition_kbps', 'buffer_s', 'estimate_kbps', 'sample_kbps', 'etp_kbps', 'ctl_rate_at_req_mbps', 'ctl_rate_min_mbps', 'ctl_rate_max_mbps', 'capacity_mbps', 'abandoned', 'in_abandon_lock', 'last_switch_rule']
with open(os.path.join(OUT, 'requests.md'), 'w') as f:
    f.write(f'# Per-request tables, TMobile-LTE-driving, first {FIRST_S:.0f} s (abr_table.py)\n\n'
            'req_s: dash.js clock; link_s: trace second (offset fitted to series.json capacities); estimate: dash.js\'s '
            'estimate logged with the request (harmonic mean of 5, after the etp blend); sample: the blended sample this '
            'request stored; etp: the CMSD etp of its response; ctl: controller rate_bps at request / min / max during the '
            'download (vv only; session clock aligned by the first abandon); in_abandon_lock: within 4 s of an AbandonIfDoomed abandon; '
            'last_switch_rule: the rule of the latest switch before the request.\n')
    for key in sorted({(r['arm'], r['pair']) for r in rows}):
        rs = [r for r in rows if (r['arm'], r['pair']) == key]
        f.write(f'\n## {key[0]} pair {key[1]} (link offset {rs[0]["link_offset_s"]} s, session offset {rs[0]["session_offset_ms"]} ms)\n\n')
        f.write('| ' + ' | '.join(cols) + ' |\n|' + ' --- |' * len(cols) + '\n')
        for r in rs: f.write('| ' + ' | '.join('' if r[c] is None else str(r[c]) for c in cols) + ' |\n')
print(len(rows), 'rows')
