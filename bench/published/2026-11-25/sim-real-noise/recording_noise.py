#!/usr/bin/env python3
"""Per-ack RTT above the minimum at light load, from the origin's committed real-path recordings
(controller-wasm/test/recordings/*.replay: every 'sent PN BYTES T' and 'ack PN RTT_US RECEIVER_T T' the controller
saw). Rows: acks whose packet was sent with at most 4 packets in flight (no queue of our own), RTT minus the
recording's minimum RTT. Node client as the receiver (not Chromium), linkem 100 or 10 Mbit/s.
Usage: recording_noise.py FILE.replay..."""
import sys

from real_noise import q  # the same nearest-rank quantile as the LTE residuals


def rows(path):
    inflight_at_send, outstanding, rtts = {}, set(), []
    for line in open(path):
        p = line.split()
        if not p or p[0] == '#':
            continue
        if p[0] == 'sent':
            outstanding.add(int(p[1])); inflight_at_send[int(p[1])] = len(outstanding)
        elif p[0] in ('ack', 'loss'):
            pn = int(p[1])
            if p[0] == 'ack' and pn in outstanding and inflight_at_send.get(pn, 99) <= 4:
                rtts.append(int(p[2]) / 1e3)
            outstanding.discard(pn)
    return rtts


def main():
    xs = []
    for path in sys.argv[1:]:
        r = rows(path)
        if r:
            m = min(r)
            xs += [x - m for x in r]
    print(f'n={len(xs)} ' + ' '.join(f'p{int(p * 100)}={q(xs, p):.2f}' for p in (0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99)))


if __name__ == '__main__':
    main()
