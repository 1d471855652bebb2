#!/usr/bin/env python3
"""Per run: the first abandonment, what dash.js fetched during the abandonment lock that followed, and the fast-switch
replacements after it (issue 18 item 6). usage: nice -n 19 python3 lock_summary.py OUTDIR CAMPAIGN_SCENARIO_DIR...
(e.g. /tmp/H5-lte/tmobile-lte-driving). Reads each run's abr-segments-player-1.jsonl and the arm's results.jsonl
(played_bitrate_mbps). Writes OUTDIR/lock_summary.{jsonl,md}."""
import glob, json, os, re, sys

LOCK_MS = 4000  # ABANDON_LOCK_MS, player/src/session/playback-session.ts (streaming.abandonLoadTimeout)
OUT, dirs = sys.argv[1], sys.argv[2:]
rows = []
for d in dirs:
    for run in sorted(glob.glob(os.path.join(d, '*', 'runs', '*', '*', '*'))):
        arm, rep = run.split('/')[-2], int(run.split('/')[-1])
        f = os.path.join(run, 'abr-segments-player-1.jsonl')
        if not os.path.exists(f): continue
        ev = [json.loads(l) for l in open(f)]
        segs = sorted([e for e in ev if e['kind'] == 'segment'], key=lambda e: e['dashRequestMs'])
        ab = sorted(e['atMs'] for e in ev if e['kind'] == 'switch' and 'forceAbandon' in e['reason'])
        played = None
        for l in open(os.path.join(run, '..', '..', '..', '..', 'results.jsonl')):
            r = json.loads(l)
            if r.get('repetition') == rep and r.get('scheme') == arm: played = r.get('played_bitrate_mbps')
        # fast-switch replacements: a request for a segment number already fetched (not abandoned) at another rendition
        have, replaced = {}, []
        for e in segs:
            n = int(re.search(r'-(\d+)\.m4s$', e['path']).group(1))
            if n in have and not e['abandoned']: replaced.append((round(e['dashRequestMs'] / 1000, 2), n, have[n], e['renditionKbps']))
            if not e['abandoned']: have[n] = e['renditionKbps']
        row = {'scenario': os.path.basename(d.rstrip('/')), 'campaign': d.split('/')[2], 'arm': arm, 'rep': rep, 'played_mbps': None if played is None else round(played, 3),
               'first_abandon_s': None, 'lock_requests': 0, 'lock_renditions': [], 'lock_est_max_kbps': None, 'lock_etp_max_kbps': None,
               'buffer_at_lock_end_s': None, 'first_up_after_lock': None, 'replacements': len(replaced), 'replaced_media_s': 2 * len(replaced),
               'replacement_list': replaced[:12]}
        if ab:
            a = ab[0]; row['first_abandon_s'] = round(a / 1000, 2)
            lock = [e for e in segs if a <= e['dashRequestMs'] < a + LOCK_MS]
            row['lock_requests'] = len(lock); row['lock_renditions'] = sorted({e['renditionKbps'] for e in lock})
            row['lock_est_max_kbps'] = max((e['estimateKbps'] or 0 for e in lock), default=None)
            row['lock_etp_max_kbps'] = max((e['etpKbps'] or 0 for e in lock), default=None)
            row['buffer_at_lock_end_s'] = lock[-1]['bufferS'] if lock else None
            after = [e for e in segs if e['dashRequestMs'] >= a + LOCK_MS]
            if after: row['first_up_after_lock'] = [round(after[0]['dashRequestMs'] / 1000, 2), after[0]['renditionKbps'], after[0]['bufferS']]
        rows.append(row)
os.makedirs(OUT, exist_ok=True)
with open(os.path.join(OUT, 'lock_summary.jsonl'), 'w') as f:
    for r in rows: f.write(json.dumps(r) + '\n')
cols = ['campaign', 'scenario', 'arm', 'rep', 'played_mbps', 'first_abandon_s', 'lock_requests', 'lock_renditions', 'lock_est_max_kbps', 'lock_etp_max_kbps', 'buffer_at_lock_end_s', 'first_up_after_lock', 'replacements']
with open(os.path.join(OUT, 'lock_summary.md'), 'w') as f:
    f.write('# First abandonment, the 4-s lock after it, fast-switch replacements (lock_summary.py)\n\n'
            'lock_requests: requests dash.js made within 4 s of the first abandon (up-switches forbidden); buffer_at_lock_end_s: '
            'buffer logged with the last of them; first_up_after_lock: [s, kbit/s, buffer s] of the first request after the lock; '
            'replacements: requests for a segment number already buffered (fast switch).\n\n')
    f.write('| ' + ' | '.join(cols) + ' |\n|' + ' --- |' * len(cols) + '\n')
    for r in rows: f.write('| ' + ' | '.join('' if r[c] is None else str(r[c]) for c in cols) + ' |\n')
print(len(rows), 'runs')
