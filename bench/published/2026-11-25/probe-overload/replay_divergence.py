# First line where two pcc-replay builds decide differently on one recording (open loop). Usage: replay_divergence.py OLD_REPLAY NEW_REPLAY SCRIPT
import sys, json, subprocess
old, new, f = sys.argv[1:4]
a = subprocess.run([old, f], capture_output=True, text=True).stdout.splitlines()
b = subprocess.run([new, f], capture_output=True, text=True).stdout.splitlines()
for i, (x, y) in enumerate(zip(a, b)):
    if x != y:
        X, Y = json.loads(x), json.loads(y)
        print(f, 'first divergence at output line', i, 'of', len(a))
        for k in ('state', 'pacingRateBps', 'miRateBps', 'srttUs', 'lastMiLossRate', 'packetsSent'):
            print(' ', k, X['telemetry'][k], Y['telemetry'][k])
        break
else:
    print(f, 'identical', len(a), len(b))
