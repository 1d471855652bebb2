#!/usr/bin/env python3
"""hold.sh's pairs: per repetition, --datagram-send-buffer-bytes 4194304 vs 65536: linkem's IP throughput and p95
queue, the pre-linkem hop (origin send stamp -> linkem down ingress, ../feedback-path-queue/hops.py) p99 and max, and
the largest 10-ms departure rate into linkem, linkem's queue drops and the 1-min load at each run's start
(holds.jsonl); paired differences (65536 - 4194304) with 95 % Student-t intervals. Pairs are every repetition K with
both ARM-K directories, over all the OUT_DIRs given (one per hold).
Usage: analyse.py OUT_DIR [OUT_DIR ...]"""
import json, os, re, statistics, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'feedback-path-queue'))
import hops, stats

ARMS = ('4194304', '65536')

def peak_ingress_mbps(run, bin_ms=10):
    """The largest rate into linkem's downlink over any 10-ms bin (link-down.log arrivals, `T + BYTES`)."""
    bins = {}
    for line in open(os.path.join(run, 'link-down.log')):
        p = line.split()
        if line.startswith('#') or len(p) < 3 or p[1] != '+': continue
        b = int(p[0]) // bin_ms; bins[b] = bins.get(b, 0) + int(p[2])
    return max(bins.values()) * 8 / bin_ms / 1e3

def figures(run, load):
    s = hops.summary(hops.hops(run))
    link = json.load(open(os.path.join(run, 'link-summary.json')))['down']
    return {'IP Mbit/s': link['departedBytes'] * 8 / link['activeMs'] / 1e3, 'linkem p95 queue ms': link['queueDelayMs']['p95'],
            'pre-linkem p95 ms': s['pre_ms']['p95'], 'pre-linkem p99 ms': s['pre_ms']['p99'], 'pre-linkem max ms': s['pre_ms']['max'],
            'peak 10-ms ingress Mbit/s': peak_ingress_mbps(run), 'linkem queue drops': link['queueDropPackets'],
            'load1 at start': load}

def pairs(outs):
    """[(K, {arm: run dir}, {arm: load1 at its start})] for every K with both arms, in K order."""
    found = {}
    for out in outs:
        loads = {}
        for line in open(os.path.join(out, 'holds.jsonl')):
            e = json.loads(line); m = re.fullmatch(r'start (\d+-\d+)', e['event'])
            if m: loads[m.group(1)] = e['load1']
        for d in os.listdir(out):
            m = re.fullmatch(r'(\d+)-(\d+)', d)
            if m and m.group(1) in ARMS:
                run = os.path.join(out, d, 'runs/bulk-100mbps-30ms-1mb/vivace', m.group(2))
                if os.path.exists(os.path.join(run, 'link-summary.json')):
                    found.setdefault(int(m.group(2)), {})[m.group(1)] = (run, loads.get(d))
    return [(k, found[k]) for k in sorted(found) if len(found[k]) == len(ARMS)]

def main(outs):
    ps = pairs(outs)
    runs = {a: [figures(*p[a]) for _, p in ps] for a in ARMS}
    ks = ','.join(str(k) for k, _ in ps)
    print(f'n = {len(ps)} pairs (repetitions {ks})\n')
    print(f'| figure | 4 MiB (reps {ks}) | 64 KiB | 4 MiB mean ± 95 % t | 64 KiB mean ± 95 % t | 64 KiB − 4 MiB, paired |')
    print('| --- | --- | --- | --- | --- | --- |')
    for key in runs[ARMS[0]][0]:
        a = [f[key] for f in runs[ARMS[0]]]; b = [f[key] for f in runs[ARMS[1]]]
        ma, ca = stats.mean_ci(a); mb, cb = stats.mean_ci(b); md, cd = stats.mean_ci([y - x for x, y in zip(a, b)])
        print(f'| {key} | ' + ', '.join(f'{x:.1f}' for x in a) + ' | ' + ', '.join(f'{x:.1f}' for x in b)
              + f' | {ma:.1f} ± {ca:.1f} | {mb:.1f} ± {cb:.1f} | {md:+.1f} ± {cd:.1f} |')

if __name__ == '__main__':
    main(sys.argv[1:])
