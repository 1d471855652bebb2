#!/usr/bin/env python3
"""Issue 18's lte bitrate clause, per scenario: vivace-video's average bitrate over the better TCP scheme's (tcp-cubic or
tcp-bbr, the one with the higher mean bitrate over the repetitions), as the mean of the per-repetition ratios with a 95%
Student-t interval (pairs = the same repetition); and the same per repetition against each TCP scheme.
Usage: python3 ratio.py results.jsonl"""
import importlib.util
import json
import os
import statistics
import sys
from collections import defaultdict

# mean ± 95% CI (Student t): video-bitrates/tables.py's definition, loaded by path
_spec = importlib.util.spec_from_file_location('video_bitrates_tables', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'video-bitrates', 'tables.py'))
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)

by = defaultdict(dict)
for line in open(sys.argv[1]):
    if line.strip():
        r = json.loads(line)
        if r.get('status') == 'ok':
            by[(r['scenario'], r['scheme'])][r['repetition']] = r['avg_bitrate_mbps']
for scenario in sorted({s for s, _ in by}):
    tcp = {k: by[(scenario, k)] for k in ('tcp-cubic', 'tcp-bbr') if (scenario, k) in by}
    vv = by.get((scenario, 'vivace-video'), {})
    if not tcp or not vv:
        continue
    best = max(tcp, key=lambda k: statistics.mean(tcp[k].values()))
    for k in [best] + [x for x in tcp if x != best]:
        reps = sorted(set(vv) & set(tcp[k]))
        ratios = [vv[r] / tcp[k][r] for r in reps]
        print(f"{scenario}: vivace-video / {k}{' (better TCP)' if k == best else ''}: {_shared.fmt(ratios, 3)} "
              f"(n = {len(reps)}; per repetition {', '.join(f'{x:.3f}' for x in ratios)}); "
              f"ratio of means {statistics.mean(vv[r] for r in reps) / statistics.mean(tcp[k][r] for r in reps):.3f}")
