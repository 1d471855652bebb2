#!/usr/bin/env python3
"""origin-cpu: the origin's CPU and wake-ups per datagram, before/after 712aebe, from bench run folders.
  python3 tables.py collect LOADS.jsonl DIR... > results.jsonl   (one row per run: bench results + origin log lines)
  python3 tables.py results.jsonl                                  (tables: per set, and paired after - before)"""
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
    starts = {}
    ends = {}
    for line in open(loads_path):
        x = json.loads(line)
        key = (x['label'], x['pair'])
        (starts if 'start' in x else ends)[key] = x
    for d in dirs:
        label, pair = os.path.basename(d.rstrip('/')).rsplit('-', 1)
        r = json.loads(open(os.path.join(d, 'results.jsonl')).readline())
        run_dir = os.path.join(d, 'runs', *r['run_id'].split('/'))
        log = [json.loads(l) for l in open(os.path.join(run_dir, 'origin.log')) if l.startswith('{')]
        sc = next(x for x in log if x.get('event') == 'session.closed' and 'packets_sent' in x)
        sl = next((x for x in log if x.get('event') == 'send_loop.idle'), None)
        real = json.load(open(os.path.join(run_dir, 'fidelity.json')))['real']
        cpu_s = sum(s.get('cpu', {}).get('origin', 0) for s in real) / 100  # per-second samples over the link's seconds
        seconds = len(real)
        delivered_mb = r['goodput_mbps'] * seconds / 8
        f = r['fidelity']
        key = (label, int(pair))
        print(json.dumps({
            'label': label, 'pair': int(pair), 'run_id': r['run_id'], 'started_at': r['started_at'],
            'head': starts[key]['head'], 'server_files': starts[key]['files'] or 'as committed',
            'load_before': starts[key]['load_before'], 'load_after': ends[key]['load_after'],
            'goodput_mbps': r['goodput_mbps'], 'queue_p95_ms': r['queue_delay_p95_ms'], 'seconds': seconds,
            'origin_cpu_s': round(cpu_s, 3), 'origin_cpu_s_per_mb': round(cpu_s / delivered_mb, 5),
            'origin_us_per_datagram': round(cpu_s * 1e6 / sc['packets_sent'], 1),
            'cpu_mean_percent': f['cpu_mean_percent'], 'cpu_wait_mean_percent': f['cpu_wait_mean_percent'],
            'datagrams_sent': sc['packets_sent'], 'acks_received': sc['acks_received'], 'service_turns': sc['service_turns'],
            'batches_sent': sc['batches_sent'], 'max_burst_bytes': sc['max_burst_bytes'],
            'stall_descheduled_ms': sc['stall_descheduled_ms'], 'stall_event_loop_busy_ms': sc['stall_event_loop_busy_ms'],
            'send_loop': sl,
        }))


def tables(path):
    rows = [json.loads(l) for l in open(path)]
    metrics = [
        ('origin CPU s/MB delivered', lambda r: r['origin_cpu_s_per_mb'] * 1000, 1, 'ms/MB'),
        ('origin CPU µs/datagram', lambda r: r['origin_us_per_datagram'], 1, ''),
        ('origin CPU % of a core', lambda r: r['cpu_mean_percent']['origin'], 1, ''),
        ('origin waiting for a core %', lambda r: r['cpu_wait_mean_percent']['origin'], 0, ''),
        ('goodput Mbit/s', lambda r: r['goodput_mbps'], 1, ''),
        ('p95 queueing ms', lambda r: r['queue_p95_ms'], 2, ''),
        ('send-loop turns/s', lambda r: r['send_loop']['turns'] / r['send_loop']['busy_ms'] * 1000, 0, ''),
        ('datagrams per sending turn', lambda r: r['datagrams_sent'] / r['service_turns'], 2, ''),
        ('send-loop turns per datagram', lambda r: r['send_loop']['turns'] / r['datagrams_sent'], 3, ''),
        ('addon calls per datagram (sends + ACKs)', lambda r: (r['batches_sent'] + r['acks_received']) / r['datagrams_sent'], 3, ''),
        ('planned turns late p50 µs', lambda r: r['send_loop']['planned_late_p50_us'], 0, ''),
        ('planned turns late p99 µs', lambda r: r['send_loop']['planned_late_p99_us'], 0, ''),
        ('ACK-woken turns %', lambda r: 100 * r['send_loop']['woken_turns'] / r['send_loop']['turns'], 2, ''),
        ('largest burst B', lambda r: r['max_burst_bytes'], 0, ''),
        ('descheduled stall ms', lambda r: r['stall_descheduled_ms'], 0, ''),
    ]
    sets = {}
    for r in rows:
        sets.setdefault(r['label'], []).append(r)
    labels = [l for l in ('measure', 'before', 'after') if l in sets]
    print('| metric | ' + ' | '.join(f'{l} (n={len(sets[l])})' for l in labels) + ' | paired after − before |')
    print('| --- |' + ' --- |' * (len(labels) + 1))
    pairs = sorted({r['pair'] for r in sets.get('before', [])} & {r['pair'] for r in sets.get('after', [])})
    by = {(r['label'], r['pair']): r for r in rows}
    for name, get, digits, unit in metrics:
        name = name.replace('s/MB', 'ms/MB') if unit else name
        cells = [fmt([get(r) for r in sets[l]], digits) for l in labels]
        diffs = [get(by[('after', p)]) - get(by[('before', p)]) for p in pairs]
        paired = fmt(diffs, digits) + ' (' + ', '.join(f'{d:+.{digits}f}' for d in diffs) + ')' if diffs else ''
        print(f'| {name} | ' + ' | '.join(cells) + f' | {paired} |')
    print()
    print('| set | pair | started (UTC) | load before → after | HEAD | server files |')
    print('| --- | --- | --- | --- | --- | --- |')
    for r in sorted(rows, key=lambda r: r['started_at']):
        print(f"| {r['label']} | {r['pair']} | {r['started_at'][11:19]} | {r['load_before']} → {r['load_after']} | {r['head']} | {r['server_files']} |")


if __name__ == '__main__':
    if sys.argv[1] == 'collect':
        collect(sys.argv[2], sys.argv[3:])
    else:
        tables(sys.argv[1])
