#!/usr/bin/env python3
"""Why dash.js's throughput samples over WebTransport read below what the link delivered (issue 18), per video segment,
from raw bench run directories (runs/SCENARIO/SCHEME/N with link-down.log, abr-segments-player-1.jsonl, origin.log and,
for datagram schemes, telemetry/*.jsonl).

Clocks. The page's session clock (the ABR log's ms) is put on the link's (link-down.log ms since its init timestamp)
by the offset that puts the most delivered link bytes inside the video transfers' first-byte-to-end intervals (a 1-ms
grid over -2..+8 s; the peak is sharp to a few ms because of the idle gaps between downloads). The origin's telemetry
(t_ms since its session's start) and origin.log go on the link clock through wall time: linkem and the origin run on
one machine, so link ms = wall ms - the log's init timestamp, and telemetry t = 0 at the origin's session.open.

Per segment (its window = the transfer's first byte to its end, or to dash.js's abandonment):
  link     wire bytes the link delivered in the window (every packet: this body, its retransmissions, audio, other
           requests), the bytes it dropped (droptail), its capacity (delivery opportunities) and p95 queueing delay;
  dash     traced bytes (what dash.js's progress saw: the loader reports in-order bytes only) over the same window;
  ratio    dash rate / link rate. With no loss it is the body's share of the wire (payload / packet bytes,
           WT 1411/1476 = 0.956, TCP 1448/1504 = 0.963) less audio's ~1 %;
  equiv    the time the link took to deliver the body's bytes at wire size (traced bytes x 1476/1411 or 1504/1448,
           counting every delivered packet from the first byte on): what the segment would have taken had every
           delivered packet been a new in-order body byte. dash.js's time - equiv is the extra, split into
  silent   the link's unused delivery opportunities in gaps > 20 ms between deliveries after equiv, as ms at the
           window's capacity: the tail waiting for a lost datagram's resend with nothing else to deliver (loss
           detection by ACK of newer packets, or the probe timeout); a trace outage counts nothing;
  busy     the rest: retransmitted copies and other traffic the link carried instead.
For an abandoned download the extra is the lag: how long before the abandonment the link had delivered as many bytes
as dash.js had traced. A run whose completed downloads' median ratio lies outside 0.85-1.05 is taken as not aligned
and left out of the pooled table.
For abandoned downloads the origin logs the body bytes the client had acknowledged when the cancel arrived
(request.cancelled acked_bytes); less every body byte the link delivered between the abandonment and the cancel's
arrival, that is a lower bound on what the worker had received at the abandonment ("received"), and received - traced
the bytes it held out of order behind a hole (the loader reports in-order bytes only).
From telemetry in the window (datagram schemes): the controller's mean rate, the sender's loss share
(packets_lost x 1411 / sent_bytes, both deltas) and retransmitted share of sent bytes, and the mean smoothed RTT.

usage: python3 sample_gap.py [--json OUT.jsonl] LABEL=RUN_DIR ...   (markdown on stdout)"""
import argparse
import bisect
import datetime
import glob
import json
import os
import re
import statistics
import sys

WT_WIRE, WT_BODY = 1476, 1411     # link bytes and body bytes of a full DATA datagram (link-down.log sizes, PROTOCOL.md §3)
TCP_WIRE, TCP_BODY = 1504, 1448   # a full TCP segment with timestamps
SILENT_GAP_MS = 20


def wall_ms(iso):
    return datetime.datetime.fromisoformat(iso.replace('Z', '+00:00')).timestamp() * 1000


def read_link(run):
    init, dl_t, dl_cum, drops, cap, qd = None, [], [0], [], [], []
    for line in open(os.path.join(run, 'link-down.log')):
        if line.startswith('#'):
            m = re.match(r'# init timestamp: (\d+)', line)
            if m:
                init = int(m.group(1))
            continue
        p = line.split()
        if len(p) < 3:
            continue
        t = int(p[0])
        if p[1] == '-':
            dl_t.append(t)
            dl_cum.append(dl_cum[-1] + int(p[2]))
            qd.append((t, float(p[3])))
        elif p[1] == 'd':
            drops.append((t, int(p[3])))
        elif p[1] == '#':
            cap.append(t)
    return {'init': init, 't': dl_t, 'cum': dl_cum, 'drops': drops, 'cap': cap, 'qd': qd}


def read_segments(run):
    """The video segment records with a first byte, ended (completed, or dash.js's abandonment time)."""
    with open(os.path.join(run, 'abr-segments-player-1.jsonl')) as fh:
        records = [json.loads(line) for line in fh]
    out = []
    for o in records:
        tr = o.get('transfer') or {}
        end = tr.get('endMs') if tr.get('endMs') is not None else o.get('dashEndMs')
        if o.get('kind') == 'segment' and tr.get('firstByteMs') is not None and end is not None:
            out.append({'index': o['index'], 'kbps': o['renditionKbps'], 'fb': tr['firstByteMs'], 'end': end,
                        'abandoned': o['abandoned'], 'trace_bytes': o['traceBytes'] or 0, 'trace_ms': o['traceMs'],
                        'bytes': tr['bytes'], 'sample': o.get('sampleKbps'), 'sample_raw': o.get('sampleRawKbps'),
                        'etp': o.get('etpKbps'), 'buffer': o.get('bufferS'), 'prefetch': o.get('fromPrefetch')})
    return out


def page_offset(link, segs):
    t, cum = link['t'], link['cum']

    def inside(o):
        return sum(cum[bisect.bisect_right(t, s['end'] + o + 3)] - cum[bisect.bisect_left(t, s['fb'] + o - 3)] for s in segs)
    best = max(range(-2000, 8000), key=inside)
    return best, inside(best) / cum[-1]


def read_origin(run, init):
    opened, cancels = None, []
    for line in open(os.path.join(run, 'origin.log')):
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if o.get('event') == 'session.open' and opened is None:
            opened = wall_ms(o['time']) - init
        if o.get('event') == 'request.cancelled':
            cancels.append((wall_ms(o['time']) - init, o.get('acked_bytes')))
    return opened, cancels


def read_telemetry(run, opened):
    files = glob.glob(os.path.join(run, 'telemetry', '*.jsonl'))
    if not files or opened is None:
        return []
    rows = []
    for line in open(files[0]):
        o = json.loads(line)
        if 'sent_bytes' not in o or 'rate_bps' not in o:
            return []
        rows.append({'t': o['t_ms'] + opened, 'rate': o['rate_bps'], 'sent': o['sent_bytes'],
                     'rtx': o.get('retransmitted_bytes', 0), 'lost': o.get('packets_lost', 0), 'srtt': o.get('srtt_us', 0)})
    return rows


def at(rows, t):
    """The last telemetry row at or before t (cumulative counters), or the first."""
    best = rows[0]
    for r in rows:
        if r['t'] > t:
            break
        best = r
    return best


def analyse(run):
    link = read_link(run)
    segs = read_segments(run)
    off, share = page_offset(link, segs)
    opened, cancels = read_origin(run, link['init'])
    tel = read_telemetry(run, opened)
    datagram = bool(tel) or 'vivace' in run
    wire, body = (WT_WIRE, WT_BODY) if datagram else (TCP_WIRE, TCP_BODY)
    t, cum = link['t'], link['cum']
    out = []
    for s in segs:
        a, b = s['fb'] + off, s['end'] + off
        ms = b - a
        if ms <= 0:
            continue
        i0, i1 = bisect.bisect_left(t, a), bisect.bisect_right(t, b)
        delivered = cum[i1] - cum[i0]
        dropped = sum(x for tt, x in link['drops'] if a <= tt <= b)
        capacity = (bisect.bisect_right(link['cap'], b) - bisect.bisect_left(link['cap'], a)) * 1504
        q = sorted(d for tt, d in link['qd'][i0:i1])
        # the time the link took to deliver the traced bytes at wire size, counting every packet from the first byte
        need = s['trace_bytes'] * wire / body
        j = bisect.bisect_left(cum, cum[i0] + need)
        equiv = (t[j - 1] - a) if j - 1 < len(t) and j <= i1 else None
        silent = 0.0
        if equiv is not None:
            # the link's unused delivery opportunities in gaps > SILENT_GAP_MS, as ms at the window's mean capacity
            # (a gap with no opportunities is the trace's outage, not the sender waiting)
            per_opp_ms = ms / max(1, capacity / 1504)
            prev = a + equiv
            for k in list(range(j - 1, i1)) + [None]:
                nxt = b if k is None else t[k]
                if nxt - prev > SILENT_GAP_MS:
                    opps = bisect.bisect_left(link['cap'], nxt) - bisect.bisect_right(link['cap'], prev)
                    silent += min(nxt - prev, opps * per_opp_ms)
                prev = nxt
        row = {'index': s['index'], 'kbps': s['kbps'], 'link_s': a / 1000, 'ms': ms, 'abandoned': s['abandoned'],
               'buffer': s['buffer'], 'prefetch': s['prefetch'],
               'link_mbps': 8 * delivered / ms / 1000, 'cap_mbps': 8 * capacity / ms / 1000,
               'drop_share': dropped / (delivered + dropped) if delivered + dropped else 0.0,
               'p95q': q[int(0.95 * (len(q) - 1))] if q else None,
               'dash_mbps': 8 * s['trace_bytes'] / ms / 1000, 'sample_mbps': (s['sample'] or 0) / 1000,
               'sample_raw_mbps': (s['sample_raw'] or 0) / 1000, 'etp_mbps': (s['etp'] or 0) / 1000,
               'equiv_ms': equiv, 'extra_ms': None if equiv is None else ms - equiv, 'silent_ms': silent if equiv is not None else None,
               'received': None}
        row['ratio'] = row['dash_mbps'] / row['link_mbps'] if row['link_mbps'] > 0 else None
        if s['abandoned']:
            near = [c for c in cancels if b - 50 <= c[0] <= b + 1000]
            if near:
                # acked_bytes counts what the worker had acknowledged when the cancel reached the origin, after the
                # abandonment; less every body byte the link delivered between the two, it bounds from below what the
                # worker held at the abandonment
                later = cum[bisect.bisect_right(t, near[0][0])] - cum[i1]
                row['received'] = max(s['trace_bytes'], near[0][1] - later * body / wire)
                row['held'] = row['received'] - s['trace_bytes']
                row['acked_at_cancel'] = near[0][1]
                row['cancel_after_ms'] = near[0][0] - b
        if tel:
            r0, r1 = at(tel, a), at(tel, b)
            sent = r1['sent'] - r0['sent']
            inwin = [r for r in tel if a <= r['t'] <= b] or [r1]
            row['ctl_mbps'] = statistics.mean(r['rate'] for r in inwin) / 1e6
            row['loss_share'] = (r1['lost'] - r0['lost']) * WT_BODY / sent if sent > 0 else 0.0
            row['rtx_share'] = (r1['rtx'] - r0['rtx']) / sent if sent > 0 else 0.0
            row['srtt_ms'] = statistics.mean(r['srtt'] for r in inwin) / 1000
        out.append(row)
    return {'run': run, 'offset_ms': off, 'in_transfers': share, 'datagram': datagram, 'segments': out}


def f(x, d=2):
    return '–' if x is None else f'{x:.{d}f}'


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--json', help='also write every segment row here (JSON lines)')
    ap.add_argument('runs', nargs='+', metavar='LABEL=RUN_DIR')
    args = ap.parse_args(argv)
    res = {label: analyse(run) for label, run in (a.split('=', 1) for a in args.runs)}
    if args.json:
        with open(args.json, 'w') as fh:
            for label, r in res.items():
                for s in r['segments']:
                    fh.write(json.dumps({'run': label, **s}) + '\n')
    print('## Abandoned downloads: what the client had received vs what dash.js saw\n')
    print('dash.js 5.2.1\'s AbandonRequestsRule (the `abandon=dashjs` rule of these runs) fires below 1.8 segment durations of '
          'projected download, i.e. a rate < rendition / 1.8 (4.44 Mbit/s for 8000 kbit/s); "lag ms" is how long before '
          'the abandonment the link had delivered as many bytes as dash.js had traced.\n')
    print('| run | index | rendition | link s | ms | link delivered Mbit/s | capacity | drop share | p95 queue ms | controller Mbit/s '
          '| sender loss share | srtt ms | dash.js traced Mbit/s | traced kB | received kB (≥) | acked at cancel kB (≤), ms after '
          '| held out of order kB (≥) | received Mbit/s (≥) | lag ms | fires on received? |')
    print('| --- ' * 20 + '|')
    for label, r in res.items():
        for s in r['segments']:
            if not s['abandoned']:
                continue
            rec = s['received']
            acked = '–' if rec is None else f"{s['acked_at_cancel'] / 1000:.0f}, {s['cancel_after_ms']:.0f}"
            fires = None if rec is None else ('yes' if 8 * rec / s['ms'] / 1000 < s['kbps'] / 1800 else 'no')
            print(f"| {label} | {s['index']} | {s['kbps']} | {f(s['link_s'], 1)} | {s['ms']:.0f} | {f(s['link_mbps'], 1)} | {f(s['cap_mbps'], 1)} "
                  f"| {f(s['drop_share'])} | {f(s['p95q'], 0)} | {f(s.get('ctl_mbps'), 1)} | {f(s.get('loss_share'))} "
                  f"| {f(s.get('srtt_ms'), 0)} | {f(s['dash_mbps'], 1)} | {s['dash_mbps'] * s['ms'] / 8:.0f} | {f(rec and rec / 1000, 0)} "
                  f"| {acked} "
                  f"| {f(rec and s['held'] / 1000, 0)} | {f(rec and 8 * rec / s['ms'] / 1000, 1)} | {f(s['extra_ms'], 0)} | {fires or '–'} |")
    print('\n## Per run: completed downloads, dash.js rate / link rate over the same window, and where dash.js\'s extra time went\n')
    print('| run | offset ms (page→link) | link bytes in transfers | n | median ratio | ratio p10 | share with ratio < 0.8 | median extra ms | '
          'extra ms, segments with ratio < 0.8 (median) | silent share of that extra | segments with drop share ≥ 0.15 | their median ratio |')
    print('| --- ' * 12 + '|')
    groups = {}
    for label, r in res.items():
        ok = [s for s in r['segments'] if not s['abandoned'] and s['ratio'] is not None and s['ms'] >= 100]
        if not ok:
            continue
        ratios = sorted(s['ratio'] for s in ok)
        aligned = 0.85 <= statistics.median(ratios) <= 1.05
        trace = label.split('/')[0]
        if not aligned:  # a run whose clocks this offset did not line up (median dash/link off the payload share)
            print(f"| {label} | {r['offset_ms']} | {r['in_transfers']:.3f} | {len(ok)} | {statistics.median(ratios):.2f} "
                  '| not aligned: left out of the pooled table | | | | | | |')
            continue
        g = groups.setdefault((trace, 'WebTransport' if r['datagram'] else 'TCP'), {'ok': [], 'ab': [], 'runs': 0})
        g['ok'] += ok
        g['ab'] += [s for s in r['segments'] if s['abandoned']]
        g['runs'] += 1
        low = [s for s in ok if s['ratio'] < 0.8 and s['extra_ms'] is not None]
        ex = sum(s['extra_ms'] for s in low)
        si = sum(s['silent_ms'] for s in low)
        lossy = [s['ratio'] for s in ok if s['drop_share'] >= 0.15]
        print(f"| {label} | {r['offset_ms']} | {r['in_transfers']:.3f} | {len(ok)} | {statistics.median(ratios):.2f} | {ratios[len(ratios) // 10]:.2f} "
              f"| {sum(x < 0.8 for x in ratios) / len(ratios):.2f} | {statistics.median([s['extra_ms'] for s in ok if s['extra_ms'] is not None]):.0f} "
              f"| {f(statistics.median([s['extra_ms'] for s in low]) if low else None, 0)} | {f(si / ex if ex > 0 else None)} "
              f"| {len(lossy)} | {f(statistics.median(lossy) if lossy else None)} |")
    print('\n## Pooled by trace and transport: completed downloads, and abandonments\n')
    print('| trace | transport | runs | completed | median ratio | p10 | p90 | drop share ≥ 0.15: n, median ratio | median extra ms '
          '| abandoned | of them with ≥ 100 kB held out of order | of them the rule would not have fired on received bytes |')
    print('| --- ' * 12 + '|')
    pooled_samples = []
    for (trace, kind), g in groups.items():
        ratios = sorted(s['ratio'] for s in g['ok'])
        lossy = [s['ratio'] for s in g['ok'] if s['drop_share'] >= 0.15]
        held = [s for s in g['ab'] if s.get('held') is not None and s['held'] >= 100_000]
        saved = [s for s in held if 8 * s['received'] / s['ms'] / 1000 >= s['kbps'] / 1800]
        n = len(ratios)
        print(f"| {trace} | {kind} | {g['runs']} | {n} | {statistics.median(ratios):.3f} | {ratios[n // 10]:.2f} | {ratios[(9 * n) // 10]:.2f} "
              f"| {len(lossy)}, {f(statistics.median(lossy) if lossy else None, 3)} "
              f"| {statistics.median([s['extra_ms'] for s in g['ok'] if s['extra_ms'] is not None]):.0f} "
              f"| {len(g['ab'])} | {len(held) if kind == 'WebTransport' else '–'} | {len(saved) if kind == 'WebTransport' else '–'} |")
        with_sample = [s for s in g['ok'] if s['sample_raw_mbps'] > 0]

        def med(key, xs=with_sample):
            v = [s[key] / s['link_mbps'] for s in xs if s[key] > 0]
            return f'{statistics.median(v):.2f}' if v else '–'
        pooled_samples.append(f"| {trace} | {kind} | {len(with_sample)} | {med('dash_mbps')} | {med('sample_raw_mbps')} "
                              f"| {med('etp_mbps')} | {med('sample_mbps')} |")
    print('\nThe samples dash.js stored (completed downloads with one), each over the link\'s delivered rate in the '
          'download\'s window, medians: its raw 8·bytes/time, the CMSD etp it blended in, and the blend it stored.\n')
    print('| trace | transport | n | traced bytes / window | raw sample | etp | stored sample |')
    print('| --- ' * 7 + '|')
    print('\n'.join(pooled_samples))
    return res


if __name__ == '__main__':
    main(sys.argv[1:])
