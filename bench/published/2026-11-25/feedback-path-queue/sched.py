#!/usr/bin/env python3
"""The origin's and the client's threads during each origin-side stall of a run: intervals where datagrams took
> 30 ms from the origin's send stamp to linkem (hops.py's `pre`), merged, against sched_sample.py's counters: per
role and thread kind, ms on a CPU and ms runnable but waiting for one, summed over threads, within the interval.
Usage: sched.py SCHED_SAMPLES RUN_DIR... | sched.py SCHED_SAMPLES --window FROM_MS:TO_MS RUN_DIR..."""
import bisect, collections, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hops

def load(path):
    series = collections.defaultdict(list)
    for line in open(path):
        t, role, tid, comm, run_ns, wait_ns = line.split()
        series[(role, tid, comm)].append((float(t), int(run_ns), int(wait_ns)))
    return series

def at(s, t):
    """Cumulative (run, wait) ns of one thread at epoch t (its last sample at or before t)."""
    i = bisect.bisect_right([x[0] for x in s], t) - 1
    return (s[i][1], s[i][2]) if i >= 0 else (s[0][1], s[0][2])

def usage(series, a, b):
    u = collections.defaultdict(lambda: [0.0, 0.0])
    for (role, tid, comm), s in series.items():
        if s[-1][0] < a or s[0][0] > b: continue
        r0, w0 = at(s, a); r1, w1 = at(s, b)
        k = f'{role}/{comm}'; u[k][0] += (r1 - r0) / 1e6; u[k][1] += (w1 - w0) / 1e6
    return u

def init_epoch_ms(run):
    for line in open(os.path.join(run, 'link-down.log')):
        if line.startswith('# init timestamp:'): return int(line.split(':')[1])

def main(sched_path, runs):
    series = load(sched_path)
    for run in runs:
        h = hops.hops(run); base = (init_epoch_ms(run) + h['t0_log_ms']) / 1e3
        iv = sorted((t - p, t) for t, p in zip(h['t_datagram_ms'], h['pre_ms']) if p > 30)
        merged = []
        for a, b in iv:
            if merged and a <= merged[-1][1]: merged[-1][1] = max(merged[-1][1], b)
            else: merged.append([a, b])
        print(f'{run}: {len(merged)} origin-side stalls (send stamp -> linkem > 30 ms)')
        whole = usage(series, base, base + 20)
        print('  whole run, per second: ' + '; '.join(f'{k} cpu {v[0]/20:.0f} wait {v[1]/20:.0f} ms' for k, v in sorted(whole.items())))
        for a, b in merged:
            u = usage(series, base + a / 1e3, base + b / 1e3)
            print(f'  {a:7.0f}-{b:7.0f} ms ({b-a:3.0f} ms): ' + '; '.join(f'{k} cpu {v[0]:.0f} wait {v[1]:.0f}' for k, v in sorted(u.items())))

def window(sched_path, run, a_ms, b_ms):
    """The same figures over [a_ms, b_ms) of a run (ms from its first datagram's arrival at linkem)."""
    series = load(sched_path); h = hops.hops(run); base = (init_epoch_ms(run) + h['t0_log_ms']) / 1e3
    u = usage(series, base + a_ms / 1e3, base + b_ms / 1e3)
    print(f'{run} {a_ms:.0f}-{b_ms:.0f} ms: ' + '; '.join(f'{k} cpu {v[0]:.0f} wait {v[1]:.0f}' for k, v in sorted(u.items())))

if __name__ == '__main__':
    if len(sys.argv) > 3 and sys.argv[2] == '--window':
        a, b = map(float, sys.argv[3].split(':'))
        for run in sys.argv[4:]: window(sys.argv[1], run, a, b)
    else: main(sys.argv[1], sys.argv[2:])
