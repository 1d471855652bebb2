#!/usr/bin/env python3
"""addon-pacer-2: results.jsonl from ../addon-pacer/hold.sh's folders, and the paired table (--pacer loop vs addon),
after the addon pacer's batched, unlocked release.
  python3 analyse.py rows HOLD_DIR... > results.jsonl   (../addon-pacer/analyse.py's rows, plus the origin's stall
                                                         counters from session.closed)
  python3 analyse.py table results.jsonl                (means ± 95 % Student t per arm, paired addon − loop)
Stalls are gaps of ≥ 5 ms between departures while the session had data (server/src/datagram/stall-reasons.ts):
'descheduled' = the send loop's turns began late (the process not running), so with --pacer addon the pacer's queue
ran dry; their total is the sending time lost to a late event loop beyond the look-ahead."""
import contextlib, importlib.util, io, json, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
def _load(name, rel):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, rel))
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
first = _load('addon_pacer_analyse', '../addon-pacer/analyse.py')
STALLS = ('stall_descheduled', 'stall_descheduled_ms', 'stall_event_loop_busy_ms', 'stall_tokens_ms', 'backpressure_events',
          'max_burst_bytes')
FIGURES = first.FIGURES + [('stall_descheduled', 'stalls ≥ 5 ms with the send loop descheduled, count', 1),
                           ('stall_descheduled_ms', 'stalls ≥ 5 ms with the send loop descheduled, total ms', 0),
                           ('stall_event_loop_busy_ms', 'stalls ≥ 5 ms with the event loop busy, total ms', 0),
                           ('stall_tokens_ms', 'stalls ≥ 5 ms while pacing held the sender, total ms', 0),
                           ('backpressure_events', "QUIC's send buffer full (turns)", 1)]

def session_closed(hold, row):
    """The origin's session.closed record (the one with the sender's counters) of a row's run."""
    log = os.path.join(hold, f"{row['arm']}-{row['rep']}", 'runs', *row['run_id'].split('/'), 'origin.log')
    with open(log) as f:
        records = [json.loads(l) for l in f if l.startswith('{')]
    return next((x for x in records if x.get('event') == 'session.closed' and 'packets_sent' in x), {})

def rows(hold):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        first.rows(hold)
    for row in map(json.loads, out.getvalue().splitlines()):
        closed = session_closed(hold, row)
        print(json.dumps({**row, **{k: closed.get(k) for k in STALLS}}), flush=True)

if __name__ == '__main__':
    if sys.argv[1] == 'rows':
        for h in sys.argv[2:]: rows(h)
    else: first.spread.table(sys.argv[2], first.ARMS, FIGURES)
