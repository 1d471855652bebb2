#!/usr/bin/env python3
"""pacing-catchup-spread: results.jsonl from hold.sh's folders, and the paired table (burst vs spread).
  python3 analyse.py rows HOLD_DIR... > results.jsonl   (one bench-format row per run, with the hold's loads, HEAD, WASM
                                                         hash, ../latency-noise-source/decompose.py's figures from the
                                                         run's recording, replayed with HOLD_DIR/pcc-replay)
  python3 analyse.py table results.jsonl                (means ± 95 % Student t per arm, paired spread − burst)
Figures: linkem IP throughput (the fidelity report), goodput and p95 queueing (the bench row); the MIs after 2 s
(../sub-ms-pacing/analyse.py mi_figures): target, sent, sent / target; the lossless MIs the run's controller charged a
latency penalty (decompose.py's 'by the emission rule', the C the runs used); linkem's queue drops (link-summary.json); origin CPU µs per datagram and
datagrams per send turn (../sub-ms-pacing/analyse.py's definitions); the sender's debt and stall counters are not
logged, so the catch-up is seen through the MI send rates and the busiest 5 ms."""
import glob, importlib.util, json, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
def _load(name, rel):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, rel))
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
fmt = _load('vb_tables', '../video-bitrates/tables.py').fmt
ARMS = ('burst', 'spread')

FIGURES = [('throughput_mbps', 'throughput (linkem IP) Mbit/s', 1), ('goodput_mbps', 'goodput Mbit/s', 1),
           ('queue_p95_ms', 'p95 queueing ms', 2), ('mi_target_mbps', 'MI target Mbit/s (after 2 s)', 1),
           ('mi_sent_mbps', 'MI sent Mbit/s', 1), ('mi_sent_over_target', 'sent / target', 3),
           ('penalised_after_rule_pct', "lossless MIs charged a latency penalty (the runs' controller) %", 1),
           ('gradient_over_001_pct', 'lossless MIs with RTT gradient > 0.01 %', 1),
           ('penalised_link_over_001_pct', "charged MIs whose linkem queue rose > 0.01 %", 1),
           ('penalised_send_gap_over_2ms_pct', 'charged MIs with a send gap > 2 ms %', 1),
           ('penalised_median_busiest_5ms_ip_mbps', 'charged MIs: median busiest 5 ms, IP Mbit/s', 1),
           ('queue_drop_pct', "linkem queue drops, % of packets", 2), ('lossy_mi_pct', 'MIs with a loss %', 1), ('origin_us_per_datagram', 'origin CPU µs/datagram', 1),
           ('origin_cpu_pct', 'origin CPU % of a core', 1), ('datagrams_per_turn', 'datagrams per send turn', 2),
           ('send_turn_late_p99_us', "send-loop turns' lateness p99 µs (the origin's send_loop.idle)", 0),
           ('load_before', '1-min load at the run start', 2)]

def rows(hold):
    os.environ['PCC_REPLAY'] = os.path.join(os.path.abspath(hold), 'pcc-replay')
    dec = _load('decompose', '../latency-noise-source/decompose.py')
    sa = _load('subms', '../sub-ms-pacing/analyse.py'); sa.REPLAY = os.environ['PCC_REPLAY']
    for arm, k, d, r, start, end in _load('lns_collect', '../latency-noise-source/collect.py').hold_runs(hold):
        f = r.get('fidelity') or {}
        row = {**r, 'hold': os.path.basename(hold.rstrip('/')), 'arm': arm, 'rep': int(k), 'commit': start.get('head'),
               'load_before': start.get('load1'), 'load_after': end.get('load1'), 'wasm_sha256_16': start.get('wasm_sha256_16'),
               'queue_p95_ms': r['queue_delay_p95_ms'], 'throughput_mbps': f.get('real_throughput_mbps')}
        row.pop('fidelity', None)  # its per-second series is large; the figures used are above
        row['players'] = r.get('players', [])
        run = os.path.join(d, 'runs', *r['run_id'].split('/'))
        row.update(dec.run_summary(dec.analyse(run)[0]))
        rec = glob.glob(os.path.join(run, 'record', '*.replay'))[0]
        row.update(sa.mi_figures(rec))
        log = [json.loads(l) for l in open(os.path.join(run, 'origin.log')) if l.startswith('{')]
        sc = next((x for x in log if x.get('event') == 'session.closed' and 'packets_sent' in x), None)
        sl = next((x for x in log if x.get('event') == 'send_loop.idle'), {})
        row['send_turn_late_p99_us'] = sl.get('planned_late_p99_us')
        real = json.load(open(os.path.join(run, 'fidelity.json')))['real']
        cpu_s = sum(s.get('cpu', {}).get('origin', 0) for s in real) / 100
        row['origin_cpu_pct'] = (f.get('cpu_mean_percent') or {}).get('origin')
        down = json.load(open(os.path.join(run, 'link-summary.json')))['down']
        row['queue_drop_pct'] = round(100 * down['queueDropPackets'] / down['ingressPackets'], 3)
        if sc:
            row['origin_us_per_datagram'] = round(cpu_s * 1e6 / sc['packets_sent'], 1)
            row['datagrams_per_turn'] = round(sc['packets_sent'] / sc['service_turns'], 2)
        print(json.dumps(row), flush=True)

def table(path, arms=ARMS, figures=FIGURES):
    """Means ± 95 % t per arm and paired arms[1] − arms[0], for each figure present (also ../addon-pacer/analyse.py's)."""
    a0, a1 = arms
    rs = [json.loads(l) for l in open(path)]
    by = {(r['arm'], r['hold'], r['rep']): r for r in rs if r['status'] == 'ok'}
    keys = sorted({(h, k) for a, h, k in by if all((b, h, k) in by for b in arms)})
    print(f"vivace, 75 KB: {a0} n = {sum(a == a0 for a, _, _ in by)}; {a1} n = {sum(a == a1 for a, _, _ in by)}; pairs {len(keys)}")
    print(f'| figure | {a0} (today) | {a1} | {a1} − {a0}, paired |\n| --- | --- | --- | --- |')
    for key, label, dg in figures:
        pairs = [(by[(a0, h, k)].get(key), by[(a1, h, k)].get(key)) for h, k in keys]
        pairs = [(x, y) for x, y in pairs if x is not None and y is not None]
        if not pairs: continue
        xs = [x for x, _ in pairs]; ys = [y for _, y in pairs]
        print(f'| {label} | {fmt(xs, dg)} | {fmt(ys, dg)} | {fmt([y - x for x, y in pairs], dg)} (n = {len(pairs)}) |')

if __name__ == '__main__':
    if sys.argv[1] == 'rows':
        for h in sys.argv[2:]: rows(h)
    else: table(sys.argv[2])
