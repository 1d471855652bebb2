#!/usr/bin/env python3
"""Per real-path run: its start (UTC), the 1-min load at its start and end, HEAD and the WASM's sha256 prefix, from
this folder's holds.jsonl (../../hold_note.sh). Usage: python3 loads.py holds.jsonl"""
import json
import sys

starts = {}
print('| run | start UTC | load at start | load at end | HEAD | WASM |')
print('| --- | --- | --- | --- | --- | --- |')
for line in open(sys.argv[1]):
    e = json.loads(line)
    words = e['event'].split()
    if words[0] == 'start':
        starts[(words[1], words[2])] = e
    elif words[0] == 'end' and (words[1], words[2]) in starts:
        s = starts.pop((words[1], words[2]))
        print(f"| {words[1]} {words[2]} | {s['at'][11:19]} | {s['load1']} | {e['load1']} | {s['head']} | {s['wasm']} |")
