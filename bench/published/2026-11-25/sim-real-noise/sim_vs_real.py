#!/usr/bin/env python3
"""Does pcc-sim predict the real path on the LTE traces? The lte suite's ABR runs of ../lte-abr-fix (real path: origin,
Chromium, linkem; 30 s; the new player ABR) against pcc-sim on the same trace, delay and buffer, per scheme, with the
simulator's old inputs and its new ones:
  old    : default pcc-sim (no RTT noise, the sim's player: harmonic mean of 4, no abandonment)
  noise  : --rtt-noise real-path
  player : --video-abr-samples 5 --video-abandon-s 4 (the player page's ABR_HARMONIC_SEGMENTS, ABANDON_LOCK_MS)
  new    : both
  ack    : the player, and a delayed-ack receiver in place of the noise (--ack-delay-ms 25, QUIC's max_ack_delay)
The real player starts about 3.4 s into the trace (../lte-att/timeline.py's alignment of vv-1), so the sim runs a copy
of the trace with its first 3.4 s cut, 30 s, seeds 1-5. Metrics as lte-abr-fix's: average bitrate of the segments;
p95 queueing (the real: linkem's per-packet queue delay; the sim: the queue delay of the last packet to leave the
bottleneck in each 10-ms row, weighted by the row's delivered bits); on Verizon, link s 17-28 (after the fade):
delivered Mbit and the controller's median rate / capacity over the seconds with a request outstanding (why_gap.py;
vivace and vivace-video only).
Usage: sim_vs_real.py PCC_SIM OUT_DIR  (writes OUT_DIR/sim-runs.jsonl; prints the markdown tables)."""
import csv, json, os, re, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..'))
from student_t import mean_ci95  # noqa: E402

REPO = os.path.abspath(os.path.join(HERE, '..', '..', '..', '..'))
REAL = os.path.join(HERE, '..', 'lte-abr-fix')
TRACES = {'verizon-lte-short': 'Verizon-LTE-short.down', 'tmobile-lte-short': 'TMobile-LTE-short.down'}
SCHEMES = {'vivace-video': 'vivace-video', 'vivace': 'vivace', 'tcp-bbr': 'bbr', 'tcp-cubic': 'cubic'}
ARMS = {'old': [], 'noise': ['--rtt-noise', 'real-path'],
        'player': ['--video-abr-samples', '5', '--video-abandon-s', '4'],
        'new': ['--rtt-noise', 'real-path', '--video-abr-samples', '5', '--video-abandon-s', '4'],
        'ack': ['--ack-delay-ms', '25', '--video-abr-samples', '5', '--video-abandon-s', '4']}
SEEDS = range(1, 6)
OFFSET_MS = 3400
WINDOW = (17, 28)   # link seconds after Verizon-LTE-short's fade
WHY_GAP_PREFIX = {'vv': 'vivace-video', 'v': 'vivace', 'bbr': 'tcp-bbr', 'cubic': 'tcp-cubic'}


def shifted_trace(name, out_dir):
    path = os.path.join(out_dir, name)
    stamps = [int(x) for x in open(os.path.join(REPO, 'bench', 'traces', name)).read().split()]
    period = stamps[-1]
    # the trace loops: cut its first OFFSET_MS and append them one period later
    kept = [t - OFFSET_MS for t in stamps if t >= OFFSET_MS] + [t + period - OFFSET_MS for t in stamps if t < OFFSET_MS]
    open(path, 'w').write('\n'.join(str(t) for t in kept) + '\n')
    return path


def weighted_p95(rows):
    pairs = sorted((float(r['queue_delay_ms']), float(r['throughput_mbps'])) for r in rows)
    total = sum(w for _, w in pairs)
    acc = 0.0
    for value, w in pairs:
        acc += w
        if acc >= 0.95 * total:
            return value
    return 0.0


def after_fade(rows):
    """Delivered Mbit in link s WINDOW and the median controller rate / capacity over its seconds."""
    per_s = {}
    for r in rows:
        link_s = float(r['time_s']) + OFFSET_MS / 1000.0
        if WINDOW[0] <= link_s < WINDOW[1] + 1:
            per_s.setdefault(int(link_s), []).append(r)
    delivered = sum(float(r['throughput_mbps']) * 0.01 for rs in per_s.values() for r in rs)
    ratios = []
    for rs in per_s.values():
        cap = statistics.mean(float(r['capacity_mbps']) for r in rs)
        # a request is outstanding while the buffer is below dash.js's 18-s target
        if cap > 0 and statistics.mean(float(r['video_buffer_s']) for r in rs) < 17.0:
            ratios.append(statistics.mean(float(r['pacing_rate_mbps']) for r in rs) / cap)
    return delivered, statistics.median(ratios) if ratios else None


def run(sim, trace, cc, seed, extra, tmp):
    csv_path = os.path.join(tmp, 'run.csv')
    args = [sim, '--cc', cc, '--video-abr', '0.3,0.8,2,4,8', '--segment-s', '2', '--trace', trace, '--rtt-ms', '40',
            '--buffer-kb', '300', '--duration-s', '30', '--sample-ms', '10', '--seed', str(seed), '--csv', csv_path,
            '--json'] + extra
    out = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    rows = list(csv.DictReader(open(csv_path)))
    flow = out['flows'][0]
    delivered, ratio = after_fade(rows)
    return {'avg_bitrate_mbps': flow['video']['average_bitrate_mbps'], 'queue_delay_p95_ms': weighted_p95(rows),
            'buffering_ratio': flow['video']['buffering_ratio'], 'abandoned': flow['video'].get('abandoned'),
            'delivered_after_fade_mbit': delivered, 'ctl_over_cap_after_fade': ratio,
            'p95_rtt_ms': flow['p95_rtt_ms'], 'args': args[1:]}


def real_rows():
    runs = [json.loads(t) for t in open(os.path.join(REAL, 'results.jsonl'))]
    out = {}
    for r in runs:
        if r['status'] != 'ok' or r.get('controller_params') or r.get('player_params'):
            continue
        trace = r['scenario'].replace('lte-', '', 1)
        out.setdefault((trace, r['scheme']), []).append(r)
    fade = {}
    for line in open(os.path.join(REAL, 'why-gap-verizon.md')):
        if line.startswith('## 2.'):
            break   # section 1 is the after-fade table
        m = re.match(r'\| (vv|v|bbr|cubic)-\d \| [\d.]+ \| ([\d.]+) \|.*\| ([\d.]+|–) \| [^|]* \|$', line)
        if m:
            fade.setdefault(WHY_GAP_PREFIX[m.group(1)], []).append(
                (float(m.group(2)), None if m.group(3) == '–' else float(m.group(3))))
    return out, fade


def ci(xs, digits):
    xs = [x for x in xs if x is not None]
    if not xs:
        return '–'
    if len(xs) == 1:
        return f'{xs[0]:.{digits}f}'
    m, h = mean_ci95(xs)
    return f'{m:.{digits}f} ± {h:.{digits}f}'


def main():
    sim, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    real, fade = real_rows()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        traces = {k: shifted_trace(v, tmp) for k, v in TRACES.items()}
        for trace_name, trace in traces.items():
            for scheme, cc in SCHEMES.items():
                for arm, extra in ARMS.items():
                    for seed in SEEDS:
                        r = run(sim, trace, cc, seed, extra, tmp)
                        r.update({'trace': trace_name, 'scheme': scheme, 'arm': arm, 'seed': seed})
                        r['args'] = [a if a != trace else f'<{TRACES[trace_name]} from {OFFSET_MS} ms>' for a in r['args']]
                        r['args'] = [a for a in r['args'] if not a.endswith('run.csv')]
                        results.append(r)
    with open(os.path.join(out_dir, 'sim-runs.jsonl'), 'w') as f:
        for r in results:
            f.write(json.dumps(r) + '\n')
    for trace_name in TRACES:
        print(f'\n### {trace_name} (real: lte-abr-fix, n = 3-4; sim: seeds 1-5; mean ± 95 % t)\n')
        verizon = trace_name.startswith('verizon')
        head = '| scheme | source | avg bitrate Mbit/s | p95 queueing ms | buffering % |'
        if verizon:
            head += ' delivered link s 17-28 Mbit | ctl rate / cap, link s 17-28 |'
        print(head)
        print('|' + ' --- |' * (head.count('|') - 1))
        for scheme in SCHEMES:
            rs = real.get((trace_name, scheme), [])
            line = (f'| {scheme} | real | {ci([r["avg_bitrate_mbps"] for r in rs], 3)} | '
                    f'{ci([r["queue_delay_p95_ms"] for r in rs], 0)} | {ci([100 * r["buffering_ratio"] for r in rs], 2)} |')
            if verizon:
                fs = fade.get(scheme, [])
                line += f' {ci([d for d, _ in fs], 1)} | {ci([c for _, c in fs], 2)} |'
            print(line)
            for arm in ARMS:
                ss = [r for r in results if r['trace'] == trace_name and r['scheme'] == scheme and r['arm'] == arm]
                line = (f'| {scheme} | sim {arm} | {ci([r["avg_bitrate_mbps"] for r in ss], 3)} | '
                        f'{ci([r["queue_delay_p95_ms"] for r in ss], 0)} | {ci([100 * r["buffering_ratio"] for r in ss], 2)} |')
                if verizon:
                    ctl = [r['ctl_over_cap_after_fade'] for r in ss] if scheme.startswith('vivace') else []
                    line += f' {ci([r["delivered_after_fade_mbit"] for r in ss], 1)} | {ci(ctl, 2)} |'
                print(line)

    print('\n### How far the sim is from the real path (per arm, over the 8 scheme x trace cells)\n')
    print('| arm | bitrate: mean abs(sim/real - 1) | bitrate: cells within the real 95 % interval | '
          'p95 queueing: mean abs(sim/real - 1) | p95: cells within the real interval | '
          'vivace-video / tcp-bbr bitrate, Verizon | same, TMobile |')
    print('|' + ' --- |' * 7)
    for arm in ARMS:
        errs = {'avg_bitrate_mbps': [], 'queue_delay_p95_ms': []}
        inside = {'avg_bitrate_mbps': 0, 'queue_delay_p95_ms': 0}
        for trace_name in TRACES:
            for scheme in SCHEMES:
                rs = real.get((trace_name, scheme), [])
                ss = [r for r in results if r['trace'] == trace_name and r['scheme'] == scheme and r['arm'] == arm]
                for key in errs:
                    m, h = mean_ci95([r[key] for r in rs])
                    sim_mean = statistics.mean(r[key] for r in ss)
                    errs[key].append(abs(sim_mean / m - 1))
                    inside[key] += abs(sim_mean - m) <= h
        ratios = []
        for trace_name in TRACES:
            # paired by seed: the same trace and seed for both schemes
            vv = {r['seed']: r['avg_bitrate_mbps'] for r in results
                  if r['trace'] == trace_name and r['scheme'] == 'vivace-video' and r['arm'] == arm}
            bbr = {r['seed']: r['avg_bitrate_mbps'] for r in results
                   if r['trace'] == trace_name and r['scheme'] == 'tcp-bbr' and r['arm'] == arm}
            ratios.append(ci([vv[k] / bbr[k] for k in sorted(vv)], 2))
        print(f'| {arm} | {statistics.mean(errs["avg_bitrate_mbps"]):.2f} | {inside["avg_bitrate_mbps"]} / 8 | '
              f'{statistics.mean(errs["queue_delay_p95_ms"]):.2f} | {inside["queue_delay_p95_ms"]} / 8 | '
              f'{ratios[0]} | {ratios[1]} |')
    print('\nreal vivace-video / tcp-bbr bitrate (lte-abr-fix, paired): Verizon 0.641 ± 0.189, TMobile 0.738 ± 0.136')


if __name__ == '__main__':
    main()
