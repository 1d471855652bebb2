"""Issue 18's session-setup A/B (hold.sh): per run, the player's start-up delay and its first video request (the
session clock, 0 when the page made its session object), and the paired early - serial differences per scheme.
usage: python3 session_setup.py OUT [--jsonl results.jsonl]
OUT holds hold.sh's <arm>-<k>/ folders. With --jsonl, writes the runs' result rows (each tagged with its arm and
repetition) for this folder's results.jsonl. Python standard library only."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402

SCENARIO = 'lte-att-lte-driving-2016'
SCHEMES = ['vivace-video', 'tcp-bbr']
ARMS = ['serial', 'early']


def first_video_request_s(run_dir):
    path = os.path.join(run_dir, 'abr-segments-player-1.jsonl')
    if not os.path.exists(path):
        return None
    with open(path) as f:
        times = [r['dashRequestMs'] for r in map(json.loads, f) if r.get('kind') == 'segment' and r.get('dashRequestMs') is not None]
    return min(times) / 1000 if times else None


def load(out):
    runs = {}
    for name in sorted(os.listdir(out)):
        arm, _, k = name.partition('-')
        results = os.path.join(out, name, 'results.jsonl')
        if arm not in ARMS or not k.isdigit() or not os.path.exists(results):
            continue
        with open(results) as f:
            for row in map(json.loads, f):
                if row.get('status') != 'ok':
                    continue
                run_dir = os.path.join(out, name, 'runs', SCENARIO, row['scheme'], str(row['repetition']))
                runs[(row['scheme'], arm, int(k))] = {
                    'row': row, 'startup_s': row['startup_delay_s'], 'first_video_request_s': first_video_request_s(run_dir),
                }
    return runs


def fmt(ci):
    mean, half = ci
    return f'{mean:.2f} ± {half:.2f}' if half is not None else f'{mean:.2f}'


def main():
    out = sys.argv[1]
    runs = load(out)
    print('| scheme | arm | rep | first video request s | start-up s |')
    print('| --- | --- | --- | --- | --- |')
    for scheme in SCHEMES:
        for arm in ARMS:
            for (s, a, k), r in sorted(runs.items()):
                if s == scheme and a == arm:
                    fv = r['first_video_request_s']
                    print(f"| {scheme} | {arm} | {k} | {'–' if fv is None else f'{fv:.2f}'} | {r['startup_s']:.2f} |")
    print()
    print('| scheme | metric | serial | early | early − serial (paired) | pairs |')
    print('| --- | --- | --- | --- | --- | --- |')
    for scheme in SCHEMES:
        for metric in ['first_video_request_s', 'startup_s']:
            pairs = [(runs[(scheme, 'serial', k)][metric], runs[(scheme, 'early', k)][metric])
                     for (s, a, k) in runs if s == scheme and a == 'serial' and (scheme, 'early', k) in runs]
            pairs = [(a, b) for a, b in pairs if a is not None and b is not None]
            if len(pairs) < 2:
                continue
            serial, early = [a for a, _ in pairs], [b for _, b in pairs]
            print(f'| {scheme} | {metric} | {fmt(mean_ci95(serial))} | {fmt(mean_ci95(early))} | '
                  f'{fmt(mean_ci95([b - a for a, b in pairs]))} | {len(pairs)} |')
    if '--jsonl' in sys.argv:
        with open(sys.argv[sys.argv.index('--jsonl') + 1], 'w') as f:
            for (scheme, arm, k), r in sorted(runs.items()):
                f.write(json.dumps({**r['row'], 'arm': arm, 'pair': k, 'first_video_request_s': r['first_video_request_s']}) + '\n')


if __name__ == '__main__':
    main()
