#!/usr/bin/env python3
"""RTT above the min RTT when nothing can queue, real path vs pcc-sim, Verizon-LTE-short after the fade.
Real: origin telemetry of C's runs (session s 12-24, about link s 17-28, as lte-abr-fix/why-gap.md), rows with at
most 4 packets in flight (latest_rtt_us: one ack's RTT, sampled about every 100 ms). Sim: post_fade_sim.py's CSVs
(link s 17-28), 100-ms rows whose bottleneck queue was empty (rtt_ms: that interval's mean ack RTT).
Usage: rtt_noise.py REAL_DIR SIM_DIR  (REAL_DIR: /tmp/C-abr/verizon-lte-short)."""
import csv, glob, json, os, sys


def q(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def line(name, xs):
    return f'| {name} | {len(xs)} | ' + ' | '.join(f'{q(xs, p):.1f}' for p in (0.25, 0.5, 0.75, 0.9)) + ' |'


def main():
    real_dir, sim_dir = sys.argv[1], sys.argv[2]
    print('| source | samples | RTT - min RTT p25 ms | p50 | p75 | p90 |')
    print('| --- | --- | --- | --- | --- | --- |')
    for arm in ('vv', 'vvr', 'bbr'):
        xs = []
        for path in sorted(glob.glob(os.path.join(real_dir, arm, 'runs', '*', '*', '*', 'telemetry', '*.jsonl'))):
            for text in open(path):
                d = json.loads(text)
                if 12000 <= d['t_ms'] <= 24000 and d['bytes_in_flight'] <= 4 * 1421 and d['latest_rtt_us'] > 0 \
                        and d['min_rtt_us'] > 0:
                    xs.append((d['latest_rtt_us'] - d['min_rtt_us']) / 1e3)
        if xs:
            print(line(f'real {arm} (ack RTT)', xs))
    for arm in ('vv', 'vvj', 'vvr', 'vvj8', 'vvrj8', 'bbrj8', 'vvj3', 'vvrj3', 'bbrj3'):
        xs = []
        for path in sorted(glob.glob(os.path.join(sim_dir, f'{arm}-*.csv'))):
            rows = list(csv.DictReader(open(path)))
            m = min(float(r['rtt_ms']) for r in rows if float(r['rtt_ms']) > 0)
            xs += [float(r['rtt_ms']) - m for r in rows
                   if 17.0 < float(r['time_s']) <= 29.0 and r['queue_bytes'] == '0' and float(r['rtt_ms']) > 0]
        print(line(f'sim {arm} (100-ms mean)', xs))


if __name__ == '__main__':
    main()
