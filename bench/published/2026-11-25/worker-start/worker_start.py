"""Issue 18's worker-start A/B: tables for summary.md. Python standard library only.
usage: python3 worker_start.py [--bench OUT] [--jsonl results.jsonl] [loopback.jsonl] [timeline.jsonl]
--bench OUT: hold.sh's <arm>-<k>/ bench folders (ATT-LTE-driving-2016, vivace-video): per run the first video request
and first video byte (session clock, s, from the run's abr-segments-player-1.jsonl) and the start-up delay, and the
paired inline - fetched differences; with --jsonl, the runs' result rows tagged with arm, pair and those two times.
Each further argument is measure.ts's output (one JSON line per page): the start-up steps per arm (ms after the
session object, mean +- 95 % t) and the paired differences of the times above."""
import json
import os
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


def first_video_byte_s(run_dir):
    path = os.path.join(run_dir, 'abr-segments-player-1.jsonl')
    if not os.path.exists(path):
        return None
    with open(path) as f:
        rows = [r for r in map(json.loads, f) if r.get('kind') == 'segment']
    times = [(r.get('transfer') or {}).get('firstByteMs') or r.get('dashFirstByteMs') for r in rows]
    times = [t for t in times if t is not None]
    return min(times) / 1000 if times else None


def bench_runs(out):
    """{(arm, pair): run} from hold.sh's folders."""
    runs = {}
    for name in sorted(os.listdir(out)):
        arm, _, pair = name.partition('-')
        results = os.path.join(out, name, 'results.jsonl')
        if arm not in (OLD, NEW) or not pair.isdigit() or not os.path.exists(results):
            continue
        with open(results) as f:
            for row in (r for r in map(json.loads, f) if r.get('status') == 'ok'):
                run_dir = os.path.join(out, name, 'runs', row['scenario'], row['scheme'], str(row['repetition']))
                runs[(arm, int(pair))] = {'row': row, 'startup_delay_s': row['startup_delay_s'],
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
    network = rows[0]['network'] if rows else '?'
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
        paired_table(runs, OLD, NEW, 'ATT-LTE-driving-2016 (bench)')
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
