#!/usr/bin/env python3
"""pcc-sim, the bench's lte setting (lte-post-fade-sim/post_fade_sim.py's BASE) on Verizon-LTE-short and
TMobile-LTE-short, with forward-path RTT noise 0, 3000 and 8000 µs (--jitter-sd-us) and sim-real-noise's real-path model: vivace-video with its fade cut and
noise-scaled regain (both), without both (old: the controller before them), each rule alone (cut; regain, vivace-video's
defaults), vivace and the sim's BBR. Usage: fade_regain_sim.py SIM_BINARY OUT_DIR [SEEDS]  (one run at a time under nice -n 19). Prints
markdown tables: per arm means ± 95 % t over seeds, and paired differences."""
import csv, json, os, statistics, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..'))
sys.path.insert(0, os.path.join(HERE, '..', 'lte-post-fade-sim'))
from student_t import mean_ci95  # noqa: E402
import post_fade_sim  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..', '..'))
TRACES = {'verizon': 'Verizon-LTE-short.down', 'tmobile': 'TMobile-LTE-short.down'}
BASE = [a for a in post_fade_sim.BASE]
TRACE_AT = BASE.index('--trace') + 1
def vv(cut, regain):
    return ['--cc', 'vivace-video', '--cc-param', f'video_fade_cut={cut}', '--cc-param', f'regain_without_queue={regain}']


ARMS = {
    'both': vv(1, 1),
    'old': vv(0, 0),
    'cut': vv(1, 0),
    'regain': vv(0, 1),  # vivace-video's defaults
    'v': ['--cc', 'vivace'],
    'bbr': ['--cc', 'bbr'],
}
# Forward-path jitter of this sd, µs; 'rp': no jitter but sim-real-noise's model of the real path (return-path RTT
# noise fitted to the real LTE telemetry, and a player that abandons like the page's: abandon after 4 s, 5 samples).
JITTERS = [0, 3000, 8000, 'rp']
REAL_PATH = ['--rtt-noise', 'real-path', '--video-abandon-s', '4', '--video-abr-samples', '5']
FADE = (11.0, 17.0)  # Verizon-LTE-short's fade, link s 11-16


def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.95 * len(xs)))] if xs else 0.0


def metrics(path, doc, trace):
    rows = list(csv.DictReader(open(path)))
    video = doc['flows'][0]['video']
    m = {'bitrate_mbps': video['average_bitrate_mbps'], 'buffering_pct': 100 * video['buffering_ratio'],
         'p95_queue_ms': p95([float(r['queue_delay_ms']) for r in rows]),
         'throughput_mbps': doc['flows'][0]['throughput_mbps']}
    if trace == 'verizon':
        fade = [float(r['pacing_rate_mbps']) / float(r['capacity_mbps']) for r in rows
                if FADE[0] < float(r['time_s']) <= FADE[1] and float(r['capacity_mbps']) > 0]
        m['fade_rate_over_cap'] = statistics.median(fade)
        after = post_fade_sim.analyse(path)
        m['after_rate_over_cap'] = after['median_rate_over_cap']
        m['regain_s'] = after['regain_s']
    return m


def main():
    sim, out = sys.argv[1], sys.argv[2]
    seeds = range(1, int(sys.argv[3]) + 1) if len(sys.argv) > 3 else range(1, 11)
    os.makedirs(out, exist_ok=True)
    results = {}
    for trace, name in TRACES.items():
        base = list(BASE)
        base[TRACE_AT] = os.path.join(ROOT, 'bench', 'traces', name)
        for jitter in JITTERS:
            for arm, args in ARMS.items():
                for seed in seeds:
                    path = os.path.join(out, f'{trace}-j{jitter}-{arm}-{seed}.csv')
                    noise = REAL_PATH if jitter == 'rp' else ['--jitter-sd-us', str(jitter)]
                    cmd = ['nice', '-n', '19', sim, *args, *base, *noise, '--seed', str(seed), '--csv', path, '--json']
                    doc = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
                    results[(trace, jitter, arm, seed)] = metrics(path, doc, trace)
    with open(os.path.join(out, 'sim-results.jsonl'), 'w') as f:
        for (trace, jitter, arm, seed), m in results.items():
            f.write(json.dumps({'trace': trace, 'jitter_sd_us': jitter, 'arm': arm, 'seed': seed, **m}) + '\n')
    for trace in TRACES:
        keys = list(next(m for k, m in results.items() if k[0] == trace))
        print(f'\n### {trace} (means ± 95 % t over seeds {seeds.start}-{seeds.stop - 1})\n')
        print('| noise | arm | ' + ' | '.join(keys) + ' |')
        print('|' + ' --- |' * (len(keys) + 2))
        for jitter in JITTERS:
            for arm in ARMS:
                cells = []
                for k in keys:
                    mean, half = mean_ci95([results[(trace, jitter, arm, s)][k] for s in seeds])
                    cells.append(f'{mean:.2f} ± {half:.2f}')
                print(f'| {jitter} | {arm} | ' + ' | '.join(cells) + ' |')
        print(f'\nPaired ({trace}): each vivace-video arm − old, − bbr (same seed)\n')
        print('| noise | pair | ' + ' | '.join(keys) + ' |')
        print('|' + ' --- |' * (len(keys) + 2))
        for jitter in JITTERS:
            for a, b in (('regain', 'old'), ('cut', 'old'), ('both', 'old'), ('regain', 'bbr'), ('both', 'bbr'), ('old', 'bbr')):
                cells = []
                for k in keys:
                    mean, half = mean_ci95([results[(trace, jitter, a, s)][k] - results[(trace, jitter, b, s)][k] for s in seeds])
                    cells.append(f'{mean:+.2f} ± {half:.2f}')
                print(f'| {jitter} | {a} − {b} | ' + ' | '.join(cells) + ' |')


if __name__ == '__main__':
    main()
