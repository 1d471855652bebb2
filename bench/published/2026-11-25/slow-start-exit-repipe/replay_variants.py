#!/usr/bin/env python3
"""Open-loop replay (pcc-replay --mi: the recorded acks, the controller's decisions recomputed) of bulk recordings with
slow_start_exit_repipe set to each VALUE (a line `param slow_start_exit_repipe VALUE` after the recording's first param):
the mean MI target 0.75-2 s after the session's first MI, Mbit/s of QUIC payload.
  python3 replay_variants.py PCC_REPLAY VALUES RECORDING...   (VALUES e.g. 0,1,2,3,4,5; 2-5 need variants.diff)"""
import json, os, subprocess, sys, tempfile

def mean_target(tool, text):
    with tempfile.NamedTemporaryFile('w', suffix='.replay', delete=False) as f:
        f.write(text)
    out = subprocess.run(['nice', '-n', '10', tool, '--mi', f.name], capture_output=True, text=True).stdout
    os.unlink(f.name)
    rows = [json.loads(line) for line in out.splitlines() if line.startswith('{')]
    t0 = rows[0]['startUs']
    post = [r['targetRateBps'] for r in rows if 0.75e6 < r['startUs'] - t0 < 2e6]
    return sum(post) / len(post) / 1e6

tool, values = sys.argv[1], [int(v) for v in sys.argv[2].split(',')]
for rec in sys.argv[3:]:
    lines = open(rec).read().split('\n')
    at = next(i for i, line in enumerate(lines) if line.startswith('param ')) + 1
    lines = [line for line in lines if not line.startswith('param slow_start_exit_repipe ')]
    name = rec.split('/runs/')[-1].split('/record')[0]
    cells = [f'{v}: {mean_target(tool, chr(10).join(lines[:at] + [f"param slow_start_exit_repipe {v}"] + lines[at:])):.1f}' for v in values]
    print(name, ' '.join(cells))
