#!/usr/bin/env python3
"""Per link-second timeline of one bench run directory (runs/SCENARIO/SCHEME/N): from link-down.log (mahimahi format)
the trace capacity, arrivals, deliveries, drops, the largest queue and the p95 queueing delay of each second; from the
origin's telemetry (datagram schemes) the controller's mean rate and states; the player's series.json sample (buffer,
bitrate, goodput); and each video request's CMCD (br @ bl ~ mtp). Clocks: the telemetry is placed on the link's by
matching cumulative bytes sent with the link's arrivals (the page's own load subtracted), the player's series by its
capacity column; both are good to about a second.
usage: python3 timeline.py RUN_DIR"""
import json, sys, glob, os, re, datetime, bisect

def align(run, verbose=True):
    lt = []; lc = []; c = 0
    for line in open(os.path.join(run, 'link-down.log')):
        if line.startswith('#'): continue
        p = line.split()
        if len(p) >= 3 and p[1] == '+': c += int(p[2]); lt.append(int(p[0]) / 1000); lc.append(c)
    tel = []
    for f in glob.glob(os.path.join(run, 'telemetry', '*.jsonl')):
        for line in open(f):
            o = json.loads(line); tel.append((o['t_ms'] / 1000, o['sent_datagram_bytes']))
    tel.sort()
    k = 1.022; extra = c - k * tel[-1][1]
    diffs = []
    for frac in [0.2, 0.35, 0.5, 0.65, 0.8, 0.95]:
        target = frac * tel[-1][1]
        tt = next(t for t, b in tel if b >= target)
        i = bisect.bisect_left(lc, extra + k * target)
        diffs.append(lt[min(i, len(lt) - 1)] - tt)
    if verbose: print(run, 'extra bytes', int(extra), 'link - tele at 20..95% of bytes:', ' '.join('%.2f' % d for d in diffs))
    return sorted(diffs)[len(diffs) // 2]

run = sys.argv[1]
init_ms = None
cap = {}; arr = {}; dep = {}; drop = {}; qd = {}
qbytes = 0; qmax = {}
for line in open(os.path.join(run, 'link-down.log')):
    if line.startswith('#'):
        m = re.match(r'# init timestamp: (\d+)', line)
        if m: init_ms = int(m.group(1))
        continue
    p = line.split()
    if len(p) < 3: continue
    # linkem's log (bench/linkem/src/fwd/mmlog.h): 'T + SIZE', 'T # 1504', 'T - SIZE DELAY', and 'T d PACKETS BYTES'
    # for a drop: its bytes are the fourth field (the third counts packets)
    t = int(p[0]); s = t // 1000; kind = p[1]
    b = int(p[3]) if kind == 'd' else int(p[2])
    if kind == '#': cap[s] = cap.get(s, 0) + b
    elif kind == '+': arr[s] = arr.get(s, 0) + b; qbytes += b
    elif kind == '-':
        dep[s] = dep.get(s, 0) + b; qd.setdefault(s, []).append(float(p[3])); qbytes -= b
    elif kind == 'd': drop[s] = drop.get(s, 0) + b; qbytes -= b
    qmax[s] = max(qmax.get(s, 0), qbytes)
end = max(cap) if cap else 0
# telemetry: origin-clock t_us; align by the origin.started wall time (the controller clock's zero is close to it)
tele = {}
tf = glob.glob(os.path.join(run, 'telemetry', '*.jsonl'))
origin0 = None
for line in (open(os.path.join(run, 'origin.log')) if os.path.exists(os.path.join(run, 'origin.log')) else []):
    try: o = json.loads(line)
    except Exception: continue
    if o.get('event') == 'origin.started':
        origin0 = datetime.datetime.fromisoformat(o['time'].replace('Z', '+00:00')).timestamp() * 1000
off_s = align(run, verbose=False) if tf else 0.0
states = {}; reqs = {}; last_upd = 0
for f in tf:
    for line in open(f):
        o = json.loads(line)
        ls = int(o['t_ms'] / 1000 + off_s)
        tele.setdefault(ls, []).append(o['rate_bps'])
        states.setdefault(ls, set()).add(o['state'][:5])
        u = o.get('cmcd_updates', 0)
        if u != last_upd and o.get('cmcd_ot') == 'v':
            reqs.setdefault(ls, []).append((o.get('cmcd_br_kbps'), o.get('cmcd_bl_ms'), o.get('cmcd_mtp_kbps')))
        last_upd = u
        if 'cmcd_bl_ms' in o and o.get('cmcd_ot') == 'v':
            pass
ser = json.load(open(os.path.join(run, 'series.json')))
best = None
for k in range(0, 120):
    o = k / 10; err = 0
    for d in ser:
        c = cap.get(int(d['t_s'] + o), 0) * 8 / 1e6
        err += abs(c - d.get('capacity_mbps', 0))
    if best is None or err < best[0]: best = (err, o)
ser_off = best[1]
player = {}
for d in ser: player.setdefault(int(d['t_s'] + ser_off), d)
pf = lambda d: '%6.2f %5.1f %5.2f' % (d['buffer_s'], d['bitrate_mbps'], d['goodput_mbps']) if d else '                  '
print(f'# {run}\n# align: telemetry link-second = t_ms/1000 + {off_s:.2f} (cumulative bytes); player series link-second = t_s + {ser_off:.1f} (its capacity column)')
print('  s   cap  arr  deliv  drop  qmaxKB  p95q   ctl  state       | pl_buf pl_br pl_gp | video requests (br kbps @ buffer s ~ CMCD mtp Mbit/s)')
for s in range(0, end + 1):
    q = sorted(qd.get(s, []))
    p95 = q[int(0.95 * (len(q) - 1))] if q else 0
    r = tele.get(s)
    ctl = f'{sum(r)/len(r)/1e6:5.2f}' if r else '    -'
    rq = ' '.join(f'{br}@{(bl or 0)/1000:.1f}~{(mtp or 0)/1000:.1f}' for br, bl, mtp in reqs.get(s, []))
    print(f'{s:3d} {cap.get(s,0)*8/1e6:5.2f} {arr.get(s,0)*8/1e6:5.2f} {dep.get(s,0)*8/1e6:5.2f} {drop.get(s,0)*8/1e6:5.2f} {qmax.get(s,0)/1000:6.0f} {p95:5.0f} {ctl} {",".join(sorted(states.get(s,[]))):11s} | {pf(player.get(s))} | {rq}')
