#!/usr/bin/env python3
"""Per run, from the per-segment ABR records (abr-segments/<hold>/<scenario>/<scheme>/<rep>.jsonl, the bench's
runs/.../abr-segments-player-1.jsonl; player/src/metrics/abr-segment-log.ts): each video segment's traced download time
as dash.js counted it (its trace less the first entry, ThroughputModel) against the time the path was carrying the
segment (the union of its transfers' first-byte-to-end intervals; an abandoned one up to dash.js's abandon), and the
rate each gives. A segment is 'inflated' when dash.js's time exceeds the path's by more than 25 % + 20 ms.
Usage: python3 abr-analysis.py RESULTS.jsonl SEGDIR [SEGDIR ...]   (one JSON line per run on stdout)"""
import glob
import json
import os
import sys


def union_ms(parts, cut):
    iv = []
    for p in parts:
        if not p or p.get('firstByteMs') is None or p['bytes'] <= 0:
            continue
        end = p['endMs'] if p.get('endMs') is not None else cut
        if end is not None and end > p['firstByteMs']:
            iv.append((p['firstByteMs'], end))
    iv.sort()
    total, cur = 0, None
    for a, b in iv:
        if cur is None or a > cur[1]:
            if cur:
                total += cur[1] - cur[0]
            cur = [a, b]
        else:
            cur[1] = max(cur[1], b)
    if cur:
        total += cur[1] - cur[0]
    return total


def main():
    results = {}
    for line in open(sys.argv[1]):
        if line.strip():
            r = json.loads(line)
            results[r['run_id']] = r
    for segdir in sys.argv[2:]:
        for f in sorted(glob.glob(os.path.join(segdir, '*', '*', '*.jsonl'))):
            scenario, scheme, rep = f[:-len('.jsonl')].split(os.sep)[-3:]
            rid = f'{scenario}/{scheme}/{rep}'
            recs = [json.loads(l) for l in open(f) if l.strip()]
            switches = [s for s in recs if s['kind'] == 'switch']
            rows = []
            for s in recs:
                if s['kind'] != 'segment' or not s.get('traceMs'):
                    continue
                u = union_ms([s['prefix'], s['transfer']], s.get('dashEndMs'))
                rows.append(dict(seg=s['path'].split('/')[-1], kbps=s['renditionKbps'], prefetch=bool(s['fromPrefetch']),
                                 abandoned=s['abandoned'], trace_ms=round(s['traceMs']), path_ms=round(u),
                                 trace_kbps=round(8 * s['traceBytes'] / s['traceMs']),
                                 path_kbps=round(8 * s['traceBytes'] / u) if u > 0 else None))
            inflated = [x for x in rows if x['path_ms'] > 0 and x['trace_ms'] > 1.25 * x['path_ms'] + 20]
            r = results.get(rid, {})
            print(json.dumps(dict(
                hold=os.path.basename(os.path.normpath(segdir)), run=rid, avg_bitrate_mbps=r.get('avg_bitrate_mbps'),
                video_segments=len(rows), from_prefetch=sum(x['prefetch'] for x in rows),
                at_or_below_800k=sum(1 for x in rows if x['kbps'] and x['kbps'] <= 800), inflated=len(inflated),
                inflated_segments=[[x['seg'], x['trace_ms'], x['path_ms'], x['trace_kbps'], x['path_kbps'], x['abandoned']] for x in inflated],
                abandons=[[x['seg'], x['prefetch'], x['trace_ms'], x['path_ms'], x['trace_kbps'], x['path_kbps']] for x in rows if x['abandoned']],
                switches=[[round(x['atMs'] / 1000, 2), x['fromKbps'], x['toKbps'], ((x['reason'] or {}).get('message') or '')[:40]] for x in switches])))


main()
