#!/usr/bin/env python3
"""hold.sh's pairs: per repetition, --datagram-send-buffer-bytes 4194304 vs 65536: linkem's IP throughput and p95
queue, the pre-linkem hop (origin send stamp -> linkem down ingress, ../feedback-path-queue/hops.py) p99 and max, and
the largest 10-ms departure rate into linkem, linkem's queue drops and the 1-min load at each run's start
(holds.jsonl); then the application goodput (the bench row), drops as % of packets into linkem, start-up
(../startup/startup.py: t90 and IP Mbit/s in the first 2 s) and sent / target (the recording's MIs after 2 s through
pcc-replay --mi, as ../bulk-75kb/inputs.py); paired differences (65536 - 4194304) with 95 % Student-t intervals.
Pairs are every repetition K with both ARM-K directories, over all the OUT_DIRs given (one per hold), whatever the
scenario. Usage: analyse.py OUT_DIR [OUT_DIR ...]   (PCC_REPLAY=path, default controller-wasm/build/pcc-replay)"""
import glob, json, os, re, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, '..', 'feedback-path-queue'), os.path.join(HERE, '..', 'startup')]
import hops, startup, stats
PCC_REPLAY = os.environ.get('PCC_REPLAY', os.path.join(HERE, '..', '..', '..', '..', 'controller-wasm', 'build', 'pcc-replay'))

ARMS = ('4194304', '65536')

def peak_ingress_mbps(run, bin_ms=10):
    """The largest rate into linkem's downlink over any 10-ms bin (link-down.log arrivals, `T + BYTES`)."""
    bins = {}
    for line in open(os.path.join(run, 'link-down.log')):
        p = line.split()
        if line.startswith('#') or len(p) < 3 or p[1] != '+': continue
        b = int(p[0]) // bin_ms; bins[b] = bins.get(b, 0) + int(p[2])
    return max(bins.values()) * 8 / bin_ms / 1e3

def sent_over_target(run):
    """Sent / target rate, MI-duration-weighted, over the MIs after 2 s with >= 10 packets and not app-limited
    (../bulk-75kb/inputs.py's column); None without a recording or pcc-replay."""
    recs = glob.glob(os.path.join(run, 'record', '*.replay'))
    if not recs or not os.path.exists(PCC_REPLAY): return None
    out = subprocess.run([PCC_REPLAY, '--mi', recs[0]], capture_output=True, text=True, check=True).stdout
    mis = [json.loads(l) for l in out.splitlines()]
    t0 = mis[0]['startUs']
    later = [m for m in mis if m['startUs'] - t0 > 2e6 and m['packetsSent'] >= 10 and not m['appLimited']]
    return sum(m['sendRateBps'] * m['durationUs'] for m in later) / sum(m['targetRateBps'] * m['durationUs'] for m in later)

def figures(run, load, goodput):
    s = hops.summary(hops.hops(run))
    link = json.load(open(os.path.join(run, 'link-summary.json')))['down']
    t90, first2 = startup.link_log(os.path.join(run, 'link-down.log'))
    return {'IP Mbit/s': link['departedBytes'] * 8 / link['activeMs'] / 1e3, 'linkem p95 queue ms': link['queueDelayMs']['p95'],
            'pre-linkem p95 ms': s['pre_ms']['p95'], 'pre-linkem p99 ms': s['pre_ms']['p99'], 'pre-linkem max ms': s['pre_ms']['max'],
            'peak 10-ms ingress Mbit/s': peak_ingress_mbps(run), 'linkem queue drops': link['queueDropPackets'],
            'load1 at start': load, 'goodput Mbit/s': goodput,
            'linkem queue drops % of packets in': 100 * link['queueDropPackets'] / max(1, link['ingressPackets']),
            't90 s (None: no 500-ms window at 90 Mbit/s)': t90, 'IP Mbit/s in the first 2 s': first2,
            'sent / target (MIs after 2 s)': sent_over_target(run)}

def pairs(outs):
    """[(K, {arm: (run dir, load1 at its start, goodput Mbit/s)})] for every K with both arms, in K order."""
    found = {}
    for out in outs:
        loads = {}
        for line in open(os.path.join(out, 'holds.jsonl')):
            e = json.loads(line); m = re.fullmatch(r'start (\d+-\d+)', e['event'])
            if m: loads[m.group(1)] = e['load1']
        for d in os.listdir(out):
            m = re.fullmatch(r'(\d+)-(\d+)', d)
            if m and m.group(1) in ARMS:
                for run in glob.glob(os.path.join(out, d, 'runs/*/vivace', m.group(2))):
                    if os.path.exists(os.path.join(run, 'link-summary.json')):
                        row = json.loads(open(os.path.join(out, d, 'results.jsonl')).readline())
                        found.setdefault(int(m.group(2)), {})[m.group(1)] = (run, loads.get(d), row['goodput_mbps'])
    return [(k, found[k]) for k in sorted(found) if len(found[k]) == len(ARMS)]

DECIMALS = {'linkem queue drops % of packets in': 2, 't90 s (None: no 500-ms window at 90 Mbit/s)': 2,
            'sent / target (MIs after 2 s)': 3}  # every other figure 1 decimal

def fmt(x, dec=1):
    return 'None' if x is None else f'{x:.{dec}f}'

def main(outs):
    ps = pairs(outs)
    runs = {a: [figures(*p[a]) for _, p in ps] for a in ARMS}
    ks = ','.join(str(k) for k, _ in ps)
    print(f'n = {len(ps)} pairs (repetitions {ks})\n')
    print(f'| figure | 4 MiB (reps {ks}) | 64 KiB | 4 MiB mean ± 95 % t | 64 KiB mean ± 95 % t | 64 KiB − 4 MiB, paired |')
    print('| --- | --- | --- | --- | --- | --- |')
    for key in runs[ARMS[0]][0]:
        a = [f[key] for f in runs[ARMS[0]]]; b = [f[key] for f in runs[ARMS[1]]]; n = DECIMALS.get(key, 1)
        vals = f'| {key} | ' + ', '.join(fmt(x, n) for x in a) + ' | ' + ', '.join(fmt(x, n) for x in b)
        if None in a + b:
            print(vals + ' | - | - | - |'); continue
        ma, ca = stats.mean_ci(a); mb, cb = stats.mean_ci(b); md, cd = stats.mean_ci([y - x for x, y in zip(a, b)])
        print(vals + f' | {ma:.{n}f} ± {ca:.{n}f} | {mb:.{n}f} ± {cb:.{n}f} | {md:+.{n}f} ± {cd:.{n}f} |')

if __name__ == '__main__':
    main(sys.argv[1:])
