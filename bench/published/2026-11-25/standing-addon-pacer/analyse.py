#!/usr/bin/env python3
"""standing-addon-pacer: per-run figures of ../standing-3a6cc7d/hold.sh's bench folders, and where the queue came from.
  python3 analyse.py runs HOLDS_JSONL OUT_DIR... > runs.jsonl
Per run: ../bulk-baseline-a6262f6/collect.py's figures (IP throughput at linkem over 20 s, goodput, p95 queueing, wire
bytes per byte delivered, t90 and first 2 s by ../startup/startup.py); ../startup/summarise.py's slow-start end (run
as is); the WASM sha256 and 1-min load logged nearest before the run (HOLDS_JSONL, hold.sh's log); the origin's
pacer and its stalls with the send loop descheduled (session.closed); for our schemes the MIs after 2 s from the
recording, replayed with $PCC_REPLAY (../sub-ms-pacing/analyse.py mi_figures: target, sent, sent / target); and the
queue's phases from linkem's per-packet queueing delay (../bulk-baseline-a6262f6/linklog.py):
  slow start = packets that entered linkem before the first packet queued < 2 ms that entered at least 3 smoothed RTTs
  after the controller left slow start (its telemetry's first MI in another state): slow start's last MIs, opened
  before the exit was decided, are sent for about that long, and the queue they build is slow start's until it
  drains; after = the rest (probing).
  ss_* / after_*: packets, share of the run's packets queued > 5 ms that fell in the phase, p95 queueing in the phase;
  after_hi_target_ip_mbps: the controller's target (telemetry rate_bps, in IP Mbit/s: 1476 B per 1421-B QUIC packet) when
  each after-phase packet queued > 5 ms entered, median.
ip_after2s_mbps: IP bytes linkem delivered from 2 s to 20 s after its first arrival, per second; mi_target_ip_mbps /
mi_sent_ip_mbps: mi_figures' target and sent (QUIC packet bytes) in IP terms, to set beside it."""
import datetime, glob, importlib.util, json, os, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
def _load(name, rel):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, '..', rel))
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
collect = _load('bb_collect', 'bulk-baseline-a6262f6/collect.py')
linklog = _load('bb_linklog', 'bulk-baseline-a6262f6/linklog.py')
subms = _load('subms', 'sub-ms-pacing/analyse.py')
SUMMARISE = os.path.join(HERE, '..', 'startup', 'summarise.py')
IP_PER_PAYLOAD = 1476 / 1421  # linkem's IP packet per recorded QUIC packet (mss_bytes 1421) in these runs
HIGH_MS, DRAINED_MS = 5, 2

def pct(xs, p):
    s = sorted(xs); return s[min(len(s) - 1, int(p / 100 * len(s)))] if s else None

def when(s):
    return datetime.datetime.fromisoformat(s.replace('Z', '+00:00'))

def telemetry(run):
    tel = sorted(glob.glob(os.path.join(run, 'telemetry', '*.jsonl')))
    return [json.loads(l) for l in open(tel[0])] if tel else []

def queue_phases(run, recs):
    """The run's queueing split into slow start's and the rest's (module docstring)."""
    deps = [(t - q, q) for t, kind, _, q in linklog.events(run) if kind == '-' and q is not None]
    t0 = recs[0]['t_us']
    exit_rec = next((r for r in recs if r['state'] != 'slow_start'), None)
    if exit_rec is None: return {}
    ss_end_ms = (exit_rec['t_us'] - t0) / 1000
    look_from = ss_end_ms + 3 * exit_rec['srtt_us'] / 1000
    drained = next((a for a, q in deps if a >= look_from and q < DRAINED_MS), look_from)
    ss = [q for a, q in deps if a < drained]; after = [(a, q) for a, q in deps if a >= drained]
    hi = sum(q > HIGH_MS for _, q in deps) or 1
    rates = [((r['t_us'] - t0) / 1000, r['rate_bps']) for r in recs]
    hi_targets, i = [], 0
    for a, q in after:
        while i + 1 < len(rates) and rates[i + 1][0] <= a: i += 1
        if q > HIGH_MS: hi_targets.append(rates[i][1] * IP_PER_PAYLOAD / 1e6)
    ss_max = max((r['rate_bps'] for r in recs if r['state'] == 'slow_start'), default=0)
    return {'ss_end_s': round(ss_end_ms / 1000, 2), 'ss_queue_drained_s': round(drained / 1000, 2),
            'ss_peak_target_ip_mbps': round(ss_max * IP_PER_PAYLOAD / 1e6, 1),
            'ss_packets': len(ss), 'ss_share_of_high_pct': round(100 * sum(q > HIGH_MS for q in ss) / hi, 1),
            'ss_p95_ms': pct(ss, 95), 'ss_max_ms': max(ss, default=None),
            'after_packets': len(after), 'after_share_of_high_pct': round(100 * sum(q > HIGH_MS for _, q in after) / hi, 1),
            'after_p95_ms': pct([q for _, q in after], 95), 'after_high_packets': len(hi_targets),
            'after_hi_target_ip_mbps': hi_targets and round(pct(hi_targets, 50), 1)}

def runs(holds_path, outs):
    holds = sorted(((when(e['at']), e) for e in map(json.loads, open(holds_path))), key=lambda x: x[0])
    for out in outs:
        starts = {}
        for line in subprocess.run([sys.executable, SUMMARISE, os.path.basename(out), out], capture_output=True, text=True,
                                   check=True).stdout.splitlines():
            s = json.loads(line); starts[s['run_id']] = s
        for row in collect.collect(out):
            run = os.path.join(out, 'runs', *row['run_id'].split('/'))
            log = [e for t, e in holds if t <= when(row['started_at'])]
            row.update({'hold_dir': os.path.basename(out), 'wasm_sha256_16': log[-1]['wasm_sha256_16'] if log else None,
                        'load1_before': log[-1]['load1'] if log else None})
            s = starts.get(row['run_id'], {})
            row.update({k: s.get(k) for k in ('slow_start_end_s', 'slow_start_last_mbps', 'after_slow_start_mbps',
                                               'target_first2s_mbps')})
            closed = {}
            if os.path.exists(os.path.join(run, 'origin.log')):
                recs_log = [json.loads(l) for l in open(os.path.join(run, 'origin.log')) if l.startswith('{')]
                closed = next((x for x in recs_log if x.get('event') == 'session.closed' and 'packets_sent' in x), {})
            row.update({k: closed.get(k) for k in ('pacer', 'stall_descheduled', 'stall_descheduled_ms')})
            rec = glob.glob(os.path.join(run, 'record', '*.replay'))
            if rec and row['status'] == 'ok':
                row.update(subms.mi_figures(rec[0]))
                row.update({'mi_target_ip_mbps': round(row['mi_target_mbps'] * IP_PER_PAYLOAD, 1),
                            'mi_sent_ip_mbps': round(row['mi_sent_mbps'] * IP_PER_PAYLOAD, 1)})
            if row['status'] == 'ok':
                row['ip_after2s_mbps'] = round(sum(b for t, k, b, _ in linklog.events(run) if k == '-' and 2000 <= t < 20000)
                                               * 8 / 18 / 1e6, 2)
            recs = telemetry(run)
            if recs and row['status'] == 'ok':
                row.update(queue_phases(run, recs))
            print(json.dumps(row), flush=True)

if __name__ == '__main__':
    if sys.argv[1] == 'runs':
        subms.REPLAY = os.environ.get('PCC_REPLAY', subms.REPLAY)
        runs(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)
