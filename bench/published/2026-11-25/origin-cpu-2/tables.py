#!/usr/bin/env python3
"""origin-cpu-2: origin and client CPU per datagram, before/after the pushed-batch ArrayBuffer and the spurious-loss walk.
  python3 tables.py collect LOADS.jsonl DIR... > results.jsonl   (one row per run folder LABEL-PAIR or LABEL-PAIR/<scheme run>)
  python3 tables.py results.jsonl                                  (tables: per set and scheme, and paired after - before)"""
import importlib.util
import json
import os
import sys

# mean ± 95% CI (Student t): video-bitrates/tables.py's definition, loaded by path
_spec = importlib.util.spec_from_file_location('video_bitrates_tables', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'video-bitrates', 'tables.py'))
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)
ci, fmt = _shared.ci, _shared.fmt


def collect(loads_path, dirs):
    starts, ends = {}, {}
    for line in open(loads_path):
        x = json.loads(line)
        (starts if 'start' in x else ends)[(x['label'], x['pair'])] = x
    for d in dirs:
        label, pair = os.path.basename(d.rstrip('/')).rsplit('-', 1)
        key = (label, int(pair))
        for line in open(os.path.join(d, 'results.jsonl')):
            r = json.loads(line)
            run_dir = os.path.join(d, 'runs', *r['run_id'].split('/'))
            link = json.load(open(os.path.join(run_dir, 'link-summary.json')))
            real = json.load(open(os.path.join(run_dir, 'fidelity.json')))['real']
            seconds = len(real)
            # per-second CPU samples (% of a core) over the link's seconds -> CPU seconds
            cpu_s = {p: sum(s.get('cpu', {}).get(p, 0) for s in real) / 100 for p in ('origin', 'client', 'linkem')}
            taken_in = link['down']['ingressPackets']  # DATA the origin sent into the link
            delivered = link['down']['departedPackets']  # what the client received
            f = r['fidelity']
            print(json.dumps({
                'label': label, 'pair': int(pair), 'run_id': r['run_id'], 'scheme': r['scheme'], 'started_at': r['started_at'],
                'head': starts[key]['head'], 'tree': starts[key]['tree'], 'load_before': starts[key]['load_before'],
                'load_after': ends[key]['load_after'], 'goodput_mbps': r['goodput_mbps'],
                'throughput_mbps': f['real_throughput_mbps'], 'queue_p95_ms': r['queue_delay_p95_ms'], 'seconds': seconds,
                'packets_in': taken_in, 'packets_delivered': delivered, 'queue_drops': link['down']['queueDropPackets'],
                'origin_us_per_datagram': round(cpu_s['origin'] * 1e6 / taken_in, 1),
                'client_us_per_datagram': round(cpu_s['client'] * 1e6 / delivered, 1),
                'cpu_mean_percent': f['cpu_mean_percent'], 'cpu_wait_mean_percent': f['cpu_wait_mean_percent'],
            }))


def tables(path):
    rows = [json.loads(l) for l in open(path)]
    metrics = [
        ('origin CPU µs/datagram', lambda r: r['origin_us_per_datagram'], 1),
        ('client CPU µs/datagram', lambda r: r['client_us_per_datagram'], 1),
        ('origin CPU % of a core', lambda r: r['cpu_mean_percent']['origin'], 1),
        ('client CPU % of a core', lambda r: r['cpu_mean_percent']['client'], 1),
        ('linkem CPU % of a core', lambda r: r['cpu_mean_percent']['linkem'], 1),
        ('origin waiting for a core %', lambda r: r['cpu_wait_mean_percent']['origin'], 0),
        ('client waiting for a core %', lambda r: r['cpu_wait_mean_percent']['client'], 0),
        ('throughput Mbit/s', lambda r: r['throughput_mbps'], 1),
        ('goodput Mbit/s', lambda r: r['goodput_mbps'], 1),
        ('p95 queueing ms', lambda r: r['queue_p95_ms'], 2),
        ('queue drops %', lambda r: 100 * r['queue_drops'] / r['packets_in'], 2),
    ]
    for scheme in sorted({r['scheme'] for r in rows}):
        rs = [r for r in rows if r['scheme'] == scheme]
        sets = {}
        for r in rs:
            sets.setdefault(r['label'], []).append(r)
        labels = [l for l in ('before', 'after') if l in sets]
        print(f'#### {scheme}\n')
        print('| metric | ' + ' | '.join(f'{l} (n={len(sets[l])})' for l in labels) + ' | paired after − before |')
        print('| --- |' + ' --- |' * (len(labels) + 1))
        by = {(r['label'], r['pair'], r['run_id']): r for r in rs}
        keys = sorted({(p, rid) for (l, p, rid) in by if l == 'before'} & {(p, rid) for (l, p, rid) in by if l == 'after'})
        for name, get, digits in metrics:
            cells = [fmt([get(r) for r in sets[l]], digits) for l in labels]
            diffs = [get(by[('after', p, rid)]) - get(by[('before', p, rid)]) for p, rid in keys]
            paired = fmt(diffs, digits) + ' (' + ', '.join(f'{d:+.{digits}f}' for d in diffs) + ')' if len(diffs) > 1 else ''
            print(f'| {name} | ' + ' | '.join(cells) + f' | {paired} |')
        print()
    print('| set | pair | run | started (UTC) | load before → after (hold) | HEAD | tree |')
    print('| --- | --- | --- | --- | --- | --- | --- |')
    for r in sorted(rows, key=lambda r: r['started_at']):
        print(f"| {r['label']} | {r['pair']} | {r['run_id']} | {r['started_at'][11:19]} | {r['load_before']} → {r['load_after']} | {r['head']} | {r['tree']} |")


if __name__ == '__main__':
    if sys.argv[1] == 'collect':
        collect(sys.argv[2], sys.argv[3:])
    else:
        tables(sys.argv[1])
