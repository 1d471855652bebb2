# Replays each recording open loop through two builds (HEAD and HEAD + the retest, both with trace prints only) and
# prints, per recording: whether the MI decisions differ, the first MI after the blackout whose target reached 8 Mbit/s
# (s after the MI held through the blackout ended), and the highest target in the 3 s after it.
import sys, json, subprocess, glob
a, b = sys.argv[1], sys.argv[2]
def mis(binary, path):
    p = subprocess.run([binary, '--mi', path], capture_output=True, text=True)
    return [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
def figures(ms):
    to = [m for m in ms if m['timedOut'] and 5e6 < m['startUs'] < 16e6]
    if not to: return None
    held = next((m for m in ms if m['id'] > to[-1]['id'] and m['durationUs'] > 1e6), None)
    t0 = held['endUs'] if held else to[-1]['endUs']
    after = [m for m in ms if t0 <= m['startUs'] < t0 + 3e6]
    reach = next((m for m in ms if m['startUs'] >= t0 and m['targetRateBps'] >= 8e6), None)
    return {'highest_3s_mbps': round(max((m['targetRateBps'] for m in after), default=0) / 1e6, 2),
            'to_8mbps_s': None if reach is None else round((reach['startUs'] - t0) / 1e6, 2)}
for path in sys.argv[3:]:
    x, y = mis(a, path), mis(b, path)
    same = [(m['id'], m['targetRateBps']) for m in x] == [(m['id'], m['targetRateBps']) for m in y]
    print(json.dumps({'recording': '/'.join(path.split('/record/')[0].split('/')[-5:]) if '/record/' in path else path.split('/')[-1],
                      'identical': same, 'head': figures(x), 'fix': figures(y)}))
