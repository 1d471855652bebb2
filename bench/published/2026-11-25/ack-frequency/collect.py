# Builds results.jsonl from the bench output directories of the paired runs (one line per run): the bench's own
# results line, the link's summary, the fetch client's result, the origin's session.closed line and the hold log.
# usage: python3 collect.py HOLDS.jsonl OFF_DIR ON_DIR > results.jsonl
import json, sys
from pathlib import Path

SCENARIO = 'bulk-100mbps-30ms-75kb-0pct'
holds_path, dirs = sys.argv[1], {'off': Path(sys.argv[2]), 'on': Path(sys.argv[3])}
holds = [json.loads(line) for line in open(holds_path)]

def bench_row(out, scheme, rep):
    for line in open(out / 'results.jsonl'):
        r = json.loads(line)
        if r['scheme'] == scheme and r['repetition'] == rep:
            return r
    return None

def closed_line(run_dir):
    """The origin's session.closed line of the bulk fetch (the session that carried the bytes)."""
    best = None
    for line in open(run_dir / 'origin.log', errors='replace'):
        if '"session.closed"' not in line:
            continue
        try:
            rec = json.loads(line[line.index('{'):])
        except ValueError:
            continue
        if best is None or rec.get('sent_bytes', 0) >= best.get('sent_bytes', 0):
            best = rec
    return best or {}

for h in holds:
    if h['rc'] != 0:
        continue
    out, scheme, rep = dirs[h['variant']], h['scheme'], h['rep']
    r = bench_row(out, scheme, rep)
    if r is None or r['status'] != 'ok':
        continue
    run_dir = out / 'runs' / SCENARIO / scheme / str(rep)
    link = json.load(open(run_dir / 'link-summary.json'))
    fetch = json.load(open(run_dir / 'fetch.json'))
    closed = closed_line(run_dir)
    fid = r['fidelity']
    delivered = link['down']['departedPackets']
    seconds = fetch['seconds']
    cpu = fid['cpu_mean_percent']
    print(json.dumps({
        'variant': h['variant'], 'scheme': scheme, 'rep': rep, 'origin_args': r.get('origin_args', []),
        'commit': h['commit'], 'tree_dirty': h['tree_dirty'], 'start_utc': h['start_utc'], 'end_utc': h['end_utc'],
        'load_before': h['load_before'], 'load_after': h['load_after'], 'hold_start_utc': h['hold_start_utc'],
        'goodput_mbps': r['goodput_mbps'], 'throughput_mbps': fid['real_throughput_mbps'],
        'queue_p95_ms': fid['real_queue_p95_ms'], 'cpu_percent': cpu, 'cpu_wait_percent': fid.get('cpu_wait_mean_percent'),
        'seconds': seconds, 'packets_delivered_down': delivered, 'packets_sent_down': link['down']['ingressPackets'],
        'client_packets_sent': link['up']['ingressPackets'], 'app_acks_sent': fetch.get('acks_sent'),
        'client_us_per_packet': cpu['client'] / 100 * seconds * 1e6 / delivered,
        'origin_us_per_packet': cpu['origin'] / 100 * seconds * 1e6 / delivered,
        'quic_ack_frequency_frames_sent': closed.get('quic_ack_frequency_frames_sent'),
    }))
