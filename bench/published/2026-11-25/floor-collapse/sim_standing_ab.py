#!/usr/bin/env python3
"""The standing-queue test (vivace_recovery.c vivace_mi_standing_queue: an MI's mean RTT > 1.5 x the min RTT) read
on the MI's LOWEST RTT sample instead (a queue that stands delays every packet; Copa's RTT_standing is a min, too),
in pcc-sim's video model on the four LTE traces, with sim_video_ab.py's settings. One experimental binary (HEAD
+ standing-queue.diff's field, and a getenv switch that is not part of the diff): H1_STANDING unset = mean (HEAD);
'r' = the lowest sample in the starving player's restart only (vivace_video.c); 'm' = in every use (also fade recovery,
ack-silence recovery, slow start's guards). Pairs by (trace, cc, noise, seed) against the unset arm.
Usage: sim_standing_ab.py EXP_SIM TRACE_DIR OUT_DIR [SEEDS]  |  sim_standing_ab.py --table JSONL"""
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sim_video_ab import fmt, run_grid, settings  # noqa: E402

ARMS = {'mean': {}, 'restart': {'H1_STANDING': 'r'}, 'all': {'H1_STANDING': 'm'}}
KEYS = ['buffering_pct', 'bitrate_mbps', 'floor_s', 'p95_rtt_ms']


def table(rows):
    print('| noise | trace | cc | arm | ' + ' | '.join(f'{k}: arm; arm - mean' for k in KEYS) + ' |')
    print('|' + ' --- |' * (4 + len(KEYS)))
    for noise, trace, cc, get in settings(rows):
        base = get('mean')
        for arm in ARMS:
            if arm == 'mean':
                continue
            x = get(arm)
            cells = [f'{fmt([q[k] for q in x], 1 if k == "p95_rtt_ms" else 2)}; '
                     f'{fmt([q[k] - p[k] for p, q in zip(base, x)], 1 if k == "p95_rtt_ms" else 2)}' for k in KEYS]
            print(f'| {noise} | {trace} | {cc} | {arm} | ' + ' | '.join(cells) + ' |')


def main():
    if sys.argv[1] == '--table':
        table([json.loads(line) for line in open(sys.argv[2])])
        return
    sim, trace_dir, out = sys.argv[1:4]
    seeds = range(1, 1 + int(sys.argv[4] if len(sys.argv) > 4 else 10))
    table(run_grid({arm: (sim, env) for arm, env in ARMS.items()}, trace_dir, out, seeds, 'sim_standing_ab.jsonl'))


if __name__ == '__main__':
    main()
