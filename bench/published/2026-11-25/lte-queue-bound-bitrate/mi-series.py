#!/usr/bin/env python3
"""One row per MI from a run's origin telemetry on the link's clock: state, pacing rate, the MI's rate and delivery,
srtt / min RTT and the player's CMCD buffer and bitrate. OFFSET is the timeline's "telemetry link-second = t_ms/1000 +
OFFSET" (lte-att/timeline.py's align line).
Usage: python3 mi-series.py RUN_DIR OFFSET FIRST_S LAST_S"""
import glob
import json
import sys

run, offset, first, last = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
(path,) = glob.glob(f'{run}/telemetry/*.jsonl')
prev = None
for line in open(path):
    d = json.loads(line)
    t = d['t_ms'] / 1000 + offset
    if not first <= t <= last or (d['state'], d['mi']) == prev:
        continue
    prev = (d['state'], d['mi'])
    print(f"{t:6.2f} {d['state']:<11} mi={d['mi']:<4} rate={d['rate_bps'] / 1e6:.2f} mi_rate={d['mi_rate_bps'] / 1e6:.2f} "
          f"delivered={d['throughput_bps'] / 1e6:.2f} srtt={d['srtt_us'] / 1000:.0f} min={d['min_rtt_us'] / 1000:.0f} "
          f"buffer_ms={d.get('cmcd_bl_ms')} br_kbps={d.get('cmcd_br_kbps')}")
