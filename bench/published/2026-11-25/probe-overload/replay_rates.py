# The pacing rate a pcc-replay build decides on a recording, each change between 3 and 12 s after the session was created. Usage: replay_rates.py REPLAY SCRIPT
import sys, json, subprocess
binary, f = sys.argv[1:3]
times = {}
t = 0
for i, l in enumerate(open(f), 1):
    p = l.split()
    if p and p[0] == 'tick': t = int(p[1])
    elif p and p[0] in ('sent',): t = int(p[3])
    elif p and p[0] == 'ack': t = int(p[4])
    times[i] = t
create = None
for l in open(f):
    if l.startswith('create'): create = int(l.split()[3]); break
out = subprocess.run([binary, f], capture_output=True, text=True).stdout.splitlines()
prev = None
for l in out:
    o = json.loads(l)
    r = round(o['pacingRateBytesPerSec'] * 8e-6)
    st = o['telemetry']['state']
    if (st, r) != prev and 3.0 < (times[o['line']] - create) / 1e6 < 12:
        print(f"{(times[o['line']] - create)/1e6:.2f}s {st} {r}", end=' | ')
    prev = (st, r)
print()
