#!/usr/bin/env python3
"""addon-pacer: results.jsonl from hold.sh's folders, and the paired table (--pacer loop vs addon).
  python3 analyse.py rows HOLD_DIR... > results.jsonl   (../pacing-catchup-spread/analyse.py's rows: one bench-format row
                                                         per run with its figures; plus the origin's session.closed
                                                         pacer and hand-over lag)
  python3 analyse.py table results.jsonl                (means ± 95 % Student t per arm, paired addon − loop)
The hand-over lag is, for loop, how much later than its turn began QUIC took each datagram; for addon, how much later
than its due time the addon's pacer handed it to QUIC."""
import contextlib, importlib.util, io, json, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
def _load(name, rel):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, rel))
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
spread = _load('pcs_analyse', '../pacing-catchup-spread/analyse.py')
ARMS = ('loop', 'addon')
FIGURES = spread.FIGURES + [('mean_handover_lag_us', 'hand-over lag mean µs (loop: after the turn began; addon: after the due time)', 0),
                            ('max_handover_lag_us', 'hand-over lag max µs', 0)]

def rows(hold):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        spread.rows(hold)
    for line in out.getvalue().splitlines():
        row = json.loads(line)
        run = os.path.join(hold, f"{row['arm']}-{row['rep']}", 'runs', *row['run_id'].split('/'))
        log = [json.loads(l) for l in open(os.path.join(run, 'origin.log')) if l.startswith('{')]
        sc = next((x for x in log if x.get('event') == 'session.closed' and 'packets_sent' in x), {})
        row.update({k: sc.get(k) for k in ('pacer', 'mean_handover_lag_us', 'max_handover_lag_us')})
        row['addon_sha256_16'] = open(os.path.join(hold, 'addon-sha256.txt')).read().split()[0]
        print(json.dumps(row), flush=True)

def table(path):
    spread.table(path, ARMS, FIGURES)

if __name__ == '__main__':
    if sys.argv[1] == 'rows':
        for h in sys.argv[2:]: rows(h)
    else: table(sys.argv[2])
