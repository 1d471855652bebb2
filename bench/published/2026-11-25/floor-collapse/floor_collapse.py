#!/usr/bin/env python3
"""Per-MI table of vivace-video's collapse to its 0.1-Mbit/s floor (lte-abandon-buffer, TMobile-LTE-driving, vv pair 2).

Reads the run's origin telemetry (one row per 100 ms and per finished MI; `mi` counts finished MIs, and a row whose
`mi` rose shows the MI just finished in its mi_rate/utility/throughput/loss/rtt_gradient fields, and the rate the
controller chose next in rate_bps) and linkem's logs (session clock = link clock - SHIFT_MS: the link log's init
timestamp 05:54:23.471 vs the origin's session.open 05:54:25.623). Per MI: the downlink's departures and drops and
the uplink's departures (acks) since the previous MI, the player's latest CMCD report (ot/br/bl and its age).

usage: floor_collapse.py [RUN_DIR] [FROM_S] [TO_S]
"""
import glob
import json
import os
import sys

RUN = sys.argv[1] if len(sys.argv) > 1 else "/tmp/B26/tmobile-lte-driving/vv/runs/lte-tmobile-lte-driving/vivace-video/2"
FROM_S = float(sys.argv[2]) if len(sys.argv) > 2 else 3.7
TO_S = float(sys.argv[3]) if len(sys.argv) > 3 else 30.0
SHIFT_MS = 2152


def link_events(path, kind):
    out = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 2 and p[1] == kind and p[0].isdigit():
                out.append(int(p[0]) - SHIFT_MS)
    return out


def count(times, lo_ms, hi_ms):
    return sum(1 for t in times if lo_ms < t <= hi_ms)


def main():
    tel = sorted(glob.glob(os.path.join(RUN, "telemetry", "*.jsonl")))[0]
    rows = [json.loads(l) for l in open(tel)]
    down_dep = link_events(os.path.join(RUN, "link-down.log"), "-")
    down_drop = link_events(os.path.join(RUN, "link-down.log"), "d")
    down_opp = link_events(os.path.join(RUN, "link-down.log"), "#")
    up_dep = link_events(os.path.join(RUN, "link-up.log"), "-")
    print("| session s | state | finished MI | its rate kbit/s | utility | throughput kbit/s | loss | RTT gradient | next rate kbit/s "
          "| sRTT ms | down capacity kbit/s | down delivered / dropped pkts | acks up | CMCD ot, br kbit/s, bl ms, age ms |")
    print("| " + " | ".join(["---"] * 14) + " |")
    last_mi, last_t = None, None
    for r in rows:
        t = r["t_ms"]
        if last_mi is not None and r["mi"] != last_mi and FROM_S * 1000 <= t <= TO_S * 1000:
            lo = last_t
            cap = count(down_opp, lo, t) * 1504 * 8 / max(t - lo, 1)  # kbit/s: bits per ms
            cmcd = "%s, %s, %s, %s" % (r.get("cmcd_ot"), r.get("cmcd_br_kbps"), r.get("cmcd_bl_ms"), r.get("cmcd_age_ms"))
            print("| %.3f | %s | %d | %.0f | %.3f | %.0f | %.3f | %.3f | %.0f | %.0f | %.0f | %d / %d | %d | %s |" % (
                t / 1000, r["state"], r["mi"], r["mi_rate_bps"] / 1e3, r["utility"], r["throughput_bps"] / 1e3,
                r["loss_rate"], r["rtt_gradient"], r["rate_bps"] / 1e3, r["srtt_us"] / 1e3, cap,
                count(down_dep, lo, t), count(down_drop, lo, t), count(up_dep, lo, t), cmcd))
        if last_mi is None or r["mi"] != last_mi:
            last_t = t
        last_mi = r["mi"]
    floor = [r for r in rows if r["rate_bps"] <= 120e3]
    if floor:
        print("\nrate <= 0.12 Mbit/s from %.3f to %.3f s (%.1f s); downlink capacity meanwhile %.1f Mbit/s" % (
            floor[0]["t_ms"] / 1000, floor[-1]["t_ms"] / 1000, (floor[-1]["t_ms"] - floor[0]["t_ms"]) / 1000,
            count(down_opp, floor[0]["t_ms"], floor[-1]["t_ms"]) * 1504 * 8 / (floor[-1]["t_ms"] - floor[0]["t_ms"]) / 1e3))


if __name__ == "__main__":
    main()
