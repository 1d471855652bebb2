#!/usr/bin/env python3
"""Extracts, for each `+prefetch` datagram run of the given bench output directories, the origin's last MI telemetry
line's early-request counters (prefetch_requests, prefetch_cancelled, prefetch_cancelled_bytes_sent: body bytes sent
for early requests the player cancelled, retransmissions included) and the session's sent_bytes, as one JSON line per
run (origin-counts.jsonl here). Cancellations after the session's last MI line are not in it.
`prefetch_runs` is also prefetch-waste/cancel_times.py's run walk.
Usage: origin_counts.py OUT_DIR... > origin-counts.jsonl"""
import glob, json, os, sys


def prefetch_runs(out):
    """Each `+prefetch` result line of a bench output directory, with its first telemetry file (None: kernel TCP)."""
    for line in open(os.path.join(out, 'results.jsonl')):
        r = json.loads(line)
        if not r['scheme'].endswith('+prefetch'):
            continue
        tel = sorted(glob.glob(os.path.join(out, 'runs', r['scenario'], r['scheme'], str(r['repetition']), 'telemetry', '*.jsonl')))
        yield r, (tel[0] if tel else None)


def main():
    keys = ('prefetch_requests', 'prefetch_cancelled', 'prefetch_cancelled_bytes_sent', 'sent_bytes')
    for out in sys.argv[1:]:
        for r, tel in prefetch_runs(out):
            last = {}
            for l in (open(tel) if tel else []):
                o = json.loads(l)
                if 'prefetch_requests' in o:
                    last = o
            print(json.dumps({'run_id': r['run_id'], 'commit': r['provenance']['commit'][:7], **({k: last[k] for k in keys} if last else {})}))


if __name__ == '__main__':
    main()
