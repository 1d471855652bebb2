#!/usr/bin/env python3
"""The simulator's startup on the same link, by startup.py's rule: python3 sim_t90.py CSV...  (pcc-sim --sample-ms 50
--csv; one flow). t90 from the first interval with throughput, over the CSV's throughput_mbps (payload, not IP bytes)."""
import csv, json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'startup'))
from startup import from_bins

for path in sys.argv[1:]:
    rows = list(csv.DictReader(open(path)))
    step_s = float(rows[1]['time_s']) - float(rows[0]['time_s'])
    mbps = [float(r['throughput_mbps']) for r in rows]
    first = next(i for i, v in enumerate(mbps) if v > 0)
    bins_bytes = [v * 1e6 / 8 * step_s for v in mbps[first:]]
    t90, first2 = from_bins(bins_bytes, round(step_s * 1000))
    exit_s = next((float(r['time_s']) for r in rows if r['cc_state'] != 'slow_start'), None)
    print(json.dumps({'csv': os.path.basename(path), 't90_s': t90, 'first2s_mbps': round(first2, 1), 'slow_start_end_s': exit_s}))
