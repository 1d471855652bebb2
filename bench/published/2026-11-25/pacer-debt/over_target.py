#!/usr/bin/env python3
"""MIs (after 2 s, >= 10 packets, not app-limited) that sent above their target: the debt repayment's signature.
Usage: over_target.py PCC_REPLAY BENCH_DIR..."""
import sys, json, glob, subprocess
for d in sys.argv[2:]:
    rec = glob.glob(d + '/runs/*/*/*/record/*.replay')[0]
    m = [json.loads(l) for l in subprocess.run([sys.argv[1], '--mi', rec], capture_output=True, text=True, check=True).stdout.splitlines()]
    t0 = m[0]['startUs']
    later = [x for x in m if x['startUs'] - t0 > 2e6 and x['packetsSent'] >= 10 and not x['appLimited']]
    over = [x for x in later if x['sendRateBps'] > 1.02 * x['targetRateBps']]
    print(d.split('/')[-1], len(later), f"{100*len(over)/len(later):.1f}% of MIs sent > 1.02 x target", f"max sent/target {max(x['sendRateBps']/x['targetRateBps'] for x in later):.3f}")
