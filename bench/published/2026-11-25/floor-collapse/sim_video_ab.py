#!/usr/bin/env python3
"""pcc-sim's video model on the bench's four LTE traces (the lte suite's 20 ms one way, 300 kB droptail, the player's
ladder, 2-s segments, DASH; sim:video's lte-abr setting), before vs after the floor-collapse fix: two native builds
(BASE_SIM: HEAD's C; FIX_SIM: HEAD + the fix), vivace-video and vivace, seeds 1..N, with no added noise and with the
real path's RTT noise at no queue (--jitter-sd-us 8000, lte-post-fade-sim). Per run: buffering ratio, average bitrate,
time with the controller's rate <= 0.12 Mbit/s (the 0.1-Mbit/s floor and its probes), its longest stretch, the lowest
rate after 2 s, p95 RTT. Pairs are (same trace, cc, noise, seed), fix - base.
Usage: sim_video_ab.py BASE_SIM FIX_SIM TRACE_DIR OUT_DIR [SEEDS]  (one run at a time under nice -n 10; TRACE_DIR holds
the four .down traces, TMobile-LTE-driving's gunzipped); sim_video_ab.py --table JSONL reprints the table"""
import csv, json, os, subprocess, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402

TRACES = ['TMobile-LTE-short', 'TMobile-LTE-driving', 'Verizon-LTE-short', 'ATT-LTE-driving-2016']
CCS = ['vivace-video', 'vivace']
NOISE = {'none': [], 'j8': ['--jitter-sd-us', '8000']}
FLOOR_MBPS = 0.12
DT = 0.1


def run(sim, trace_dir, out, arm, trace, cc, noise, seed, env=None):
    stem = os.path.join(out, f'{arm}-{trace}-{cc}-{noise}-{seed}')
    cmd = ['nice', '-n', '10', sim, '--cc', cc, '--video-abr', '0.3,0.8,2,4,8', '--segment-s', '2',
           '--trace', os.path.join(trace_dir, trace + '.down'), '--rtt-ms', '40', '--buffer-kb', '300',
           '--duration-s', '60', '--sample-ms', '100', '--seed', str(seed), *NOISE[noise], '--csv', stem + '.csv', '--json']
    res = subprocess.run(cmd, check=True, capture_output=True, text=True, env=None if env is None else {**os.environ, **env})
    flow = json.loads(res.stdout)['flows'][0]
    rates = [float(r['pacing_rate_mbps']) for r in csv.DictReader(open(stem + '.csv')) if float(r['time_s']) > 2.0]
    longest = cur = 0
    for x in rates:
        cur = cur + 1 if x <= FLOOR_MBPS else 0
        longest = max(longest, cur)
    os.remove(stem + '.csv')
    return {'buffering_pct': 100 * flow['video']['buffering_ratio'], 'bitrate_mbps': flow['video']['average_bitrate_mbps'],
            'floor_s': DT * sum(1 for x in rates if x <= FLOOR_MBPS), 'floor_longest_s': DT * longest,
            'min_rate_mbps': min(rates), 'p95_rtt_ms': flow['p95_rtt_ms']}


def fmt(xs, d=2):
    m, h = mean_ci95(xs)
    return f'{m:.{d}f} ± {h:.{d}f}'


def settings(rows):
    """(noise, trace, cc, arm) per setting in table order; arm(name) is that arm's rows there, by seed."""
    for noise in NOISE:
        for trace in TRACES:
            for cc in CCS:
                yield noise, trace, cc, lambda a, t=(trace, cc, noise): sorted(
                    (r for r in rows if (r['arm'], r['trace'], r['cc'], r['noise']) == (a, *t)), key=lambda r: r['seed'])


def table(rows):
    keys = ['buffering_pct', 'bitrate_mbps', 'floor_s', 'floor_longest_s', 'min_rate_mbps', 'p95_rtt_ms']
    shown = ['buffering_pct', 'bitrate_mbps', 'floor_s', 'floor_longest_s']
    print('| noise | trace | cc | ' + ' | '.join(f'{k}: base; fix - base' for k in shown) + ' | p95 RTT ms: fix - base | runs identical |')
    print('|' + ' --- |' * (5 + len(shown)))
    for noise, trace, cc, arm in settings(rows):
        b, x = arm('base'), arm('fix')
        same = sum(1 for p, q in zip(b, x) if all(p[k] == q[k] for k in keys))
        cells = [f'{fmt([p[k] for p in b])}; {fmt([q[k] - p[k] for p, q in zip(b, x)])}' for k in shown]
        p95 = fmt([q['p95_rtt_ms'] - p['p95_rtt_ms'] for p, q in zip(b, x)], 0)
        print(f'| {noise} | {trace} | {cc} | ' + ' | '.join(cells) + f' | {p95} | {same}/{len(b)} |')


def run_grid(arms, trace_dir, out, seeds, jsonl):
    """Every (noise, trace, cc, seed) with each arm back to back; arms: {name: (sim binary, extra environment)}.
    Writes the rows to OUT/jsonl and returns them."""
    os.makedirs(out, exist_ok=True)
    rows = []
    for noise in NOISE:
        for trace in TRACES:
            for cc in CCS:
                for seed in seeds:
                    for arm, (sim, env) in arms.items():
                        r = run(sim, trace_dir, out, arm, trace, cc, noise, seed, env)
                        rows.append({'arm': arm, 'trace': trace, 'cc': cc, 'noise': noise, 'seed': seed, **r})
    with open(os.path.join(out, jsonl), 'w') as f:
        for r in rows:
            f.write(json.dumps(r) + '\n')
    return rows


def main():
    if sys.argv[1] == '--table':
        table([json.loads(line) for line in open(sys.argv[2])])
        return
    base_sim, fix_sim, trace_dir, out = sys.argv[1:5]
    seeds = range(1, 1 + int(sys.argv[5] if len(sys.argv) > 5 else 5))
    table(run_grid({'base': (base_sim, None), 'fix': (fix_sim, None)}, trace_dir, out, seeds, 'sim_video_ab.jsonl'))


if __name__ == '__main__':
    main()
