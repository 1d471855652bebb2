"""Issue 18's worker-start A/B: tables for summary.md. Python standard library only.
usage: python3 worker_start.py [--bench OUT] [--jsonl results.jsonl] [loopback.jsonl] [timeline.jsonl]
--bench OUT: hold.sh's <arm>-<k>/ bench folders (one trace, vivace-video): per run the first video request
and first video byte (session clock, s, from the run's abr-segments-player-1.jsonl) and the start-up delay, and the
paired inline - fetched differences; with --jsonl, the runs' result rows tagged with arm, pair and those two times.
Each further argument is measure.ts's output (one JSON line per page): per network, the start-up steps per arm (ms
after the session object, mean +- 95 % t) and the paired differences of the times above."""
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'session-setup'))
from session_setup import first_video_request_s  # noqa: E402

OLD, NEW = 'fetched', 'inline'
TIMES = ['first_video_request_s', 'first_video_byte_s', 'startup_delay_s']
# measure.ts's arms: the page parameters it set ('default' for none).
ARM_NAMES = {'default': 'inline (new)', 'workerScript=fetched': 'fetched (old)', 'sessionStart=serial': 'serial'}
STEPS = ['workerCreatedMs', 'workerRunningMs', 'playerCreatedMs', 'playerInitializedMs', 'connectStartMs',
         'sessionReadyMs', 'manifestRequestMs', 'firstSegmentRequestMs', 'playbackStartMs']


def fmt(values, digits=2):
    values = [v for v in values if v is not None]
    if not values:
        return '–'
    mean, half = mean_ci95(values)
    return f'{mean:.{digits}f} ± {half:.{digits}f}' if half is not None else f'{mean:.{digits}f}'


def segment_rows(run_dir):
    path = os.path.join(run_dir, 'abr-segments-player-1.jsonl')
    return [r for r in map(json.loads, open(path)) if r.get('kind') == 'segment'] if os.path.exists(path) else []


def first_video_byte_s(run_dir):
    firsts = [(r.get('transfer') or {}).get('firstByteMs') or r.get('dashFirstByteMs') for r in segment_rows(run_dir)]
    first = min((t for t in firsts if t is not None), default=None)
    return None if first is None else first / 1000


def bench_runs(out):
    """{(arm, pair): run} from hold.sh's <arm>-<pair>/ folders."""
    runs = {}
    for results in sorted(glob.glob(os.path.join(out, '*-*', 'results.jsonl'))):
        folder = os.path.dirname(results)
        match = re.fullmatch(r'(fetched|inline)-(\d+)', os.path.basename(folder))
        for row in (r for r in map(json.loads, open(results)) if match and r.get('status') == 'ok'):
            run_dir = os.path.join(folder, 'runs', row['scenario'], row['scheme'], str(row['repetition']))
            runs[(match[1], int(match[2]))] = {'row': row, 'startup_delay_s': row['startup_delay_s'],
                                               'first_video_request_s': first_video_request_s(run_dir),
                                               'first_video_byte_s': first_video_byte_s(run_dir)}
    return runs


def paired_table(runs, old, new, label):
    """runs: {(arm, pair): {time: s}}; prints one row per time with both arms and the paired new - old."""
    pairs = sorted(p for (a, p) in runs if a == old and (new, p) in runs)
    print(f'| {label} | metric | {old} | {new} | {new} − {old}, paired | pairs |')
    print('| --- | --- | --- | --- | --- | --- |')
    for t in TIMES:
        both = [(runs[(old, p)][t], runs[(new, p)][t]) for p in pairs]
        both = [(a, b) for a, b in both if a is not None and b is not None]
        per_run = lambda xs: ', '.join(f'{x:.2f}' for x in xs)  # noqa: E731
        print(f'| | {t} | {fmt([a for a, _ in both])} ({per_run(a for a, _ in both)}) | '
              f'{fmt([b for _, b in both])} ({per_run(b for _, b in both)}) | {fmt([b - a for a, b in both])} | {len(both)} |')
    print()


def page_timelines(path):
    with open(path) as f:
        rows = [r for r in map(json.loads, f) if r.get('startup')]
    for network in dict.fromkeys(r['network'] for r in rows):
        network_timelines(network, [r for r in rows if r['network'] == network])


def network_timelines(network, rows):
    arms = list(dict.fromkeys(r['arm'] for r in rows))
    print(f'{network}: ms after the session object (mean ± 95 % t); load1 {min(r["load1"] for r in rows):.2f}–'
          f'{max(r["load1"] for r in rows):.2f}')
    print()
    print('| step | ' + ' | '.join(f'{ARM_NAMES.get(a, a)} (n={sum(r["arm"] == a for r in rows)})' for a in arms) + ' |')
    print('| --- |' + ' --- |' * len(arms))
    print('| sessionCreatedMs (since navigation) | ' + ' | '.join(
        fmt([r['startup']['sessionCreatedMs'] for r in rows if r['arm'] == a], 0) for a in arms) + ' |')
    for step in STEPS:
        cells = []
        for a in arms:
            cells.append(fmt([r['startup'][step] - r['startup']['sessionCreatedMs'] for r in rows
                              if r['arm'] == a and r['startup'].get(step) is not None], 0))
        print(f'| {step} | ' + ' | '.join(cells) + ' |')
    print()
    by = {(ARM_NAMES.get(r['arm'], r['arm']).split()[0], r['rep']): r for r in rows}
    if any(a == OLD for a, _ in by) and any(a == NEW for a, _ in by):
        paired_table(by, OLD, NEW, network)
    if any(a == 'serial' for a, _ in by):
        paired_table(by, 'serial', OLD, network)


def main():
    args = sys.argv[1:]
    if '--bench' in args:
        i = args.index('--bench')
        runs = bench_runs(args[i + 1])
        del args[i:i + 2]
        scenarios = sorted({r['row']['scenario'] for r in runs.values()})
        paired_table(runs, OLD, NEW, f"{', '.join(scenarios)} (bench)")
        if '--jsonl' in args:
            j = args.index('--jsonl')
            with open(args[j + 1], 'w') as f:
                for (arm, pair), r in sorted(runs.items(), key=lambda kv: (kv[0][1], kv[0][0])):
                    f.write(json.dumps({**r['row'], 'arm': arm, 'pair': pair, 'first_video_request_s': r['first_video_request_s'],
                                        'first_video_byte_s': r['first_video_byte_s']}) + '\n')
            del args[j:j + 2]
    for path in args:
        page_timelines(path)


if __name__ == '__main__':
    main()
