#!/usr/bin/env python3
"""The real path's RTT noise that is not linkem's queue, from the raw LTE runs of ../lte-abr-fix (/tmp/C-abr).
Per telemetry row of our origin (one ack's RTT, latest_rtt_us, about every 100 ms) (any bytes in flight: the rows kept are those linkem held no queue for):
  residual = latest_rtt - min_rtt - (the largest linkem downlink delay of a datagram that left linkem within the
             sample's RTT before it) - (the same for the uplink); rows where that largest delay sum is <= 5 ms
linkem's logged delay (bench/linkem/src/fwd/mmlog.h '-' lines) includes the wait for the trace's next delivery
opportunity, so the residual is what the simulator does not model: the origin's and client's stamps, event loops,
the TUN devices, the ack's wait at the receiver. Clock alignment: telemetry t_us is the origin's controller clock,
whose zero is the origin.started wall time; linkem's lines are ms after its init timestamp.
Usage: real_noise.py RUN_DIR... ; prints quantiles, writes the residuals (ms) as JSON to stdout with --dump."""
import bisect, datetime, glob, json, os, sys



def link_delays(path):
    init, ts, ds = None, [], []
    for line in open(path):
        if line.startswith('#'):
            if line.startswith('# init timestamp:'):
                init = int(line.split(':')[1])
            continue
        p = line.split()
        if len(p) >= 4 and p[1] == '-':
            ts.append(int(p[0])); ds.append(float(p[3]))
    return init, ts, ds


def residuals(run):
    init_d, td, dd = link_delays(os.path.join(run, 'link-down.log'))
    init_u, tu, du = link_delays(os.path.join(run, 'link-up.log'))
    origin0 = None
    for line in open(os.path.join(run, 'origin.log')):
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if o.get('event') == 'origin.started':
            origin0 = datetime.datetime.fromisoformat(o['time'].replace('Z', '+00:00')).timestamp() * 1000
    out = []
    for f in glob.glob(os.path.join(run, 'telemetry', '*.jsonl')):
        for text in open(f):
            d = json.loads(text)
            if d['latest_rtt_us'] <= 0 or d['min_rtt_us'] <= 0:
                continue
            t_wall = origin0 + d['t_us'] / 1e3
            # every datagram that left the downlink, and every ack that left the uplink, within this sample's RTT
            # before it: the acked datagram and its ack are among them
            lo, hi = t_wall - d['latest_rtt_us'] / 1e3 - 5.0, t_wall
            down = dd[bisect.bisect_left(td, lo - init_d):bisect.bisect_right(td, hi - init_d)]
            up = du[bisect.bisect_left(tu, lo - init_u):bisect.bisect_right(tu, hi - init_u)]
            if not down or not up:
                continue
            r = (d['latest_rtt_us'] - d['min_rtt_us']) / 1e3
            out.append((r, r - max(down) - max(up), max(down) + max(up)))
    return out


def q(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def main():
    args = [a for a in sys.argv[1:] if a != '--dump']
    rows = [r for run in args for r in residuals(run)]
    link_quiet = [r for r in rows if r[2] <= 5.0]
    for name, xs in (('rtt - min_rtt, all rows', [r[0] for r in rows]),
                     ('rtt - min_rtt, linkem delay <= 5 ms', [r[0] for r in link_quiet]),
                     ('residual (minus linkem delays), linkem delay <= 5 ms', [r[1] for r in link_quiet])):
        print(f'{name}: n={len(xs)} ' + ' '.join(f'p{int(p * 100)}={q(xs, p):.2f}' for p in (0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99)),
              file=sys.stderr)
    if '--dump' in sys.argv:
        print(json.dumps(sorted(round(r[1], 3) for r in link_quiet)))


if __name__ == '__main__':
    main()
