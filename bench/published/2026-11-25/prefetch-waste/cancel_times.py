#!/usr/bin/env python3
"""When did the origin see early requests cancelled, and what was the player's state then? For each `+prefetch`
datagram run: the MI telemetry lines where prefetch_cancelled grows, with the cancelled bytes sent that step added,
the player's latest CMCD (buffer length bl, encoded bitrate br of the object it asked for) and the controller's rate.
Usage: cancel_times.py OUT_DIR..."""
import json, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'prefetch-waste-2'))
from origin_counts import prefetch_runs  # noqa: E402  (the run walk, one definition for both folders)

for out in sys.argv[1:]:
    for r, tel in prefetch_runs(out):
        if tel is None:
            continue
        print(f"{r['run_id']}:")
        prev_c, prev_b = 0, 0
        for l in open(tel):
            o = json.loads(l)
            c, b = o.get('prefetch_cancelled', 0), o.get('prefetch_cancelled_bytes_sent', 0)
            if c > prev_c:
                print(f"  t {o['t_ms'] / 1000:5.1f} s  cancelled +{c - prev_c} (+{(b - prev_b) / 1e3:.0f} KB sent)  CMCD bl {o.get('cmcd_bl_ms', 0) / 1000:.1f} s br {o.get('cmcd_br_kbps')} kbps ot {o.get('cmcd_ot')}  rate {o['rate_bps'] / 1e6:.1f} Mbit/s")
            prev_c, prev_b = c, b
