#!/usr/bin/env python3
"""latency-noise-source: results.jsonl from hold.sh's folders, and the paired table.
  python3 collect.py rows HOLD_DIR > results.jsonl      (one row per run: the bench row's figures, the hold's loads, HEAD
                                                         and WASM hash, decompose.py's figures from the run's recording)
  python3 collect.py table results.jsonl                (means ± 95 % Student t per arm, paired after - before)
The before arm's recordings are decomposed with PCC_REPLAY_BEFORE (a pcc-replay built without the emission rule), the
after arm's with PCC_REPLAY_AFTER, so each run's MIs are the ones its controller closed."""
import glob, importlib.util, json, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
def _load(name, rel):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, rel))
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
fmt = _load('vb_tables', '../video-bitrates/tables.py').fmt

FIGURES = [('throughput_mbps', 'throughput (linkem IP) Mbit/s'), ('goodput_mbps', 'goodput Mbit/s'),
           ('queue_p95_ms', 'p95 queueing ms'),
           ('charged_by_controller_pct', "lossless MIs charged a latency penalty by the run's controller %"),
           ('penalised_pct', 'lossless MIs whose gradient passes the filter (before rule) %'),
           ('gradient_over_001_pct', 'lossless MIs with RTT gradient > 0.01 %'),
           ('penalised_send_gap_over_2ms_pct', 'charged MIs with a send gap > 2 ms %'),
           ('penalised_link_over_001_pct', "charged MIs whose linkem queue rose > 0.01 %"),
           ('penalised_ret_over_001_pct', 'charged MIs whose return leg rose > 0.01 %'),
           ('lossy_mi_pct', 'MIs with a loss %'), ('mi_target_mbps', 'MI target Mbit/s (after 2 s)'),
           ('mi_sent_mbps', 'MI sent Mbit/s'), ('mi_sent_over_target', 'sent / target')]

def hold_runs(hold):
    """Each run of a hold: its arm, repetition, folder, bench row and the hold log's start and end events."""
    events = {x['event']: x for x in map(json.loads, open(os.path.join(hold, 'holds.jsonl')))}
    for d in sorted(glob.glob(os.path.join(hold, '*-*[0-9]'))):
        if not os.path.isdir(d): continue
        arm, k = os.path.basename(d).rsplit('-', 1)
        for line in open(os.path.join(d, 'results.jsonl')):
            yield arm, k, d, json.loads(line), events.get(f'start {arm}-{k}', {}), events.get(f'end {arm}-{k}', {})

def rows(hold):
    for arm, k, d, r, start, end in hold_runs(hold):
        f = r.get('fidelity') or {}
        row = {'hold': os.path.basename(hold.rstrip('/')), 'arm': arm, 'rep': int(k), 'scheme': r['scheme'], 'run_id': r['run_id'], 'status': r['status'],
               'players': r.get('players', []), 'started_at': r['started_at'], 'commit': start.get('head'),
               'dirty': r['provenance']['dirty'], 'load_before': start.get('load1'), 'load_after': end.get('load1'),
               'wasm_sha256_16': start.get('wasm_sha256_16'), 'goodput_mbps': r['goodput_mbps'],
               'queue_p95_ms': r['queue_delay_p95_ms'], 'throughput_mbps': f.get('real_throughput_mbps'),
               'sim_throughput_mbps': f.get('sim_throughput_mbps'), 'cpu_mean_percent': f.get('cpu_mean_percent')}
        run = os.path.join(d, 'runs', *r['run_id'].split('/'))
        os.environ['PCC_REPLAY'] = os.environ[f'PCC_REPLAY_{arm.upper()}']
        dec = _load('decompose', 'decompose.py')
        got = dec.analyse(run)[0]
        row.update(dec.run_summary(got))
        sa = _load('subms', '../sub-ms-pacing/analyse.py'); sa.REPLAY = os.environ['PCC_REPLAY']
        mi = sa.mi_figures(glob.glob(os.path.join(run, 'record', '*.replay'))[0])
        row['lossy_mi_pct'] = mi['lossy_mi_pct']; row['mi_target_mbps'] = mi['mi_target_mbps']; row['mi_sent_mbps'] = mi['mi_sent_mbps']
        row['mi_sent_over_target'] = mi['mi_sent_over_target']
        # what the run's own controller charged: the filter alone before, the emission rule after (cac82f6)
        row['charged_by_controller_pct'] = row['penalised_after_rule_pct' if arm == 'after' else 'penalised_pct']
        print(json.dumps(row))

def table(path):
    rs = [json.loads(l) for l in open(path)]
    by = {(r['arm'], r['rep']): r for r in rs if r['status'] == 'ok'}
    reps = sorted({k for a, k in by if (('before', k) in by and ('after', k) in by)})
    print(f'vivace, 75 KB: before n = {sum(a == "before" for a, _ in by)}; after n = {sum(a == "after" for a, _ in by)}; pairs {len(reps)}')
    print('| figure | before | after | after − before, paired |\n| --- | --- | --- | --- |')
    for key, label in FIGURES:
        b = [by[('before', k)][key] for k in reps]; a = [by[('after', k)][key] for k in reps]
        d = 3 if 'over_target' in key else 1 if 'pct' in key or 'mbps' in key else 2
        print(f'| {label} | {fmt(b, d)} | {fmt(a, d)} | {fmt([y - x for x, y in zip(b, a)], d)} (n = {len(reps)}) |')

if __name__ == '__main__':
    rows(sys.argv[2]) if sys.argv[1] == 'rows' else table(sys.argv[2])
