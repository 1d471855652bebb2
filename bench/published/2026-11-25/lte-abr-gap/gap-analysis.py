#!/usr/bin/env python3
"""Issue 18, lte ABR gap: per run, from the per-segment ABR records (abr-segments/<...>/<scenario>/<scheme>/<rep>.jsonl;
player/src/metrics/abr-segment-log.ts) and the run's results line: the renditions dash.js chose, its raw sample
(8·bytes/traced time), the path's rate for the same segment (union of transfers' first byte to end, as
prefetch-tcp-abr/abr-analysis.py), the origin's CMSD etp, the stored (blended) sample, dash.js's estimate, the buffer,
and the switches by rule. Medians over a run's non-abandoned video segments with a sample.
SEGDIR is a published abr-segments/<hold> copy or a bench output's runs/ directory.
Usage: python3 gap-analysis.py RESULTS.jsonl:SEGDIR [RESULTS.jsonl:SEGDIR ...]
  (each records directory with the results file of its runs; one JSON line per run on stdout, a per-scheme table on
  stderr)"""
import collections
import glob
import json
import os
import statistics
import sys

# dash.js 5 (AbrController._onSegmentDownloadShouldBeAbandoned, streaming.abandonLoadTimeout): after an abandon, no
# rule may switch video up for this long; the player leaves the setting at dash.js's default.
ABANDON_LOCK_MS = 10_000

def union_ms(parts, cut):
    iv = sorted((p['firstByteMs'], p['endMs'] if p.get('endMs') is not None else cut)
                for p in parts if p and p.get('firstByteMs') is not None and p['bytes'] > 0)
    total, cur = 0, None
    for a, b in iv:
        if b is None or b <= a:
            continue
        if cur is None or a > cur[1]:
            total += (cur[1] - cur[0]) if cur else 0
            cur = [a, b]
        else:
            cur[1] = max(cur[1], b)
    return total + ((cur[1] - cur[0]) if cur else 0)


def med(xs):
    xs = [x for x in xs if x is not None]
    return round(statistics.median(xs), 3) if xs else None


def rule_of(msg):
    msg = msg or ''
    return msg[1:msg.index(']')] if msg.startswith('[') and ']' in msg else (msg[:30] or 'none')


def main():
    per_scheme = collections.defaultdict(list)
    for arg in sys.argv[1:]:
        results_path, segdir = arg.split(':', 1)
        results = {}
        for line in open(results_path):
            if line.strip():
                r = json.loads(line)
                results[r['run_id']] = r
        for f in sorted(glob.glob(os.path.join(segdir, '**', '*.jsonl'), recursive=True)):
            if os.path.basename(f) == 'abr-segments-player-1.jsonl':  # a bench output's runs/SCENARIO/SCHEME/REP/
                scenario, scheme, rep = os.path.dirname(f).split(os.sep)[-3:]
            elif os.sep + 'abr-segments' + os.sep in f:  # a published copy: abr-segments/<hold>/SCENARIO/SCHEME/REP.jsonl
                scenario, scheme, rep = f[:-len('.jsonl')].split(os.sep)[-3:]
            else:
                continue
            rid = f'{scenario}/{scheme}/{rep}'
            if rid not in results:
                continue
            recs = [json.loads(l) for l in open(f) if l.strip()]
            segs = [s for s in recs if s['kind'] == 'segment' and s.get('renditionKbps')]
            ok = [s for s in segs if not s['abandoned'] and s.get('sampleRawKbps')]
            rows = []
            for s in ok:
                u = union_ms([s['prefix'], s['transfer']], s.get('dashEndMs'))
                path = 8 * s['traceBytes'] / u if u > 0 else None
                rows.append(dict(r=s['renditionKbps'], raw=s['sampleRawKbps'], path=path, etp=s.get('etpKbps'),
                                 sample=s.get('sampleKbps'), est=s.get('estimateKbps'), buf=s.get('bufferS')))
            # Gap between one video request's end and the next video request (dash.js's wait: buffer at target).
            reqs = sorted((s['dashRequestMs'], s['dashEndMs']) for s in segs if s.get('dashRequestMs') is not None and s.get('dashEndMs') is not None)
            waits = [b[0] - a[1] for a, b in zip(reqs, reqs[1:])]
            span_ms = (reqs[-1][1] - reqs[0][0]) if reqs else None
            busy_ms = sum(e - s for s, e in reqs)
            sw = collections.Counter()
            for x in recs:
                if x['kind'] == 'switch':
                    reason = x.get('reason') or {}
                    d = 'up' if (x['toKbps'] or 0) > (x['fromKbps'] or 0) else 'down'
                    sw[f"{rule_of(reason.get('message') if isinstance(reason, dict) else '')}:{d}"] += 1
            # Segments dash.js asked for while an abandon's lock held (no switch up allowed), and the time that lock
            # covered of the run's video requests.
            abandons = sorted(x['atMs'] for x in recs if x['kind'] == 'switch' and 'AbandonRequest' in str(x.get('reason')))
            def locked(t):
                return any(a <= t < a + ABANDON_LOCK_MS for a in abandons)
            end_ms = reqs[-1][1] if reqs else 0
            lock_ms, upto = 0, -1
            for a in abandons:
                lo, hi = max(a, upto), min(a + ABANDON_LOCK_MS, end_ms)
                lock_ms += max(0, hi - lo)
                upto = max(upto, a + ABANDON_LOCK_MS)
            in_lock = [s for s in segs if s.get('dashRequestMs') is not None and locked(s['dashRequestMs'])]
            out_lock = [s for s in segs if s.get('dashRequestMs') is not None and not locked(s['dashRequestMs'])]
            # What dash.js's estimate would have allowed: the previous segment's estimate over the rendition asked.
            est_ratio_in, est_ratio_out = [], []
            for prev, cur in zip(segs, segs[1:]):
                if prev.get('estimateKbps') and cur.get('dashRequestMs') is not None:
                    (est_ratio_in if locked(cur['dashRequestMs']) else est_ratio_out).append(prev['estimateKbps'] / cur['renditionKbps'])
            res = results[rid]
            p = (res.get('players') or [{}])[0]
            row = dict(
                run=rid, seg_dir=segdir, avg_bitrate_mbps=res.get('avg_bitrate_mbps'), goodput_mbps=res.get('goodput_mbps'),
                capacity_mbps=res.get('capacity_mbps'), buffering_ratio=res.get('buffering_ratio'),
                queue_delay_p95_ms=res.get('queue_delay_p95_ms'), segments=len(segs), abandoned=sum(s['abandoned'] for s in segs),
                rendition_kbps_mean=round(statistics.mean(s['renditionKbps'] for s in segs)) if segs else None,
                raw_kbps_med=med([x['raw'] for x in rows]), path_kbps_med=med([x['path'] for x in rows]),
                raw_over_path_med=med([x['raw'] / x['path'] for x in rows if x['path']]),
                etp_kbps_med=med([x['etp'] for x in rows]),
                etp_over_path_med=med([x['etp'] / x['path'] for x in rows if x['path'] and x['etp']]),
                sample_over_raw_med=med([x['sample'] / x['raw'] for x in rows if x['sample']]),
                est_kbps_med=med([x['est'] for x in rows]),
                est_over_path_med=med([x['est'] / x['path'] for x in rows if x['path'] and x['est']]),
                rendition_over_est_med=med([x['r'] / x['est'] for x in rows if x['est']]),
                buffer_s_med=med([x['buf'] for x in rows]),
                wait_ms_med=med(waits), video_busy_frac=round(busy_ms / span_ms, 3) if span_ms else None,
                abandon_s=[round(a / 1000, 2) for a in abandons],
                lock_s=round(lock_ms / 1000, 2), span_s=round(end_ms / 1000, 2),
                segs_in_lock=len(in_lock), segs_out_lock=len(out_lock),
                rendition_kbps_in_lock=round(statistics.mean(s['renditionKbps'] for s in in_lock)) if in_lock else None,
                rendition_kbps_out_lock=round(statistics.mean(s['renditionKbps'] for s in out_lock)) if out_lock else None,
                est_over_rendition_in_lock=med(est_ratio_in), est_over_rendition_out_lock=med(est_ratio_out),
                switches=dict(sw))
            print(json.dumps(row))
            per_scheme[(segdir, scheme)].append(row)
    keys = ['avg_bitrate_mbps', 'goodput_mbps', 'rendition_kbps_mean', 'path_kbps_med', 'raw_kbps_med', 'raw_over_path_med',
            'etp_kbps_med', 'etp_over_path_med', 'sample_over_raw_med', 'est_kbps_med', 'est_over_path_med', 'buffer_s_med', 'wait_ms_med',
            'video_busy_frac', 'abandoned', 'lock_s', 'segs_in_lock', 'rendition_kbps_in_lock', 'rendition_kbps_out_lock',
            'est_over_rendition_in_lock', 'est_over_rendition_out_lock', 'queue_delay_p95_ms']
    print('| records | scheme | n | ' + ' | '.join(keys) + ' |', file=sys.stderr)
    print('|' + '---|' * (len(keys) + 3), file=sys.stderr)
    for (segdir, scheme), rows in sorted(per_scheme.items()):
        vals = []
        for k in keys:
            xs = [r[k] for r in rows if r[k] is not None]
            vals.append(f'{statistics.mean(xs):.3g}' if xs else '-')
        print(f'| {segdir} | {scheme} | {len(rows)} | ' + ' | '.join(vals) + ' |', file=sys.stderr)


main()
