"""Paired before/after table for bench/published/2026-11-25/buffer-1mb (issue 17's 1 MB target).

usage: python3 bench/published/2026-11-25/buffer-1mb/summarise.py RESULTS.jsonl [FIRST_REP]
RESULTS.jsonl: the bench's result lines, each with an added "arm" (before: --cc-param vivace.probe_pair_check=0,
after: the default). Prints per scenario and arm the mean and 95% interval (Student t) of throughput (linkem's
delivered IP bytes, % of 100 Mbit/s), goodput and p95 queueing, and the paired after - before differences, over
repetitions >= FIRST_REP (default 1) whose recording replays identically at cf67200 (pcc-replay --check).
"""
import json
import math
import sys
from collections import defaultdict

T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}
METRICS = (("throughput", lambda d: 100 * d["link_utilization"]), ("goodput", lambda d: d["goodput_mbps"]),
           ("p95 queue ms", lambda d: d["queue_delay_p95_ms"]))


def mean_ci(values):
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return f"{m:.2f}"
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    return f"{m:.2f} ± {T95[n - 1] * sd / math.sqrt(n):.2f}"


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
