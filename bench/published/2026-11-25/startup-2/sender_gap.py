#!/usr/bin/env python3
"""What the controller asked for and what the sender put on the wire in a session's first 2 s, from its recording
(--record): python3 sender_gap.py LABEL REPLAY...  -> one JSON line per recording.
target_mbps: the controller's pacing rate, time-weighted over [0.5 s, 2 s) after the first packet, replayed through
the pcc-replay on PATH's controller-wasm/build (PCC_REPLAY overrides); sent_mbps: the recorded sends' payload bytes
over the same window; short_mis: of the MIs that started in [0, 2 s), how many sent < 95% of their target (pcc-replay
--mi); slow_start_last_mbps: the rate of the last slow-start MI."""
import json, os, subprocess, sys

REPLAY = os.environ.get('PCC_REPLAY', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'controller-wasm', 'build', 'pcc-replay'))
A, B = 0.5, 2.0

def inputs(text):
    return '\n'.join(l for l in text.split('\n') if not l.startswith('expect '))

label = sys.argv[1]
for path in sys.argv[2:]:
    text = inputs(open(path).read())
    times, first, sent_bytes = {}, None, 0
    for i, line in enumerate(text.split('\n'), 1):
        p = line.split()
        if not p or p[0] not in ('sent', 'ack', 'loss', 'tick', 'app_state', 'app_limited'): continue
        t = int(p[-1]); times[i] = t
        if p[0] == 'sent':
            first = t if first is None else first
            if A <= (t - first) / 1e6 < B: sent_bytes += int(p[2])
    steps = [json.loads(l) for l in subprocess.run([REPLAY], input=text, capture_output=True, text=True, check=True).stdout.split('\n') if l]
    pts = [((times.get(s['line'], first) - first) / 1e6, s['telemetry']['pacingRateBps'], s['telemetry']['state'], s['telemetry']['lastMiRateBps']) for s in steps]
    area = sum(v * (max(0, min(t2, B) - max(t1, A))) for (t1, v, _, _), (t2, _, _, _) in zip(pts, pts[1:]))
    ss_last = next((last for _, _, st, last in pts if st != 'slow_start'), None)
    mis = [json.loads(l) for l in subprocess.run([REPLAY, '--mi'], input=text, capture_output=True, text=True, check=True).stdout.split('\n') if l]
    early = [m for m in mis if (m['startUs'] - first) / 1e6 < B and m['targetRateBps'] > 0]
    short = sum(1 for m in early if m['sendRateBps'] < 0.95 * m['targetRateBps'])
    print(json.dumps({'label': label, 'recording': path.split('/runs/')[-1] if '/runs/' in path else os.path.basename(path),
                      'target_mbps': round(area / (B - A) / 1e6, 1), 'sent_mbps': round(sent_bytes * 8 / (B - A) / 1e6, 1),
                      'short_mis': f'{short} of {len(early)}', 'slow_start_last_mbps': ss_last and round(ss_last / 1e6, 1)}))
