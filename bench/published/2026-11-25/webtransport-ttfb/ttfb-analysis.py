#!/usr/bin/env python3
"""Per run, from the per-segment ABR records (player/src/metrics/abr-segment-log.ts; the bench's
runs/.../abr-segments-player-1.jsonl): for each video segment dash.js asked for and got from its own request (not from
an early one), the time dash.js took as the request's latency (its request to its first progress event, the head),
the transfer's time to its first body byte (the fetcher's record), and dash.js's traced download time against the
path's (first body byte to last). Over WebTransport the head used to be the RESPONSE frame, ahead of the first byte.
Usage: python3 ttfb-analysis.py SEGDIR [SEGDIR ...]   (one JSON line per run on stdout; SEGDIR/<scenario>/<scheme>/<rep>.jsonl)"""
import glob
import json
import os
import statistics
import sys


def main():
    for segdir in sys.argv[1:]:
        for f in sorted(glob.glob(os.path.join(segdir, '*', '*', '*.jsonl'))):
            scenario, scheme, rep = f[:-len('.jsonl')].split(os.sep)[-3:]
            rows = []
            for line in open(f):
                s = json.loads(line) if line.strip() else None
                if not s or s['kind'] != 'segment' or s['fromPrefetch'] or s['abandoned'] or not s.get('traceMs'):
                    continue
                t = s['transfer']
                if not t or t.get('firstByteMs') is None or t.get('endMs') is None or s.get('dashFirstByteMs') is None:
                    continue
                dash_latency = s['dashFirstByteMs'] - s['dashRequestMs']
                first_byte = t['firstByteMs'] - t['startMs']
                path_ms = t['endMs'] - t['firstByteMs']
                rows.append(dict(seg=s['path'].split('/')[-1], head_to_first_byte_ms=round(first_byte - dash_latency),
                                 trace_ms=round(s['traceMs']), path_ms=round(path_ms),
                                 trace_kbps=round(8 * s['traceBytes'] / s['traceMs']),
                                 path_kbps=round(8 * s['traceBytes'] / path_ms) if path_ms > 0 else None))
            gaps = [r['head_to_first_byte_ms'] for r in rows]
            excess = [r['trace_ms'] - r['path_ms'] for r in rows]
            stretched = [r for r in rows if r['trace_ms'] > 1.25 * r['path_ms'] + 20]
            print(json.dumps(dict(
                hold=os.path.basename(os.path.normpath(segdir)), run=f'{scenario}/{scheme}/{rep}', own_segments=len(rows),
                head_to_first_byte_median_ms=statistics.median(gaps) if gaps else None,
                head_to_first_byte_max_ms=max(gaps) if gaps else None,
                over_20ms=sum(1 for g in gaps if g > 20),
                trace_minus_path_median_ms=statistics.median(excess) if excess else None,
                stretched=len(stretched),
                stretched_segments=[[r['seg'], r['head_to_first_byte_ms'], r['trace_ms'], r['path_ms'], r['trace_kbps'], r['path_kbps']] for r in stretched])))


main()
