#!/usr/bin/env python3
"""Where a bulk run's datagrams and their ACKs wait, hop by hop, on linkem's clock (CLOCK_MONOTONIC, ms).

Joins the origin's recording (record/*.replay: `sent PN BYTES T_US` = the origin's QUIC stack took the datagram,
`ack PN RTT_US RECV_US NOW_US` = the ACK frame acknowledging PN: the receiver's stamp of the frame's largest packet,
and when the origin's addon received the frame) with linkem's logs (link-down.log, link-up.log: mm-link format).
- datagrams are matched to linkem's down arrivals by order (full-size packets, >= 1475 B IP; the first --skip are
  the handshake's), ACK frames to their largest packet through the packet-number -> send-order map (the sender
  skips packet numbers, PROTOCOL.md §4, so a PN is not a send index);
- each clock's offset to linkem's is its least difference over the run (the hop's fastest packet = 0 ms).
Hops: pre  = origin send stamp -> linkem down ingress;  queue = linkem's own (its log);
      rcv  = linkem down departure -> receiver's stamp (the client addon's receive task, recv_queue.rs);
      ackc = receiver's stamp of the largest packet -> the ACK's arrival at linkem's uplink (the client's event loop:
             it builds ACKs in JavaScript; the first uplink arrival at or after the stamp);
      ret  = receiver's stamp of the largest packet -> the origin's stamp of the ACK, over its least (ackc + the
             uplink's fixed delay + acko);
      hold = the oldest packet an ACK frame acknowledges: its linkem down departure -> the ACK's arrival at linkem's
             uplink (both on linkem's clock: the receiver's whole hold of that packet's feedback);
      acko = that uplink packet's departure from linkem's link -> the origin's stamp of the ACK, over its least (the
             uplink's 15 ms delay comes after its link, as mm-delay outside mm-link: the origin's receive path).
Usage: hops.py RUN_DIR... [--skip N] [--json] | hops.py RUN_DIR --series BIN_MS:FROM_MS:TO_MS"""
import bisect, collections, glob, json, os, sys

def mm_events(path):
    pk = []; fifo = collections.deque()
    for line in open(path):
        if line.startswith('#'): continue
        p = line.split()
        if len(p) < 3: continue
        t = int(p[0])
        if p[1] == '+': pk.append([t, int(p[2]), None]); fifo.append(len(pk) - 1)
        elif p[1] == 'd': fifo.pop()  # droptail refuses the arrival just logged
        elif p[1] == '-': pk[fifo.popleft()][2] = t
    return pk

def pct(v, q): v = sorted(x for x in v if x is not None); return v[min(len(v) - 1, int(q * len(v)))] if v else None

def hops(run, skip=1):
    rec = glob.glob(os.path.join(run, 'record', '*.replay'))[0]
    sent = []; idx = {}; frames = []; cur = None
    for line in open(rec):
        p = line.split()
        if not p: continue
        if p[0] == 'sent': idx[int(p[1])] = len(sent); sent.append(int(p[3]) / 1e3)
        elif p[0] == 'ack' and len(p) >= 5:
            key = (p[2], p[3], p[4])
            if cur and cur[0] == key: cur[1].append(int(p[1]))
            else: cur = [key, [int(p[1])]]; frames.append(cur)
    down = [x for x in mm_events(os.path.join(run, 'link-down.log')) if x[1] >= 1475][skip:]
    n = min(len(down), len(sent))
    off_o = min(down[i][0] - sent[i] for i in range(n))  # origin clock -> linkem's
    pre = [down[i][0] - sent[i] - off_o for i in range(n)]
    queue = [down[i][2] - down[i][0] for i in range(n) if down[i][2] is not None]
    rows = []
    for key, pns in frames:
        i = idx.get(max(pns))
        if i is None or i >= n or down[i][2] is None or int(key[1]) <= 0: continue
        j = idx.get(min(pns))
        oldest = down[j][2] if j is not None and j < n and down[j][2] is not None else down[i][2]
        rows.append((down[i][2], int(key[1]) / 1e3, int(key[2]) / 1e3 + off_o, len(pns), oldest))
    off_r = min(r - dep for dep, r, now, k, old in rows)  # receiver clock -> linkem's
    t0 = down[0][0]
    out = {'t0_log_ms': t0, 't_datagram_ms': [down[i][0] - t0 for i in range(n) if down[i][2] is not None], 't_frame_ms': [dep - t0 for dep, r, now, k, old in rows], 'run': run, 'datagrams': len(sent), 'ack_frames': len(rows),
           'pre_ms': pre, 'queue_ms': queue, 'rcv_ms': [r - off_r - dep for dep, r, now, k, old in rows],
           'frame_packets': [k for dep, r, now, k, old in rows]}
    ret = [now - (r - off_r) for dep, r, now, k, old in rows]; m = min(ret)
    out['ret_ms'] = [x - m for x in ret]
    up_path = os.path.join(run, 'link-up.log')
    if os.path.exists(up_path):
        up = [x for x in mm_events(up_path) if x[2] is not None]
        arr = [x[0] for x in up]
        ackc = []; acko = []; hold = []
        for dep, r, now, k, old in rows:
            j = bisect.bisect_left(arr, r - off_r - 0.5)  # log times are whole ms
            ok = j < len(up) and up[j][2] <= now + 1
            ackc.append(up[j][0] - (r - off_r) if ok else None); acko.append(now - up[j][2] if ok else None)
            hold.append(up[j][0] - old if ok else None)
        m = min((x for x in acko if x is not None), default=0)
        out['hold_ms'] = hold; out['ackc_ms'] = ackc; out['acko_ms'] = [None if x is None else x - m for x in acko]
    return out

def summary(h):
    s = {'run': h['run'], 'datagrams': h['datagrams'], 'ack_frames': h['ack_frames'],
         'frames_over_100_packets': sum(1 for k in h['frame_packets'] if k > 100), 'largest_frame_packets': max(h['frame_packets'])}
    for name in ('pre_ms', 'queue_ms', 'rcv_ms', 'ret_ms', 'hold_ms', 'ackc_ms', 'acko_ms'):
        if name in h and h[name]:
            s[name] = {q: round(pct(h[name], v), 1) for q, v in (('p50', .5), ('p95', .95), ('p99', .99), ('p999', .999))}
            s[name]['max'] = round(max(x for x in h[name] if x is not None), 1)
    return s

def series(h, bin_ms, a, b):
    """Per bin (ms from the first datagram's arrival at linkem): each hop's largest delay."""
    bins = collections.defaultdict(dict)
    def put(ts, vs, name):
        for t, v in zip(ts, vs):
            if v is None or not a <= t < b: continue
            d = bins[int(t // bin_ms)]; d[name] = max(d.get(name, 0), v)
    put(h['t_datagram_ms'], h['queue_ms'], 'queue_ms')
    n = len(h['t_datagram_ms']); put(h['t_datagram_ms'], h['pre_ms'][:n], 'pre_ms')
    for name in ('rcv_ms', 'ret_ms', 'hold_ms', 'ackc_ms', 'acko_ms'):
        if name in h: put(h['t_frame_ms'], h[name], name)
    fr = collections.defaultdict(int)
    for t, k in zip(h['t_frame_ms'], h['frame_packets']):
        if a <= t < b: fr[int(t // bin_ms)] = max(fr[int(t // bin_ms)], k)
    names = [x for x in ('pre_ms', 'queue_ms', 'rcv_ms', 'ret_ms', 'hold_ms', 'ackc_ms', 'acko_ms') if x in h]
    print('     ms ' + ' '.join(f'{x:>8}' for x in names) + '  largest-ACK-frame')
    for k in sorted(bins):
        print(f'{k*bin_ms:7} ' + ' '.join(f"{bins[k].get(x, float('nan')):8.1f}" for x in names) + f'  {fr[k]:6}')

if __name__ == '__main__':
    args = sys.argv[1:]; skip = 1
    if '--series' in args:
        i = args.index('--series'); bin_ms, a, b = map(float, args[i + 1].split(':')); del args[i:i + 2]
        for run in args: series(hops(run, skip), bin_ms, a, b)
        sys.exit(0)
    if '--skip' in args: i = args.index('--skip'); skip = int(args[i + 1]); del args[i:i + 2]
    as_json = '--json' in args; args = [a for a in args if a != '--json']
    for run in args:
        s = summary(hops(run, skip))
        if as_json: print(json.dumps(s)); continue
        print(f"{s['run']}: {s['datagrams']} datagrams, {s['ack_frames']} ACK frames ({s['frames_over_100_packets']} over 100 packets, largest {s['largest_frame_packets']})")
        for name in ('pre_ms', 'queue_ms', 'rcv_ms', 'ret_ms', 'hold_ms', 'ackc_ms', 'acko_ms'):
            if name in s: print(f"  {name:9} " + ' '.join(f"{k} {v}" for k, v in s[name].items()))
