#!/usr/bin/env python3
"""Where the origin's and the Node client's CPU per datagram went, from a system-wide perf profile of one run.
  NODE_OPTIONS=--perf-basic-prof perf record -F 499 -a -g -o perf.data -- npm run -s bench -- --suite fidelity ...
  perf script -i perf.data -F pid,tid,comm,ip,sym,dso > script.txt
  python3 profile.py script.txt ORIGIN_PID CLIENT_PID DATAGRAMS_IN DATAGRAMS_DELIVERED
(the origin is the process whose /tmp/perf-PID.map names send-loop.ts, the client the one naming pcc-client.ts;
datagrams from the run's link-summary.json: down.ingressPackets, down.departedPackets). A sample is 1/499 s of CPU;
each is put in the first category whose pattern its call chain matches, in the order below."""
import collections
import re
import sys

HZ = 499
CATS = [
    ('ACK in: spurious-loss check (tracker.countSpuriousLosses)', r'countSpuriousLosses'),
    ('ACK in: rest of tracker.onAck, AckGuard, ACK decode', r'onAck |ack-guard|decodeAckDatagram'),
    ('pushed batch: external Buffer + typed arrays (napi_create_external_*)', r'napi_create_external'),
    ('pushed batch: result object properties (napi_define_properties)', r'napi_define_properties'),
    ('body bytes read from disk (readSync, page cache)', r'node::fs::Read'),
    ('SHA-256 of the received body', r'crypto::Hash'),
    ('receive: JS per batch (decode, reassembly, ACK scheduling)', r'receive-batches'),
    ('send loop turn (JS + addon hand-over)', r'send-loop\.ts'),
    ('timers', r'uv__run_timers'),
    ('GC', r'Scavenger|MarkCompact|Heap::'),
    ('event loop idle/poll (epoll, wake-ups)', r'uv__io_poll'),
    ('JIT compilation', r'Compiler|compiler::'),
]
QCATS = [
    ('sendmsg (UDP out through the TUN, GSO segmentation)', r'sendmsg'),
    ('recvmmsg (UDP in)', r'recvmmsg|recvmsg'),
    ('epoll_wait / futex (parking, wake-ups)', r'epoll_wait|futex'),
    ('addon code (quinn, crypto; symbols stripped)', r'pcc-stream-quic'),
]


def parse(path):
    head = re.compile(r'^\s*(.*?)\s+(\d+)/(\d+)\s*$')
    samples, cur = [], None
    for line in open(path):
        m = head.match(line.rstrip('\n'))
        if m:
            if cur:
                samples.append(cur)
            cur = (m.group(2), m.group(3), m.group(1), [])
        elif line.strip() and cur is not None:
            cur[3].append(re.sub(r'^[0-9a-f]+ ', '', line.strip()))
    if cur:
        samples.append(cur)
    return samples


def table(name, ss, cats, datagrams):
    counts = collections.Counter()
    for s in ss:
        chain = ' | '.join(s[3])
        counts[next((label for label, p in cats if re.search(p, chain)), 'other')] += 1
    print(f'| {name} | {len(ss)} | {len(ss) / HZ * 1e6 / datagrams:.1f} | |')
    for label, _ in cats + [('other', '')]:
        if counts[label]:
            print(f'| &nbsp;&nbsp;{label} | {counts[label]} | {counts[label] / HZ * 1e6 / datagrams:.1f} | {100 * counts[label] / len(ss):.1f} |')


def main():
    path, origin, client, dg_in, dg_out = sys.argv[1:6]
    samples = parse(path)
    print('| process / thread / category | samples | µs per datagram | % of thread |')
    print('| --- | --- | --- | --- |')
    for pid, name, datagrams in ((origin, 'origin', int(dg_in)), (client, 'client', int(dg_out))):
        mine = [s for s in samples if s[0] == pid]
        print(f'| **{name}, all threads** | {len(mine)} | {len(mine) / HZ * 1e6 / datagrams:.1f} | |')
        table(f'{name} JavaScript thread', [s for s in mine if s[1] == pid], CATS, datagrams)
        table(f'{name} QUIC runtime thread (pcc-quic)', [s for s in mine if s[2] == 'pcc-quic'], QCATS, datagrams)
        rest = [s for s in mine if s[1] != pid and s[2] != 'pcc-quic']
        print(f'| {name} other threads (V8 compiler, GC helpers) | {len(rest)} | {len(rest) / HZ * 1e6 / datagrams:.1f} | |')


if __name__ == '__main__':
    main()
