#!/usr/bin/env python3
"""After slow start (2 s to the end), per run: the MIs' duration-weighted target and sent Mbit/s (datagram payload),
sent / target, and the target in IP Mbit/s on linkem's wire (1484 of 1413 bytes). Usage: steady.py RUN_DIR..."""
import glob, json, subprocess, sys
REPLAY = 'controller-wasm/build/pcc-replay'  # run from the repository root
for run in sys.argv[1:]:
    rec = glob.glob(run + '/record/*.replay')[0]
    ms = [json.loads(l) for l in subprocess.run([REPLAY, '--mi', rec], capture_output=True, text=True).stdout.splitlines()]
    t0 = ms[0]['startUs']
    w = [m for m in ms if m['startUs'] - t0 >= 2e6]
    d = sum(m['durationUs'] for m in w)
    tg = sum(m['targetRateBps'] * m['durationUs'] for m in w) / d / 1e6
    se = sum(m['sendRateBps'] * m['durationUs'] for m in w) / d / 1e6
    print(json.dumps({'run': '/'.join(run.split('/')[-6:]), 'target_mbps': round(tg, 1), 'sent_mbps': round(se, 1),
                      'sent_per_target': round(se / tg, 3), 'target_ip_mbps': round(tg * 1484 / 1413, 1)}))
