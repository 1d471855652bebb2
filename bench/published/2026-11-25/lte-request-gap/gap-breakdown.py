# Per-request breakdown of the back-to-back video request gaps of bench runs traced with the instrumented build.
# usage: python3 gap-breakdown.py UPLINK_TRACE RUN_DIR...  (one table per run and a SUMMARY json line per run)
import json, sys, bisect, os
UP_SILENT = []  # filled from the trace
def load_trace(f):
    return [int(l) for l in open(f) if l.strip()]
def silent_windows(ts, min_ms=300):
    out = []; prev = 0
    for t in ts:
        if t - prev >= min_ms: out.append((prev, t))
        prev = t
    return out
def tagged(f, tag):
    out = []
    for l in open(f):
        i = l.find(tag + ' ')
        if i >= 0: out.append(json.loads(l[i + len(tag) + 1:]))
    return out
def linklog(f):
    init = None; dep = []
    for l in open(f):
        if l.startswith('# init timestamp:'): init = int(l.split(':')[1]); continue
        if l.startswith('#'): continue
        p = l.split()
        if len(p) >= 4 and p[1] == '-': dep.append((int(p[0]), int(p[2]), int(p[3])))
    return init, dep
def pct(xs, q):
    xs = sorted(xs)
    if not xs: return None
    i = min(len(xs) - 1, max(0, int(round(q * (len(xs) - 1)))))
    return xs[i]
def analyse(d, up_silent, down_silent=(), one_way_ms=20):
    gaps = tagged(d + '/player-1-console.log', 'GAPTRACE')
    reqs = tagged(d + '/player-1-console.log', 'REQTRACE')
    orig = {}
    if os.path.exists(d + '/origin.log'):
        for l in open(d + '/origin.log'):
            if '"reqtrace.' in l:
                o = json.loads(l); orig.setdefault(o['request'], {}).update(o)
    init, dep_up = linklog(d + '/link-up.log')
    # uplink packets of at least 250 B: requests (a REQUEST frame or an HTTP GET with its CMCD query); ACKs are smaller
    big = sorted(((td - q, td) for td, s, q in dep_up if s >= 250))
    big_arr = [a for a, _ in big]
    rows = []
    for g in gaps:
        if not g['backToBack'] or g['prevEnd'] is None or g['first'] is None: continue
        r = next((x for x in reqs if x['path'] == g['path'] and abs(x['tFetch'] - g['req']) < 50), None)
        o = orig.get(r['id'], {}) if r else {}
        row = {'path': g['path'].rsplit('/', 1)[-1], 'gap': g['first'] - g['prevEnd'], 'dash_wait': g['req'] - g['prevEnd']}
        sent_ms = r['tWritten'] if r and 'tWritten' in r else g['req']
        i = bisect.bisect_left(big_arr, sent_ms - init - 1)
        if i < len(big):
            row['uplink_queue'] = big[i][1] - big[i][0]
            row['uplink_out_link_s'] = big[i][1] / 1000
        req_link_ms = g['req'] - init
        row['req_link_s'] = req_link_ms / 1000
        row['in_uplink_silence'] = any(a <= req_link_ms < b for a, b in up_silent)
        first_link_ms = g['first'] - init
        # the downlink carried nothing for a while between the request and its first byte
        row['met_downlink_silence'] = any(min(b, first_link_ms) - max(a, req_link_ms) > 0 for a, b in down_silent)
        if r:
            row['loader'] = r.get('tWritten', r['tFetch']) - g['req']
            if 'parsed' in o:
                row['uplink'] = o['parsed'] - r['tWritten']
                row['origin'] = o['first_sent'] - o['parsed'] if 'first_sent' in o else None
                row['downlink'] = r['tDg'] - o['first_sent'] if 'first_sent' in o and 'tDg' in r else None
            if 'tDg' in r and 'tProg' in r:
                row['report'] = r['tProg'] - max(r['tDg'], r.get('tResp', r['tDg']))
                row['to_page'] = g['first'] - r['tProg']
        else:
            row['request_to_first_byte'] = g['first'] - g['req']
        rows.append(row)
    return rows
def silence_roles(d, up_silent, min_ms=800):
    """For each uplink silence of at least min_ms inside the run: what the player's video requests were doing then."""
    gaps = tagged(d + '/player-1-console.log', 'GAPTRACE')
    init, _ = linklog(d + '/link-up.log')
    out = []
    spans = []
    for g in gaps:
        if g['first'] is None: continue
        spans.append(('download', g['first'] - init, (g['end'] or g['first']) - init, g))
        if g['prevEnd'] is not None:
            spans.append(('b2b-gap' if g['backToBack'] else 'dash-wait+gap', g['prevEnd'] - init, g['first'] - init, g))
    last = max((s[2] for s in spans), default=0)
    for a, b in up_silent:
        if b - a < min_ms or a > last: continue
        roles = {}
        for kind, s, e, g in spans:
            ov = min(b, e) - max(a, s)
            if ov > 0: roles[kind] = roles.get(kind, 0) + ov
        out.append({'silence_s': [a / 1000, b / 1000], 'overlap_ms': roles})
    return out

def switch_gaps(d):
    """Gaps of rendition switches that the back-to-back rule before c27dc75 left out: over WebTransport, an init
    segment asked within 50 ms of the last video byte and the media request within 50 ms of its end (the worker's
    trace); over TCP (no worker trace), an estimate: the rendition changed and dash.js asked within 300 ms."""
    import re
    gs = tagged(d + '/player-1-console.log', 'GAPTRACE'); rq = tagged(d + '/player-1-console.log', 'REQTRACE')
    out = []; prev = None
    for g in gs:
        rend = re.search(r'seg-(\d+)-', g['path']).group(1)
        if g['prevEnd'] is not None and g['first'] is not None and not g['backToBack']:
            if rq:
                inits = [x for x in rq if 'init-' in x['path'] and g['prevEnd'] - 5 <= x['tFetch'] <= g['req']]
                if inits and inits[0]['tFetch'] - g['prevEnd'] <= 50 and g['req'] - inits[-1]['tEnd'] <= 50:
                    out.append(g['first'] - g['prevEnd'])
            elif prev is not None and rend != prev and g['req'] - g['prevEnd'] < 300:
                out.append(g['first'] - g['prevEnd'])
        prev = rend
    return out

if __name__ == '__main__':
    trace = sys.argv[1]; dirs = sys.argv[2:]
    up_silent = silent_windows(load_trace(trace))
    for d in dirs:
        rows = analyse(d, up_silent)
        print('##', d)
        keys = ['gap', 'dash_wait', 'loader', 'uplink', 'origin', 'downlink', 'report', 'to_page', 'request_to_first_byte', 'uplink_queue']
        print('%-16s %6s ' % ('segment', 'req@s') + ' '.join('%8s' % k[:8] for k in keys) + '  silence')
        for r in rows:
            print('%-16s %6.2f ' % (r['path'], r['req_link_s']) + ' '.join('%8s' % ('-' if r.get(k) is None else '%.0f' % r[k]) for k in keys) + ('  UPLINK-SILENT' if r['in_uplink_silence'] else ''))
        summ = {'run': d, 'n': len(rows), 'gap_p50': pct([r['gap'] for r in rows], .5), 'gap_p95': pct([r['gap'] for r in rows], .95), 'gap_max': max([r['gap'] for r in rows], default=None),
                'n_in_uplink_silence': sum(r['in_uplink_silence'] for r in rows)}
        for k in keys[1:]:
            v = [r[k] for r in rows if r.get(k) is not None]
            if v: summ[k + '_p50'] = pct(v, .5); summ[k + '_p95'] = pct(v, .95)
        print('SUMMARY ' + json.dumps(summ))
