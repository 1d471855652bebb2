#!/usr/bin/env python3
"""The slow regains after Verizon-LTE-short's fade in lte-abandon-buffer's vv and v runs (WASM 7dee9c4c), MI by MI.

Reads a run's origin telemetry (one row per 100 ms and per finished MI: a row whose `mi` rose carries the finished
MI's target rate mi_rate_bps, utility, throughput, loss, RTT gradient, and in rate_bps the rate chosen next), linkem's
downlink log (capacity: its '#' delivery opportunities, 1504 B each; the queueing delay of its departures) on the
session clock (session = link - (origin session.open - the link log's init timestamp), as ../floor-collapse), and the
CMCD fields of the telemetry. The fade's capacity returns at link s 17.0.

`table RUN FROM TO` prints the MI table (link s FROM-TO); `summary RUN...` the per-run account used in summary.md:
  - cut at the return: rate changes of <= 0.55x in link s 15.5-17.5 (MI-timeout halvings: sRTT then 5-47 x the min RTT);
  - regained at: first finished MI after link s 17 whose next rate is >= 0.7 x the capacity of the link second after it;
  - below 2 Mbit/s: seconds from link s 17 until the chosen rate first reaches 2 Mbit/s;
  - slow-start episodes after the return (runs of rows in slow_start): rate at entry, top MI rate, rate probing began at;
  - probing: finished probe MIs before the regain, their mean length, how many were sent below 1 Mbit/s, and how many
    delivered < 0.6 x their rate with no queue (qmax < 20 ms: the sender ran out of data, an app-limited MI).
  - svg RUN OUT.svg TITLE: capacity per 100 ms and the chosen rate per MI, link s 14-28.
"""
import bisect
import datetime
import glob
import json
import os
import re
import sys

RETURN_S = 17.0


def load(run):
    init = None
    for line in open(os.path.join(run, 'link-down.log')):
        m = re.match(r'# init timestamp: (\d+)', line)
        if m:
            init = int(m.group(1))
            break
    sopen = None
    for line in open(os.path.join(run, 'origin.log')):
        o = json.loads(line)
        if o.get('event') == 'session.open':
            sopen = datetime.datetime.fromisoformat(o['time'].replace('Z', '+00:00')).timestamp() * 1000
    shift = sopen - init
    opp, dep = [], []
    for line in open(os.path.join(run, 'link-down.log')):
        p = line.split()
        if len(p) < 3 or not p[0].isdigit():
            continue
        t = int(p[0]) / 1000.0
        if p[1] == '#':
            opp.append(t)
        elif p[1] == '-':
            dep.append((t, float(p[3])))
    rows = [json.loads(line) for line in open(sorted(glob.glob(os.path.join(run, 'telemetry', '*.jsonl')))[0])]
    mis, last, start = [], None, None
    for r in rows:
        if last is not None and r['mi'] != last:
            r = dict(r, link_s=(r['t_ms'] + shift) / 1000.0, start_s=start)
            mis.append(r)
        if last is None or r['mi'] != last:
            start = (r['t_ms'] + shift) / 1000.0
        last = r['mi']
    return shift, opp, dep, mis


def cap_mbps(opp, a, b):
    n = bisect.bisect_right(opp, b) - bisect.bisect_right(opp, a)
    return n * 1504 * 8 / max(b - a, 1e-3) / 1e6


def qmax_ms(dep, a, b):
    ts = [d[0] for d in dep]
    i, j = bisect.bisect_right(ts, a), bisect.bisect_right(ts, b)
    return max((d[1] for d in dep[i:j]), default=0.0)


def table(run, lo, hi):
    _, opp, dep, mis = load(run)
    print('| link s | state | MI | its rate | utility | throughput | loss | RTT gradient | next rate | sRTT ms | capacity | qmax ms | CMCD ot br bl |')
    print('| ' + ' | '.join(['---'] * 13) + ' |')
    for m in mis:
        if lo <= m['link_s'] <= hi:
            print('| %.2f | %s | %d | %.0f | %.3f | %.0f | %.3f | %+.3f | %.0f | %.0f | %.0f | %.0f | %s %s %s |' % (
                m['link_s'], m['state'], m['mi'], m['mi_rate_bps'] / 1e3, m['utility'], m['throughput_bps'] / 1e3,
                m['loss_rate'], m['rtt_gradient'], m['rate_bps'] / 1e3, m['srtt_us'] / 1e3,
                1e3 * cap_mbps(opp, m['start_s'], m['link_s']), qmax_ms(dep, m['start_s'], m['link_s']),
                m.get('cmcd_ot'), m.get('cmcd_br_kbps'), m.get('cmcd_bl_ms')))


def account(run):
    _, opp, dep, mis = load(run)
    out = {'run': run.split('/runs/')[-1]}
    cuts = []
    for a, b in zip(mis, mis[1:]):
        if 15.5 <= b['link_s'] <= 17.5 and b['rate_bps'] <= 0.55 * a['rate_bps']:
            cuts.append('%.0f->%.0f at %.2f (sRTT %.0f ms)' % (a['rate_bps'] / 1e3, b['rate_bps'] / 1e3, b['link_s'], b['srtt_us'] / 1e3))
    out['cuts_at_return'] = cuts
    after = [m for m in mis if m['link_s'] >= RETURN_S]
    out['rate_at_return_kbps'] = round(after[0]['rate_bps'] / 1e3) if after else None
    regain = next((m for m in after if m['rate_bps'] / 1e6 >= 0.7 * cap_mbps(opp, m['link_s'], m['link_s'] + 1.0)), None)
    end = regain['link_s'] if regain else after[-1]['link_s']
    out['regained_at_link_s'] = round(end, 2) if regain else None
    two = next((m for m in after if m['rate_bps'] >= 2e6), None)
    out['below_2mbps_s'] = round((two['link_s'] if two else end) - RETURN_S, 2)
    episodes, cur = [], None
    window = [m for m in after if m['link_s'] <= end]
    for m in window:
        if m['state'] == 'slow_start':
            if cur is None:
                cur = {'at': round(m['link_s'], 2), 'entry_kbps': round(m['mi_rate_bps'] / 1e3), 'top_kbps': 0, 'top_thr_kbps': 0}
            if m['mi_rate_bps'] / 1e3 > cur['top_kbps']:
                cur['top_kbps'], cur['top_thr_kbps'] = round(m['mi_rate_bps'] / 1e3), round(m['throughput_bps'] / 1e3)
        elif cur is not None:
            # this row's MI was opened in slow start (a row shows the state when the MI finished)
            if m['mi_rate_bps'] / 1e3 > cur['top_kbps']:
                cur['top_kbps'], cur['top_thr_kbps'] = round(m['mi_rate_bps'] / 1e3), round(m['throughput_bps'] / 1e3)
            cur['probing_from_kbps'] = round(m['rate_bps'] / 1e3)
            episodes.append(cur)
            cur = None
    out['slow_start_episodes'] = episodes
    probes = [m for m in window if m['state'] == 'probing']
    out['probe_mis'] = len(probes)
    lengths = [m['link_s'] - m['start_s'] for m in probes if m['start_s'] is not None]
    out['probe_mi_mean_ms'] = round(1e3 * sum(lengths) / len(lengths)) if lengths else None
    out['probe_mis_below_1mbps'] = sum(1 for m in probes if m['mi_rate_bps'] < 1e6)
    out['unfilled_mis'] = sum(1 for m in window if m['throughput_bps'] < 0.6 * m['mi_rate_bps']
                              and qmax_ms(dep, m['start_s'], m['link_s']) < 20)
    out['mis_in_window'] = len(window)
    return out


def svg(run, out_path, title):
    _, opp, _, mis = load(run)
    lo, hi, W, H, L, T = 14.0, 28.0, 900, 320, 50, 30
    rmax = 10.0
    x = lambda s: L + (W - L - 20) * (s - lo) / (hi - lo)  # noqa: E731
    y = lambda v: T + (H - T - 40) * (1 - min(v, rmax) / rmax)  # noqa: E731
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
             f'<text x="{L}" y="18">{title}</text>']
    caps = []
    t = lo
    while t < hi:
        caps.append((t, cap_mbps(opp, t, t + 0.1)))
        t += 0.1
    parts.append('<polyline fill="none" stroke="#bbb" stroke-width="2" points="' +
                 ' '.join(f'{x(t + 0.05):.1f},{y(c):.1f}' for t, c in caps) + '"/>')
    pts = [(m['link_s'], m['rate_bps'] / 1e6, m['state']) for m in mis if lo <= m['link_s'] <= hi]
    parts.append('<polyline fill="none" stroke="#d62728" stroke-width="1.5" points="' +
                 ' '.join(f'{x(s):.1f},{y(v):.1f}' for s, v, _ in pts) + '"/>')
    for s, v, st in pts:
        if st == 'slow_start':
            parts.append(f'<circle cx="{x(s):.1f}" cy="{y(v):.1f}" r="2.5" fill="#1f77b4"/>')
    base = H - 40
    parts.append(f'<line x1="{L}" y1="{base}" x2="{W - 20}" y2="{base}" stroke="black"/>')
    parts.append(f'<line x1="{L}" y1="{T}" x2="{L}" y2="{base}" stroke="black"/>')
    for s in range(int(lo), int(hi) + 1, 2):
        parts.append(f'<text x="{x(s) - 6:.0f}" y="{base + 15}">{s}</text>')
    for v in (0, 2, 4, 6, 8, 10):
        parts.append(f'<text x="{L - 25}" y="{y(v) + 4:.0f}">{v}</text>')
    parts.append(f'<line x1="{x(RETURN_S):.1f}" y1="{T}" x2="{x(RETURN_S):.1f}" y2="{base}" stroke="#2ca02c" stroke-dasharray="4,3"/>')
    parts.append(f'<text x="{L}" y="{H - 8}">link s; Mbit/s: capacity per 100 ms (grey), rate chosen per finished MI (red; '
                 'blue dots: slow start), capacity back at 17 s (green)</text>')
    parts.append('</svg>')
    open(out_path, 'w').write('\n'.join(parts) + '\n')


def main(argv):
    if argv[1] == 'table':
        table(argv[2], float(argv[3]), float(argv[4]))
    elif argv[1] == 'summary':
        for run in argv[2:]:
            print(json.dumps(account(run)))
    elif argv[1] == 'svg':
        svg(argv[2], argv[3], argv[4])


if __name__ == '__main__':
    main(sys.argv)
