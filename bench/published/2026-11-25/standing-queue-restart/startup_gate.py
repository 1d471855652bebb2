#!/usr/bin/env python3
"""Issue 18: does the starving restart firing during start-up cause the vv arm's queue, and does a gate remove it?
fires REPLAY REAL: replay every TMobile-LTE-driving recording of run_holds.sh (REAL = its OUT) through a pcc-replay
  built with gate.diff + trace.diff (H12_TRACE=1 prints each MI where the restart's other tests pass: FIRE or HOLD by
  the standing-queue test, and the gate's inputs) and print each FIRE with the queue (RTT - min RTT of the recorded
  acks) and the acked rate over the next 2 s, beside the other arm's recording of the same pair (same linkem seed)
  over the same session seconds.
sim SIM TRACE_DIR OUT [SEEDS]: pcc-sim's video model with 8 ms RTT noise (floor-collapse/sim_video_ab.py's run),
  vivace-video, TMobile-LTE-driving and ATT-LTE-driving-2016, the ARMS below back to back per seed -> OUT/startup_gate.jsonl.
table JSONL: means +/- 95 % Student-t, and paired differences against 'lowest'."""
import glob, json, os, subprocess, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'floor-collapse'))
from sim_video_ab import fmt, run  # noqa: E402

SCEN = 'tmobile-lte-driving'
ARMS = {'mean': ['video_starved_restart_lowest_rtt=0'], 'lowest': [],
        'lowest+healthy': ['video_starved_restart_gate=2'], 'lowest+cap': ['video_starved_restart_gate=3']}
TRACES = ['TMobile-LTE-driving', 'ATT-LTE-driving-2016']
KEYS = ['buffering_pct', 'bitrate_mbps', 'floor_s', 'p95_rtt_ms']


def recording(real, arm, n):
    return glob.glob(f'{real}/{SCEN}/{arm}/runs/*/vivace-video/{n}/record/*.replay')[0]


def acks(path):
    """(session s, RTT us, bytes acked) per ack, and the session's t0 (us)."""
    t0, sizes, out = None, {}, []
    for line in open(path):
        f = line.split()
        if not f or f[0].startswith('#'):
            continue
        if f[0] == 'create':
            t0 = int(f[3])
        elif f[0] == 'sent':
            sizes[f[1]] = int(f[2])
        elif f[0] == 'ack':
            out.append(((int(f[4]) - t0) / 1e6, int(f[2]), sizes.get(f[1], 0)))
    return t0, out


def window(ack_rows, t, span=2.0):
    """Median and p95 queue (RTT - session min RTT so far, ms) and the acked Mbit/s over [t, t + span)."""
    lo = min(r for s, r, _ in ack_rows if s < t + span)
    q = sorted((r - lo) / 1e3 for s, r, _ in ack_rows if t <= s < t + span)
    b = sum(n for s, _, n in ack_rows if t <= s < t + span)
    if not q:
        return float('nan'), float('nan'), 0.0
    return q[len(q) // 2], q[min(len(q) - 1, int(0.95 * len(q)))], 8 * b / span / 1e6


def fires(replay, real):
    print('| recording | t s | player spare ms | base -> target Mbit/s | validated Mbit/s | lowest / mean / min RTT ms '
          '| healthy once | queue med/p95 ms, acked Mbit/s next 2 s | other arm same pair, same 2 s |')
    print('|' + ' --- |' * 9)
    for arm, other in (('vv', 'vvmean'), ('vvmean', 'vv')):
        for n in range(1, 7):
            path = recording(real, arm, n)
            res = subprocess.run(['nice', '-n', '19', replay, '--check', path], capture_output=True, text=True,
                                 env={**os.environ, 'H12_TRACE': '1'})
            t0, mine = acks(path)
            _, theirs = acks(recording(real, other, n))
            for line in res.stderr.splitlines():
                f = line.split()
                if f[0] != 'FIRE':
                    continue
                v = dict(zip(f[2::2], f[3::2]))
                t = (int(f[1]) - t0) / 1e6
                a, b = window(mine, t), window(theirs, t)
                mb = lambda k: 8 * float(v[k]) / 1e6  # noqa: E731 (bytes/s -> Mbit/s)
                print(f'| {arm}/{n} | {t:.2f} | {float(v["spare"]):.0f} | {mb("base"):.2f} -> {mb("target"):.2f} | '
                      f'{mb("validated"):.2f} | {int(v["lowest"]) / 1e3:.0f} / {float(v["mean"]) / 1e3:.0f} / '
                      f'{int(v["min"]) / 1e3:.0f} | {v["healthy"]} | {a[0]:.0f}/{a[1]:.0f}, {a[2]:.2f} | '
                      f'{other}: {b[0]:.0f}/{b[1]:.0f}, {b[2]:.2f} |')


def sim(binary, trace_dir, out, seeds):
    os.makedirs(out, exist_ok=True)
    rows = []
    for trace in TRACES:
        for seed in seeds:
            for arm, params in ARMS.items():
                wrapper = os.path.join(out, f'sim-{arm}.sh')  # run() takes a binary: one wrapper per arm adds its params
                with open(wrapper, 'w') as f:
                    f.write('#!/bin/sh\nexec ' + binary + ''.join(f' --cc-param {p}' for p in params) + ' "$@"\n')
                os.chmod(wrapper, 0o755)
                r = run(wrapper, trace_dir, out, arm, trace, 'vivace-video', 'j8', seed)
                rows.append({'arm': arm, 'trace': trace, 'cc': 'vivace-video', 'noise': 'j8', 'seed': seed, **r})
    with open(os.path.join(out, 'startup_gate.jsonl'), 'w') as f:
        for r in rows:
            f.write(json.dumps(r) + '\n')
    return rows


def table(rows):
    print('| trace | arm | ' + ' | '.join(f'{k}; arm - lowest' for k in KEYS) + ' | identical to lowest |')
    print('|' + ' --- |' * (3 + len(KEYS)))
    for trace in TRACES:
        get = lambda a: sorted((r for r in rows if (r['arm'], r['trace']) == (a, trace)), key=lambda r: r['seed'])  # noqa: E731
        base = get('lowest')
        for arm in ARMS:
            x = get(arm)
            d = lambda k: 1 if k == 'p95_rtt_ms' else 2  # noqa: E731
            cells = [f'{fmt([q[k] for q in x], d(k))}; {fmt([q[k] - p[k] for p, q in zip(base, x)], d(k))}' for k in KEYS]
            same = sum(1 for p, q in zip(base, x) if all(p[k] == q[k] for k in KEYS))
            print(f'| {trace} | {arm} | ' + ' | '.join(cells) + f' | {same}/{len(x)} |')


def main():
    cmd = sys.argv[1]
    if cmd == 'fires':
        fires(*sys.argv[2:4])
    elif cmd == 'sim':
        seeds = range(1, 1 + int(sys.argv[5] if len(sys.argv) > 5 else 10))
        table(sim(sys.argv[2], sys.argv[3], sys.argv[4], seeds))
    else:
        table([json.loads(line) for line in open(sys.argv[2])])


if __name__ == '__main__':
    main()
