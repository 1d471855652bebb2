#!/usr/bin/env python3
"""Per-second data of every PCC run that stalled: the player's buffer level, goodput and sending rate against the
link's capacity (series.json), and the controller's state and mean target rate in that second (the origin's
telemetry, t_ms on the session's clock, which starts about when the player's first request does).
Usage: python3 stall-seconds.py OUTDIR... (folders of the bench runs, each with results.jsonl and runs/)"""
import glob
import json
import os
import sys
from collections import defaultdict

PCC = ('vivace', 'vivace-video')


def telemetry_per_second(run_dir):
    per = defaultdict(list)
    states = defaultdict(set)
    for f in glob.glob(os.path.join(run_dir, 'telemetry', '*.jsonl')):
        for line in open(f):
            try:
                m = json.loads(line)
            except ValueError:
                continue
            if 'rate_bps' not in m:
                continue
            s = int(m['t_ms'] // 1000)
            per[s].append(m['rate_bps'] / 1e6)
            states[s].add(m.get('state', '?'))
    return {s: (sum(v) / len(v), '/'.join(sorted(states[s]))) for s, v in per.items()}


def sessions_per_second(run_dir):
    """Several players: each session's mean controller rate per second (file name order = session order)."""
    out = []
    for f in sorted(glob.glob(os.path.join(run_dir, 'telemetry', '*.jsonl'))):
        per = defaultdict(list)
        for line in open(f):
            try:
                m = json.loads(line)
            except ValueError:
                continue
            if 'rate_bps' in m:
                per[int(m['t_ms'] // 1000)].append(m['rate_bps'] / 1e6)
        out.append({k: sum(v) / len(v) for k, v in per.items()})
    return out


def main(dirs):
    for d in dirs:
        for line in open(os.path.join(d, 'results.jsonl')):
            r = json.loads(line)
            if r.get('status') != 'ok' or r['scheme'] not in PCC or r['stall_count'] == 0:
                continue
            run_dir = os.path.join(d, 'runs', r['scenario'], r['scheme'], str(r['repetition']))
            series = json.load(open(os.path.join(run_dir, 'series.json')))
            if len(r['players']) > 1:
                print(f"## {r['run_id']}: buffering {100 * r['buffering_ratio']:.2f} % (mean of players), per player "
                      + ', '.join(f"{100 * p['buffering_ratio']:.1f} % ({p['stall_count']} stalls, startup {p['startup_delay_s']:.1f} s)" for p in r['players']))
                print("Each session's controller rate, Mbit/s, per second of its own clock (sessions open about 1 s apart; "
                      "the link carries 30 Mbit/s, each player needs 8 + audio):")
                for i, sec in enumerate(sessions_per_second(run_dir)):
                    print(f"session {i + 1}: " + ' '.join(f'{sec[k]:.1f}' for k in sorted(sec)))
                print()
                continue
            tel = telemetry_per_second(run_dir)
            print(f"## {r['run_id']}: buffering {100 * r['buffering_ratio']:.2f} %, {r['stall_count']} stall(s), "
                  f"{r['stall_time_s']:.2f} s, goodput {r['goodput_mbps']:.2f} Mbit/s, capacity {r['capacity_mbps']:.2f}")
            empty = [p for p in series if p['t_s'] > 4 and p['buffer_s'] == 0]
            spans, cur = [], []
            for p in series:
                if p['t_s'] > 4 and p['buffer_s'] == 0:
                    cur.append(p)
                elif cur:
                    spans.append(cur)
                    cur = []
            if cur:
                spans.append(cur)
            longest = max(spans, key=len) if spans else []
            if longest:
                t0 = longest[0]['t_s']
                window = [p for p in series if t0 - 3 <= p['t_s'] <= longest[-1]['t_s']]
                ctl = [tel[int(p['t_s'])][0] for p in window if int(p['t_s']) in tel]
                print(f"summary: max buffer {max(p['buffer_s'] for p in series):.2f} s; samples with an empty buffer after 4 s: "
                      f"{len(empty)}; longest run of them {len(longest)} s from t={t0:.1f}; over it and the 3 s before: goodput "
                      f"{sum(p['goodput_mbps'] for p in window) / len(window):.2f}, sending {sum(p['sending_rate_mbps'] for p in window) / len(window):.2f}, "
                      f"controller {sum(ctl) / len(ctl) if ctl else float('nan'):.2f} Mbit/s vs bitrate {r['avg_bitrate_mbps']:.2f}")
            print('t_s | buffer_s | goodput | sending | capacity | controller rate (state)')
            for p in series:
                s = int(p['t_s'])
                c = tel.get(s)
                ctl = f'{c[0]:.2f} ({c[1]})' if c else '-'
                print(f"{p['t_s']:.1f} | {p['buffer_s']:.2f} | {p['goodput_mbps']:.2f} | {p['sending_rate_mbps']:.2f} | "
                      f"{p['capacity_mbps']:.2f} | {ctl}")
            print()


if __name__ == '__main__':
    main(sys.argv[1:])
