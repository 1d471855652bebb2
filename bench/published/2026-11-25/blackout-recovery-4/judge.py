# Per run of the blackout short form: the judgment of bench/test/harness-faults.test.ts (status ok, the three
# checks passed, one transport session, rate_recovery_s a number), the recovery time, and from the run's recording
# (replayed through HEAD's controller with trace prints only, trace-patch.diff): the halvings, whether the
# one-halving rule (one_halving_recovery) fired, and the extension's verdict on the recovery's MI at its target.
# usage: judge.py REPLAY_TRACE HOLD_LOG... -- OUT_DIR...
import sys, json, glob, subprocess, os, re, math
args = sys.argv[1:]; sep = args.index('--')
replay, logs, dirs = args[0], args[1:sep], args[sep + 1:]
loads = {}
for lg in logs:
    name = os.path.basename(lg)[:-4]
    for line in open(lg):
        m = re.match(r'run (\d+) start (\S+) load (\S+)', line)
        if m: loads[(name, int(m.group(1)))] = {'start_utc': m.group(2), 'load_start': float(m.group(3))}
        m = re.match(r'run (\d+) done rc=(\d+) (\S+) load (\S+)', line)
        if m: loads[(name, int(m.group(1)))].update({'rc': int(m.group(2)), 'done_utc': m.group(3), 'load_done': float(m.group(4))})
NEEDED = ['playing when the blackout began', 'session survived', 'playback resumed without a reload']
for d in dirs:
    name = os.path.basename(d.rstrip('/'))
    for line in open(os.path.join(d, 'results.jsonl')):
        r = json.loads(line)
        n = r['repetition']
        fault = r.get('fault') or {}
        fig = fault.get('figures') or {}
        checks = {c['name']: c['pass'] for c in fault.get('checks') or []}
        rr = fig.get('rate_recovery_s')
        reasons = []
        if r.get('status') != 'ok': reasons.append('status ' + str(r.get('status')) + ': ' + str(r.get('error')))
        reasons += ['check failed: ' + c for c in NEEDED if not checks.get(c)]
        if fig.get('transport_sessions') != 1: reasons.append('transport_sessions %s' % fig.get('transport_sessions'))
        if not isinstance(rr, (int, float)): reasons.append('rate_recovery_s null (missed the recovery)')
        row = {'set': name, 'run': r['run_id'], **loads.get((name, n), {}), 'commit': (r.get('provenance') or {}).get('commit'),
               'dirty': (r.get('provenance') or {}).get('dirty'), 'test_passes': not reasons, 'why': reasons,
               'rate_recovery_s': None if rr is None else round(rr, 2)}
        recs = glob.glob(os.path.join(d, 'runs/blackout/vivace', str(n), 'record', '*.replay'))
        if recs:
            p = subprocess.run([replay, '--mi', recs[0]], capture_output=True, text=True)
            mis = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
            to = [m for m in mis if m['timedOut']]
            tr = [l for l in p.stderr.splitlines() if l.startswith('DBG ')]
            # the blackout's episode: the halvings of the first episode begun before 16 s of session time (the blackout is
            # at 9.6-12.6 s of link time; a session's teardown at the run's end times its last MIs out too)
            allh = [(int(re.search(r'now=(\d+)', l).group(1)), int(re.search(r'halved_at=(\d+)', l).group(1)), l) for l in tr if l.startswith('DBG timeout')]
            first = next((h for n_, h, _ in allh if 5e6 < h < 16e6), None)
            halvings = [l for n_, h, l in allh if h == first]
            at = lambda l: int(re.search(r'now=(\d+)', l).group(1))
            rec = [l for l in tr if l.startswith('DBG recovery') and first and at(l) > first]
            ext = [l for l in tr if l.startswith('DBG extend') and first and at(l) > first]
            row['halvings'] = len(halvings)
            if halvings:
                row['rate_before_mbps'] = round(float(re.search(r'current=(\d+)', halvings[0]).group(1)) / 1e6, 2)
            if rec:
                f = dict(kv.split('=') for kv in rec[0].split()[2:])
                row['recovery_from_mbps'] = round(float(f['base']) / 1e6, 2)
                row['one_halving_rule'] = len(halvings) == 1 and f['ack_sil'] == '1' and f['fade_above'] == '1'
                row['episode_ack_silence'] = int(f['ack_sil'])
            verdicts = []
            for l in ext[:2]:  # the extension's test, and its retest after a silence (retest_after_silence, d6baebf)
                f = dict(kv.split('=') for kv in l.split()[2:])
                if f['fade_rec'] == '1' or f['above'] == '0': break  # a fade recovery's or the extended doubling's end
                refused = f['lost'] != '0' or f['standing'] == '1' or f['grew'] == '1'
                verdicts.append(('congested' if refused else 'clean') + ' at %.2f Mbit/s (lost %s, standing %s, grew %s, gradient %s, %s packets)' % (
                    float(f['rate']) / 1e6, f['lost'], f['standing'], f['grew'], f['grad'], f['pkts']))
                if not refused: break
            if verdicts: row['extension_tests'] = verdicts
        print(json.dumps(row))
