"""Per second of one recorded bench run: what linkem's downlink delivered and queued, beside what the controller asked
for and what its MIs measured (replayed from the run's recording).

usage: python3 bench/published/2026-11-25/buffer-1mb/per_second.py RUN_DIR MI_JSONL
RUN_DIR: runs/<scenario>/<scheme>/<rep> of a bench --record output (link-down.log inside);
MI_JSONL: controller-wasm/build/pcc-replay --mi over that run's recording (one JSON line per MI).
Linkem's clock starts about a second before the session's: the session column is the MI time.
"""
import json
import sys
from collections import defaultdict


def main():
    run_dir, mi_path = sys.argv[1], sys.argv[2]
    delivered = defaultdict(int)
    delays = defaultdict(list)
    drops = defaultdict(int)
    for line in open(f"{run_dir}/link-down.log"):
        p = line.split()
        if len(p) < 3 or not p[0].isdigit():
            continue
        s = int(p[0]) // 1000
        if p[1] == "-":
            delivered[s] += int(p[2])
            delays[s].append(int(p[3]))
        elif p[1] == "d":
            drops[s] += 1
    mis = [json.loads(l) for l in open(mi_path) if l.startswith("{")]
    t0 = mis[0]["startUs"]
    weight = defaultdict(float)
    sums = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for m in mis:
        if m["packetsSent"] < 20:
            continue
        s = int((m["startUs"] - t0) / 1e6)
        d = m["durationUs"]
        weight[s] += d
        acc = sums[s]
        acc[0] += d * m["targetRateBps"] / 1e6
        acc[1] += d * m["sendRateBps"] / 1e6
        acc[2] += d * (m["avgRttUs"] / 1e3)
        acc[3] = max(acc[3], m["rttGradient"])
    print("link s | delivered Mbit/s | queue p50/p95/max ms | drops || session s | target | sent | mean RTT ms | max MI gradient")
    for s in range(max(max(delivered), max(weight)) + 1):
        q = sorted(delays[s]) or [0]
        link = f"{s:6d} | {delivered[s] * 8 / 1e6:16.1f} | {q[len(q) // 2]:4d} {q[int(len(q) * .95)]:4d} {q[-1]:4d}        | {drops[s]:5d}"
        if weight[s] > 0:
            w = weight[s]
            a = sums[s]
            link += f" || {s:9d} | {a[0] / w:6.1f} | {a[1] / w:5.1f} | {a[2] / w:11.1f} | {a[3]:.3f}"
        print(link)


main()
