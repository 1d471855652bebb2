#!/usr/bin/env python3
"""sub-ms-pacing: per run of hold.sh, and tables per pacing burst with paired differences against 1000 µs.
  python3 analyse.py collect HOLD_DIR... > results.jsonl   (one row per run; needs each run's recording and link log)
  python3 analyse.py tables results.jsonl [SCHEME]           (means ± 95% Student-t; paired by hold and repetition)

Per run: the bench's goodput, linkem IP throughput and p95 queueing; startup t90 from linkem's log
(../startup/startup.py); ms above line rate at the sender's stamps and at linkem's arrivals (../bulk-75kb/
per_ms_bursts.py, run as is); origin CPU per datagram (fidelity.json's per-second origin CPU over session.closed's
packets_sent, as ../origin-cpu/tables.py) and send-loop turns per datagram; and at sub-ms scale, from the recording's
send stamps: the queue a 100 Mbit/s, 75 KB droptail link would hold when each packet arrives (queue_slopes.py's model,
43 B of headers a packet) and the back-to-back trains (packets sent < 20 µs apart)."""
import glob, importlib.util, json, os, re, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
def _load(name, rel):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, '..', rel))
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
_vb = _load('vb_tables', 'video-bitrates/tables.py'); ci, fmt = _vb.ci, _vb.fmt
link_log = _load('startup', 'startup/startup.py').link_log
PER_MS = os.path.join(HERE, '..', 'bulk-75kb', 'per_ms_bursts.py')
LINE_B_PER_US = 100e6 / 8 / 1e6
HEADER_B = 43
BUFFER_B = 75000
TRAIN_GAP_US = 20

def pct(xs, p):
    s = sorted(xs); return s[min(len(s) - 1, int(p / 100 * len(s)))]

def sub_ms(rec):
    sends = []
    for line in open(rec):
        if line.startswith('sent '):
            _, _, b, t = line.split(); sends.append((float(t), int(b) + HEADER_B))
    t0 = sends[0][0]; sends = [(t, b) for t, b in sends if 3e6 < t - t0 < sends[-1][0] - t0 - 1e6]  # as per_ms_bursts
    q = 0.0; last = None; qs = []; trains = []; train = 0
    for t, b in sends:
        if last is not None:
            q = max(0.0, q - (t - last) * LINE_B_PER_US)
            if t - last >= TRAIN_GAP_US: trains.append(train); train = 0
        last = t; train += b
        if q + b <= BUFFER_B: q += b  # beyond the 75 KB droptail buffer the model drops it
        qs.append(q / LINE_B_PER_US)
    trains.append(train)
    return {'model_queue_us_p50': round(pct(qs, 50)), 'model_queue_us_p95': round(pct(qs, 95)), 'model_queue_us_p99': round(pct(qs, 99)),
            'model_queue_over_1ms_pct': round(100 * sum(x > 1000 for x in qs) / len(qs), 2),
            'train_bytes_p50': pct(trains, 50), 'train_bytes_p99': pct(trains, 99), 'train_bytes_max': max(trains)}

REPLAY = os.path.join(HERE, '..', '..', '..', '..', 'controller-wasm', 'build', 'pcc-replay')

def mi_figures(rec):
    """The recording's MIs after the first 2 s (not app-limited or timed out), weighted by duration: target and sent
    rate, and the share of lossless MIs whose RTT gradient exceeds flt_latency (0.01, thesis Table 4.1)."""
    out = subprocess.run([REPLAY, '--mi', rec], capture_output=True, text=True, check=True).stdout
    ms = [json.loads(l) for l in out.splitlines()]; t0 = ms[0]['startUs']
    ms = [m for m in ms if m['startUs'] - t0 > 2e6 and not m['appLimited'] and not m['timedOut'] and m['sendRateBps'] > 0]
    w = sum(m['durationUs'] for m in ms); lossless = [m for m in ms if m['packetsLost'] == 0]
    target = sum(m['targetRateBps'] * m['durationUs'] for m in ms) / w / 1e6
    sent = sum(m['sendRateBps'] * m['durationUs'] for m in ms) / w / 1e6
    return {'mi_target_mbps': round(target, 1), 'mi_sent_mbps': round(sent, 1), 'mi_sent_over_target': round(sent / target, 3),
            'lossy_mi_pct': round(100 * (len(ms) - len(lossless)) / len(ms), 1),
            'lossless_mi_gradient_pct': round(100 * sum(m['rttGradient'] > 0.01 for m in lossless) / len(lossless), 1)}

def link_throughput_mbps(link):
    """IP bytes leaving linkem's bottleneck (its '-' lines) over the span from the first to the last, Mbit/s: for runs
    with no fidelity report (pcc-uspace)."""
    ts = []; total = 0
    for line in open(link):
        p = line.split()
        if line[0] != '#' and len(p) >= 3 and p[1] == '-': ts.append(int(p[0])); total += int(p[2])
    return round(total * 8 / ((ts[-1] - ts[0]) / 1000) / 1e6, 2)

def per_ms(rec, link):
    out = subprocess.run([sys.executable, PER_MS, rec, link], capture_output=True, text=True, check=True).stdout
    got = {}
    for line in out.splitlines():
        who = 'sender' if line.startswith('sender') else 'linkem'
        got[f'{who}_ms_above_line_pct'] = float(re.search(r'ms above 12.5 KB \(>100 Mbit/s\) ([\d.]+)%', line).group(1))
        got[f'{who}_empty_ms_pct'] = float(re.search(r'empty ms ([\d.]+)%', line).group(1))
        got[f'{who}_5ms_above_line_pct'] = float(re.search(r'5-ms windows above 62.5 KB ([\d.]+)%', line).group(1))
    return got

def collect(hold_dirs):
    for hold in hold_dirs:
        events = {x['event']: x for x in map(json.loads, open(os.path.join(hold, 'holds.jsonl')))}
        for d in sorted(glob.glob(os.path.join(hold, 'b*-*'))):
            if not os.path.isdir(d): continue
            name = os.path.basename(d); burst, rep = name[1:].split('-')
            for line in open(os.path.join(d, 'results.jsonl')):
                r = json.loads(line)
                run = os.path.join(d, 'runs', *r['run_id'].split('/'))
                row = {'hold': os.path.basename(hold.rstrip('/')), 'burst_us': int(burst), 'rep': int(rep), 'scheme': r['scheme'],
                       'run_id': r['run_id'], 'status': r['status'], 'players': r['players'], 'started_at': r['started_at'], 'origin_args': r.get('origin_args'),
                       'commit': r['provenance']['commit'][:7], 'dirty': r['provenance']['dirty'],
                       'load_before': events[f'start {name}']['load1'], 'load_after': events[f'end {name}']['load1'],
                       'wasm_sha256_16': events[f'start {name}']['wasm_sha256_16'],
                       'goodput_mbps': r['goodput_mbps'], 'queue_p95_ms': r['queue_delay_p95_ms']}
                f = r.get('fidelity')
                if f:  # pcc-uspace runs have no fidelity report (not our origin)
                    row.update({'throughput_mbps': round(f['real_throughput_mbps'], 2), 'cpu_mean_percent': f['cpu_mean_percent'],
                                'cpu_wait_mean_percent': f['cpu_wait_mean_percent']})
                link = os.path.join(run, 'link-down.log')
                if not f: row['throughput_mbps'] = link_throughput_mbps(link)
                t90, first2 = link_log(link); row['t90_s'] = t90; row['first2s_mbps'] = round(first2, 1)
                olog = os.path.join(run, 'origin.log')
                if os.path.exists(olog):
                    log = [json.loads(l) for l in open(olog) if l.startswith('{')]
                    sc = next((x for x in log if x.get('event') == 'session.closed' and 'packets_sent' in x), None)
                    sl = next((x for x in log if x.get('event') == 'send_loop.idle'), None)
                    real = json.load(open(os.path.join(run, 'fidelity.json')))['real']
                    cpu_s = sum(s.get('cpu', {}).get('origin', 0) for s in real) / 100
                    if sc:
                        row.update({'datagrams_sent': sc['packets_sent'], 'origin_us_per_datagram': round(cpu_s * 1e6 / sc['packets_sent'], 1),
                                    'datagrams_per_turn': round(sc['packets_sent'] / sc['service_turns'], 2), 'max_burst_bytes': sc['max_burst_bytes']})
                    if sl: row['send_loop'] = sl
                recs = glob.glob(os.path.join(run, 'record', '*.replay'))
                if recs:
                    row.update(per_ms(recs[0], link)); row.update(sub_ms(recs[0])); row.update(mi_figures(recs[0]))
                print(json.dumps(row), flush=True)

FIGURES = [('throughput (linkem IP) Mbit/s', 'throughput_mbps', 1), ('goodput Mbit/s', 'goodput_mbps', 1), ('p95 queueing ms', 'queue_p95_ms', 2),
           ('origin CPU µs/datagram', 'origin_us_per_datagram', 1), ('origin CPU % of a core', lambda r: r['cpu_mean_percent']['origin'], 1),
           ('origin waiting for a core %', lambda r: r['cpu_wait_mean_percent']['origin'], 0), ('datagrams per send turn', 'datagrams_per_turn', 2),
           ('ms above line rate, sender stamps %', 'sender_ms_above_line_pct', 1), ('ms above line rate, linkem arrivals %', 'linkem_ms_above_line_pct', 1),
           ('empty ms, linkem arrivals %', 'linkem_empty_ms_pct', 1), ('5-ms windows above line rate, linkem %', 'linkem_5ms_above_line_pct', 1),
           ('model queue p95 µs (send stamps)', 'model_queue_us_p95', 0), ('model queue p99 µs', 'model_queue_us_p99', 0),
           ('model queue > 1 ms, % of packets', 'model_queue_over_1ms_pct', 2), ('train bytes p99', 'train_bytes_p99', 0),
           ('first 2 s Mbit/s (linkem)', 'first2s_mbps', 1), ('MI target Mbit/s (after 2 s)', 'mi_target_mbps', 1),
           ('MI sent Mbit/s', 'mi_sent_mbps', 1), ('sent / target', 'mi_sent_over_target', 3), ('MIs with a loss %', 'lossy_mi_pct', 1),
           ('lossless MIs with RTT gradient > 0.01 %', 'lossless_mi_gradient_pct', 1)]

def tables(path, scheme):
    rows = [json.loads(l) for l in open(path)]
    rows = [r for r in rows if r['scheme'] == scheme and r['status'] == 'ok']
    def get(r, f):
        try: return f(r) if callable(f) else r.get(f)
        except KeyError: return None
    bursts = sorted({r['burst_us'] for r in rows}, reverse=True)
    by = {(r['hold'], r['rep'], r['burst_us']): r for r in rows}
    base = bursts[0]
    print(f'{scheme}: ' + '; '.join(f"{b} µs n = {sum(1 for r in rows if r['burst_us'] == b)}" for b in bursts))
    print('| figure | ' + ' | '.join(f'{b} µs' for b in bursts) + ' | ' + ' | '.join(f'{b} − {base}, paired' for b in bursts[1:]) + ' |')
    print('| --- ' * (1 + 2 * len(bursts) - 1) + '|')
    for name, f, dg in FIGURES:
        cells = []
        for b in bursts:
            xs = [get(r, f) for r in rows if r['burst_us'] == b and get(r, f) is not None]
            cells.append(fmt(xs, dg) if xs else '–')
        for b in bursts[1:]:
            keys = [(h, k) for (h, k, bb) in by if bb == b and (h, k, base) in by]
            d = [get(by[(h, k, b)], f) - get(by[(h, k, base)], f) for h, k in sorted(keys)
                 if get(by[(h, k, b)], f) is not None and get(by[(h, k, base)], f) is not None]
            cells.append(fmt(d, dg) + f' (n = {len(d)})' if d else '–')
        print(f'| {name} | ' + ' | '.join(cells) + ' |')
    for b in bursts:
        t = [r['t90_s'] for r in rows if r['burst_us'] == b]
        print(f"- {b} µs: t90 per run {t}; within 2 s: {sum(1 for x in t if x is not None and x <= 2)} of {len(t)}")

if __name__ == '__main__':
    if sys.argv[1] == 'collect': collect(sys.argv[2:])
    else: tables(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else 'vivace')
