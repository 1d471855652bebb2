#!/usr/bin/env python3
"""results.jsonl of this folder from the bench outputs: every completed run of OUT/SCEN/ARM/results.jsonl, with the
runs of REDO (same layout) replacing OUT's runs of the same scenario and repetition (ATT-LTE-driving pair 1: its first
hold's tcp-cubic run failed on a half-edited server/src/origin.ts of another helper, and its vv run predates c8b148e's
CMSD etp rule that the later runs had; the whole pair was run again in one hold).
Usage: python3 assemble.py OUT [REDO] > results.jsonl"""
import glob
import json
import os
import sys


def rows(out):
    for path in sorted(glob.glob(os.path.join(out, '*', '*', 'results.jsonl'))):
        for line in open(path):
            r = json.loads(line)
            if r['status'] == 'ok' and r['players']:
                yield r


redo = list(rows(sys.argv[2])) if len(sys.argv) > 2 else []
replaced = {(r['scenario'], r['repetition']) for r in redo}
for r in [r for r in rows(sys.argv[1]) if (r['scenario'], r['repetition']) not in replaced] + redo:
    print(json.dumps(r))
