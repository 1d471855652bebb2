#!/usr/bin/env python3
"""pcc-sim on Verizon-LTE-short (the bench's lte suite setting, ABR ladder): after the trace's fade (link s 11-16,
capacity back from 17), how close does each controller's rate come to capacity in link s 17-28 (the window of
lte-abr-fix/why-gap.md)? In the sim the player starts at link s 0 (real runs: about link s 5), so the windows match
in link time. Usage: post_fade_sim.py OUT_DIR  (runs the 4 arms x seeds 1-10 one at a time under nice -n 19)."""
import csv, json, os, statistics, subprocess, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..'))
SIM = os.path.join(ROOT, 'controller-wasm', 'build', 'sim', 'pcc-sim')
TRACE = os.path.join(ROOT, 'bench', 'traces', 'Verizon-LTE-short.down')
BASE = ['--video-abr', '0.3,0.8,2,4,8', '--segment-s', '2', '--trace', TRACE, '--rtt-ms', '40', '--buffer-kb', '300',
        '--duration-s', '40', '--sample-ms', '100']
ARMS = {
    'vv': ['--cc', 'vivace-video'],
    'vvr': ['--cc', 'vivace-video', '--cc-param', 'regain_without_queue=1'],
    'v': ['--cc', 'vivace'],
    'bbr': ['--cc', 'bbr'],
    # the real path's forward jitter (sim README, mi-one-frame-span): does ack-timing noise hold the rate longer?
    'vvj': ['--cc', 'vivace-video', '--jitter-sd-us', '200'],
    # RTT noise of the real path's size at no queue (rtt_noise.py: real p50/p75 8/24 ms above the min, sim 3/6)
    'vvj8': ['--cc', 'vivace-video', '--jitter-sd-us', '8000'],
    'vvrj8': ['--cc', 'vivace-video', '--cc-param', 'regain_without_queue=1', '--jitter-sd-us', '8000'],
    'bbrj8': ['--cc', 'bbr', '--jitter-sd-us', '8000'],
    'vvj3': ['--cc', 'vivace-video', '--jitter-sd-us', '3000'],
    'vvrj3': ['--cc', 'vivace-video', '--cc-param', 'regain_without_queue=1', '--jitter-sd-us', '3000'],
    'bbrj3': ['--cc', 'bbr', '--jitter-sd-us', '3000'],
}
PAIRS = [('vv', 'bbr'), ('vvr', 'bbr'), ('v', 'bbr'), ('vvr', 'vv'), ('vvj3', 'bbrj3'), ('vvrj3', 'bbrj3'),
         ('vvrj3', 'vvj3'), ('vvj8', 'bbrj8')]
WINDOW = (17.0, 29.0)  # link s 17-28 inclusive
SEEDS = range(1, 11)


def run(out, arm, seed):
    path = os.path.join(out, f'{arm}-{seed}.csv')
    cmd = ['nice', '-n', '19', SIM, *ARMS[arm], *BASE, '--seed', str(seed), '--csv', path, '--json']
    res = subprocess.run(cmd, check=True, capture_output=True, text=True)
    with open(os.path.join(out, f'{arm}-{seed}.json'), 'w') as f:
        f.write(res.stdout)
    return path, json.loads(res.stdout)


def analyse(path):
    rows = [r for r in csv.DictReader(open(path)) if WINDOW[0] < float(r['time_s']) <= WINDOW[1] + 1e-9]
    min_rtt = min(float(r['rtt_ms']) for r in csv.DictReader(open(path)) if float(r['rtt_ms']) > 0)
    dt = 0.1
    offered = sum(float(r['capacity_mbps']) * dt for r in rows)
    delivered = sum(float(r['throughput_mbps']) * dt for r in rows)
    # The player waits for data while its buffer is below dash.js's target (18 s below the top rung, 30 s at it).
    wait = [r for r in rows if float(r['video_buffer_s']) < (30 if float(r['video_bitrate_mbps']) >= 8 else 18)]
    unused_wait = sum(max(0.0, float(r['capacity_mbps']) - float(r['throughput_mbps'])) * dt for r in wait)
    # ... and no queue: sRTT within 10 ms of the min RTT (the real analysis's below-cap), rate below capacity.
    noq = [r for r in wait if float(r['rtt_ms']) <= min_rtt + 10]
    unused_noq = sum(max(0.0, float(r['capacity_mbps']) - float(r['throughput_mbps'])) * dt for r in noq)
    per_s = {}
    for r in wait:
        per_s.setdefault(int(float(r['time_s']) - 1e-9), []).append(r)
    rate_ratio = statistics.median(
        sum(float(r['pacing_rate_mbps']) for r in rs) / max(1e-9, sum(float(r['capacity_mbps']) for r in rs))
        for rs in per_s.values()) if per_s else float('nan')
    # The rate the fade left (first sample of the window) and how long until the controller's rate reached 0.7 x
    # the capacity of that 100 ms (real vv-1: 0.55 Mbit/s, about 7 s).
    rate_at_17 = float(rows[0]['pacing_rate_mbps'])
    regain = next((float(r['time_s']) - WINDOW[0] for r in rows
                   if float(r['pacing_rate_mbps']) >= 0.7 * float(r['capacity_mbps'])), WINDOW[1] - WINDOW[0])
    states = {}
    for r in rows:
        states[r['cc_state']] = states.get(r['cc_state'], 0) + dt
    return {'min_rtt_ms': min_rtt, 'offered_mbit': offered, 'delivered_mbit': delivered,
            'wait_s': len(wait) * dt, 'unused_wait_mbit': unused_wait, 'unused_wait_noqueue_mbit': unused_noq,
            'median_rate_over_cap': rate_ratio, 'rate_at_17_mbps': rate_at_17, 'regain_s': regain,
            'median_srtt_ms': statistics.median(float(r['rtt_ms']) for r in rows), 'states_s': states}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    table = {}
    with open(os.path.join(out, 'results.jsonl'), 'w') as f:
        for arm in ARMS:
            for seed in SEEDS:
                path, result = run(out, arm, seed)
                a = analyse(path)
                video = result['flows'][0]['video']
                a.update(arm=arm, seed=seed, players=1, average_bitrate_mbps=video['average_bitrate_mbps'],
                         buffering_ratio=video['buffering_ratio'])
                f.write(json.dumps(a) + '\n')
                table.setdefault(arm, []).append(a)
    keys = ['rate_at_17_mbps', 'regain_s', 'delivered_mbit', 'unused_wait_mbit', 'unused_wait_noqueue_mbit', 'median_rate_over_cap',
            'median_srtt_ms', 'average_bitrate_mbps']
    print('| arm | seed | ' + ' | '.join(keys) + ' | states (s) |')
    print('| --- ' * (len(keys) + 3) + '|')
    for arm, rows in table.items():
        for a in rows:
            st = ', '.join(f'{k} {v:.1f}' for k, v in sorted(a['states_s'].items()))
            print(f"| {arm} | {a['seed']} | " + ' | '.join(f'{a[k]:.2f}' for k in keys) + f' | {st} |')
    print()
    print('| arm | ' + ' | '.join(keys) + ' |')
    print('| --- ' * (len(keys) + 1) + '|')
    for arm, rows in table.items():
        cells = []
        for k in keys:
            m, h = mean_ci95([a[k] for a in rows])
            cells.append(f'{m:.2f} ± {h:.2f}')
        print(f'| {arm} | ' + ' | '.join(cells) + ' |')
    print(f"\noffered in window: {table['vv'][0]['offered_mbit']:.1f} Mbit")
    print('\n| pair | delivered | rate/cap | seeds below 0 (delivered / rate/cap) |')
    print('| --- | --- | --- | --- |')
    for a, b in PAIRS:
        cells, below = [], []
        for k in ('delivered_mbit', 'median_rate_over_cap'):
            d = [x[k] - y[k] for x, y in zip(table[a], table[b])]  # same seed order
            m, h = mean_ci95(d)
            cells.append(f'{m:+.2f} ± {h:.2f}')
            below.append(str(sum(v < 0 for v in d)))
        print(f'| {a} − {b} | ' + ' | '.join(cells) + f" | {' / '.join(below)} |")


if __name__ == '__main__':
    main()
