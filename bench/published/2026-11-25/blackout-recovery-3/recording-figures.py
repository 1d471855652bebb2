# per run: rate_recovery_s, the rate before the blackout (first timed-out MI's target), the rate the halvings left
# (target of the first MI after the last timed-out one), their ratio, from pcc-replay --mi of the run's recording
import sys, json, glob, subprocess, os
REPLAY = sys.argv[1]
for d in sys.argv[2:]:
    for line in open(os.path.join(d, 'results.jsonl')):
        r = json.loads(line)
        fig = (r.get('fault') or {}).get('figures') or {}
        n = r['run_id'].split('/')[-1]
        recs = glob.glob(os.path.join(d, 'runs/blackout/vivace', n, 'record', '*.replay'))
        before = after = None
        if recs:
            out = subprocess.run([REPLAY, '--mi', recs[0]], capture_output=True, text=True).stdout
            mis = [json.loads(l) for l in out.splitlines() if l.strip()]
            to = [m for m in mis if m['timedOut']]
            if to:
                before = to[0]['targetRateBps'] / 1e6
                # the MIs of the first timed-out run, then the first MI after it that completed
                first = to[0]['id']; last = first
                while any(m['id'] == last + 1 and m['timedOut'] for m in mis): last += 1
                nxt = [m for m in mis if m['id'] > last]
                if nxt: after = nxt[0]['targetRateBps'] / 1e6
        rr = fig.get('rate_recovery_s')
        print(json.dumps({'set': os.path.basename(d), 'run': r['run_id'], 'started_at': r.get('started_at'),
               'commit': (r.get('provenance') or {}).get('commit') or r.get('commit'),
               'controller_params': r.get('controller_params'),
               'rate_recovery_s': None if rr is None else round(rr, 2),
               'before_blackout_mbps': None if before is None else round(before, 2),
               'after_halvings_mbps': None if after is None else round(after, 2),
               'halvings': None if not (before and after) else round(__import__('math').log2(before / after), 1)}))
