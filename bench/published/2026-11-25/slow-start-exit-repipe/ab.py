#!/usr/bin/env python3
"""slow-start-exit-repipe: the paired real-path A/B of hold.sh, from ../standing-addon-pacer/analyse.py's per-run rows.
  python3 ab.py table RUNS_JSONL            -> markdown tables: per arm means ± 95 % Student-t, paired on - off
  python3 ab.py svg RUNS_DIR... > out.svg   -> IP Mbit/s delivered by linkem per 100 ms over the first 4 s, every run
Arm: 'on' when the run's controller_params set slow_start_exit_repipe = 1. Pair: (scenario, repetition)."""
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bulk-baseline-a6262f6'))
import linklog  # noqa: E402

METRICS = [('throughput_mbps', 'IP Mbit/s (20 s)'), ('first2s_mbps', 'first 2 s'), ('ip_after2s_mbps', 'IP after 2 s'),
           ('t90_s', 't90 s'), ('queue_p95_ms', 'p95 queue ms'), ('ss_p95_ms', 'slow start p95 queue ms'),
           ('after_p95_ms', 'after p95 queue ms'), ('load1_before', '1-min load')]

def arm(row):
    params = row.get('controller_params') or {}  # the run's scheme's parameters (results.jsonl)
    return 'on' if params.get('slow_start_exit_repipe') == 1 else 'off'

def fmt(xs):
    xs = [x for x in xs if x is not None]
    if not xs: return 'n/a'
    m, h = mean_ci95(xs)
    return f'{m:.2f} ± {h:.2f} ({", ".join(f"{x:g}" for x in xs)})'

def table(path):
    rows = [json.loads(l) for l in open(path)]
    for sc in sorted({r['scenario'] for r in rows}):
        rs = [r for r in rows if r['scenario'] == sc and r['status'] == 'ok']
        by = {(r['repetition'], arm(r)): r for r in rs}
        reps = sorted({k for k, a in by if (k, 'off') in by and (k, 'on') in by})
        print(f'\n## {sc}: {len(reps)} pairs (repetitions {", ".join(map(str, reps))})\n')
        print('| metric | off | on | paired on − off |')
        print('| --- | --- | --- | --- |')
        for key, label in METRICS:
            off = [by[(k, 'off')].get(key) for k in reps]; on = [by[(k, 'on')].get(key) for k in reps]
            d = [b - a for a, b in zip(off, on) if a is not None and b is not None]
            print(f'| {label} | {fmt(off)} | {fmt(on)} | {fmt([round(x, 2) for x in d]) if key != "load1_before" else ""} |')

def series(run, bin_ms=100, until_ms=4000):
    per = [0] * (until_ms // bin_ms)
    for t, kind, size, _ in linklog.events(run):
        if kind == '-' and t < until_ms: per[t // bin_ms] += size
    return [b * 8 / (bin_ms / 1000) / 1e6 for b in per]

def svg(dirs):
    runs = []
    for d in dirs:
        for line in open(os.path.join(d, 'results.jsonl')):
            r = json.loads(line)
            if r['status'] != 'ok': continue
            run = os.path.join(d, 'runs', r['scenario'], r['scheme'], str(r['repetition']))
            runs.append((r['scenario'].replace('bulk-100mbps-30ms-', ''), r['repetition'], arm(r), series(run)))
    panels = sorted({s for s, *_ in runs})
    W, H, L, B = 460, 260, 45, 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W * len(panels)}" height="{H + 20}" font-family="sans-serif" font-size="11">']
    for i, p in enumerate(panels):
        x0 = i * W
        px = lambda ms: x0 + L + (W - L - 10) * ms / 4000
        py = lambda v: 10 + (H - B - 10) * (1 - min(v, 120) / 120)
        out.append(f'<text x="{x0 + L}" y="{H + 15}">{p}: IP Mbit/s per 100 ms at linkem, 0-4 s (red: repipe on, grey: off)</text>')
        for v in (0, 30, 60, 90, 120):
            out.append(f'<line x1="{px(0)}" x2="{px(4000)}" y1="{py(v)}" y2="{py(v)}" stroke="#ddd"/><text x="{x0 + 5}" y="{py(v) + 4}">{v}</text>')
        for s in (0, 1000, 2000, 3000, 4000):
            out.append(f'<text x="{px(s) - 4}" y="{H - B + 15}">{s // 1000}s</text>')
        for sc, rep, a, ys in runs:
            if sc != p: continue
            pts = ' '.join(f'{px(j * 100 + 50):.1f},{py(y):.1f}' for j, y in enumerate(ys))
            out.append(f'<polyline fill="none" stroke="{"#c0392b" if a == "on" else "#888"}" stroke-width="1.2" points="{pts}"><title>{sc} rep {rep} {a}</title></polyline>')
    out.append('</svg>')
    print('\n'.join(out))

if __name__ == '__main__':
    if sys.argv[1:2] == ['table']: table(sys.argv[2])
    elif sys.argv[1:2] == ['svg']: svg(sys.argv[2:])
    else: sys.exit(__doc__)
