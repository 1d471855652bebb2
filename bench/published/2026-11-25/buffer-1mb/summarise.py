"""Paired before/after table for bench/published/2026-11-25/buffer-1mb (issue 17's 1 MB target).

usage: python3 bench/published/2026-11-25/buffer-1mb/summarise.py RESULTS.jsonl [FIRST_REP]
RESULTS.jsonl: the bench's result lines, each with an added "arm" (before: --cc-param vivace.probe_pair_check=0,
after: the default). Prints per scenario and arm the mean and 95% interval (Student t) of throughput (linkem's
delivered IP bytes, % of 100 Mbit/s), goodput and p95 queueing, and the paired after - before differences, over
repetitions >= FIRST_REP (default 1) whose recording replays identically at cf67200 (pcc-replay --check).
"""
import json
import math
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
METRICS = (("throughput", lambda d: 100 * d["link_utilization"]), ("goodput", lambda d: d["goodput_mbps"]),
           ("p95 queue ms", lambda d: d["queue_delay_p95_ms"]))


def mean_ci(values):
    m, h = mean_ci95(values, as_stats_ts=True)
    return f"{m:.2f}" if math.isnan(h) else f"{m:.2f} ± {h:.2f}"


def main():
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    runs = defaultdict(dict)
    for line in open(sys.argv[1]):
        d = json.loads(line)
        if d["status"] != "ok" or d["repetition"] < first or d.get("replays_identically_at_cf67200") is False:
            continue  # failed, before FIRST_REP, or run by an earlier build (its recording replays differently)
        runs[d["scenario"]][(d["arm"], d["repetition"])] = d
    for scenario, by in sorted(runs.items()):
        reps = sorted({r for (_, r) in by if ("before", r) in by and ("after", r) in by})
        print(f"{scenario}: {len(reps)} paired repetitions {reps}")
        for name, get in METRICS:
            before = [get(by[("before", r)]) for r in reps]
            after = [get(by[("after", r)]) for r in reps]
            diff = [a - b for a, b in zip(after, before)]
            print(f"  {name:13s} before {mean_ci(before):>15s}  after {mean_ci(after):>15s}  after-before {mean_ci(diff):>15s}"
                  f"  (before {', '.join(f'{v:.1f}' for v in before)}; after {', '.join(f'{v:.1f}' for v in after)})")


main()
