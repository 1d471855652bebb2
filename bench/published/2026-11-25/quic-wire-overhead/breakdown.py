#!/usr/bin/env python3
"""Where the downlink's IP bytes go, per run, from linkem's downlink log (every departed packet's IP size), the fetch
client's delivered bytes and the origin's session.closed line; then means with 95 % Student-t intervals per variant and
paired (same repetition) differences. Usage: breakdown.py HOLD_OUT_DIR [> breakdown.md]. HOLD_OUT_DIR holds
<variant>-<rep>/ folders from hold.sh. `breakdown.py --video BENCH_OUT_DIR` prints each browser run's packet classes
and the origin's per-session datagram sizes instead (video-hold.sh)."""
import glob, json, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from student_t import mean_ci95  # noqa: E402  (the one t table: bench/published/student_t.py)
FULL_MIN, SMALL_MAX = 1400, 200  # IP bytes: a DATA packet / an ACK-only (or other control) packet


def mean_ci(xs):
    return mean_ci95(xs, as_stats_ts=True)


def packet_classes(run_dir):
    """(full, small, other) packet counts and bytes, and the largest IP packet, from linkem's downlink log."""
    full = small = other = 0
    full_b = small_b = other_b = 0
    largest = 0
    for line in open(os.path.join(run_dir, 'link-down.log')):
        f = line.split()
        if len(f) < 3 or f[1] != '-':
            continue
        size = int(f[2]) - 4  # mahimahi framing
        largest = max(largest, size)
        if size >= FULL_MIN:
            full += 1; full_b += size
        elif size < SMALL_MAX:
            small += 1; small_b += size
        else:
            other += 1; other_b += size
    return full, small, other, full_b, small_b, other_b, largest


def run_figures(run_dir):
    fetch = json.load(open(os.path.join(run_dir, 'fetch.json')))
    full, small, other, full_b, small_b, other_b, largest = packet_classes(run_dir)
    wire = full_b + small_b + other_b
    delivered = fetch['bytes']
    row = {'delivered_B': delivered, 'wire_B': wire, 'wire_per_B': wire / delivered, 'goodput_mbps': fetch['goodput_mbps'],
           'ip_mbps': wire * 8 / fetch['seconds'] / 1e6, 'largest_ip_packet_B': largest,
           'full_packets': full, 'small_packets': small, 'other_packets': other,
           'small_share': small_b / delivered, 'other_share': other_b / delivered}
    closed = None
    log = os.path.join(run_dir, 'origin.log')
    if os.path.exists(log):
        for line in open(log):
            if '"session.closed"' in line:
                closed = json.loads(line)
    if closed:
        pk = closed['packets_sent']
        row.update({'datagrams_sent': pk, 'datagram_B': closed['sent_datagram_bytes'] / pk,
                    'our_header_B': (closed['sent_datagram_bytes'] - closed['sent_bytes']) / pk,
                    'retransmitted_share': closed['retransmitted_bytes'] / delivered,
                    # sent_bytes counts retransmissions too; what is left beyond delivery was in flight at the deadline
                    'in_flight_share': (closed['sent_bytes'] - closed['retransmitted_bytes'] - delivered) / delivered,
                    # QUIC bytes around a full datagram: short header, DATAGRAM type and length, AEAD tag and
                    # WebTransport's 1-byte quarter stream ID, which quinn's datagram size leaves to the session
                    'quic_per_full_packet_B': full_b / full - closed['sent_datagram_bytes'] / pk - 28 if full else None,
                    # IP bytes per application byte of a full DATA packet (IPv4 + UDP 28 B, QUIC, our header)
                    'full_packet_ratio': (full_b / full) / (closed['sent_datagram_bytes'] / pk - (closed['sent_datagram_bytes'] - closed['sent_bytes']) / pk) if full else None})
    return row


def main():
    root = sys.argv[1]
    runs = {}
    for d in sorted(glob.glob(os.path.join(root, '*-[0-9]'))):
        variant, rep = os.path.basename(d).rsplit('-', 1)
        for run_dir in glob.glob(os.path.join(d, 'runs', '*', '*', rep)):
            if os.path.exists(os.path.join(run_dir, 'fetch.json')):
                runs.setdefault(variant, {})[int(rep)] = run_figures(run_dir)
    keys = ['wire_per_B', 'goodput_mbps', 'ip_mbps', 'largest_ip_packet_B', 'full_packets', 'small_packets', 'small_share',
            'datagram_B', 'our_header_B', 'quic_per_full_packet_B', 'full_packet_ratio', 'retransmitted_share', 'in_flight_share']
    print('| variant | n | ' + ' | '.join(keys) + ' |')
    print('|' + ' --- |' * (len(keys) + 2))
    for variant, reps in runs.items():
        cells = []
        for k in keys:
            xs = [r[k] for r in reps.values() if r.get(k) is not None]
            if not xs:
                cells.append('–'); continue
            m, ci = mean_ci(xs)
            cells.append(f'{m:.4f} ± {ci:.4f}' if abs(m) < 10 else f'{m:.1f} ± {ci:.1f}')
        print(f'| {variant} | {len(reps)} | ' + ' | '.join(cells) + ' |')
    print()
    print('Per run:')
    for variant, reps in runs.items():
        for rep, r in sorted(reps.items()):
            print(f'- {variant}/{rep}: ' + ', '.join(f'{k} {r[k]:.4f}' if isinstance(r.get(k), float) else f'{k} {r.get(k)}' for k in keys))
    if 'before' in runs and 'after' in runs:
        print()
        common = sorted(set(runs['before']) & set(runs['after']))
        for k in ['wire_per_B', 'goodput_mbps', 'ip_mbps', 'small_packets']:
            diffs = [runs['after'][i][k] - runs['before'][i][k] for i in common]
            m, ci = mean_ci(diffs)
            print(f'- paired after − before, {k}: {m:.4f} ± {ci:.4f} (n={len(diffs)}: ' + ', '.join(f'{d:.4f}' for d in diffs) + ')')


def video(root):
    results = {json.loads(l)['run_id']: json.loads(l) for l in open(os.path.join(root, 'results.jsonl'))}
    for run_id, r in sorted(results.items()):
        run_dir = os.path.join(root, 'runs', run_id)
        full, small, other, full_b, small_b, other_b, largest = packet_classes(run_dir)
        wire = full_b + small_b + other_b
        print(f'- {run_id}: wire B per media B {r.get("wire_bytes_per_media_byte")}, packets full {full} ({full_b / wire:.4f} of '
              f'wire bytes, mean {full_b / max(full, 1):.1f} B), small {small} ({small_b / wire:.4f}), other {other} '
              f'({other_b / wire:.4f}), largest {largest} B')
        log = os.path.join(run_dir, 'origin.log')
        if os.path.exists(log):
            for line in open(log):
                if '"session.closed"' in line:
                    c = json.loads(line)
                    if c.get('packets_sent'):
                        print(f'  - session {c["session"]} ({c.get("algorithm")}): {c["packets_sent"]} datagrams, mean '
                              f'{c["sent_datagram_bytes"] / c["packets_sent"]:.1f} B, our header '
                              f'{(c["sent_datagram_bytes"] - c["sent_bytes"]) / c["packets_sent"]:.2f} B, retransmitted '
                              f'{c["retransmitted_bytes"]} B, client ACK datagrams {c["acks_received"]}')


if len(sys.argv) > 2 and sys.argv[1] == '--video':
    video(sys.argv[2])
else:
    main()
