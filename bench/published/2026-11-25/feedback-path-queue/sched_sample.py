#!/usr/bin/env python3
"""Samples every ~10 ms, during a bench run, each thread's scheduler counters (/proc/PID/task/TID/schedstat: time
on CPU, time runnable but waiting for a CPU) of the origin (origin-main.ts) and the Node fetch client,
with the wall clock (linkem's logs date from an epoch-ms init timestamp). Prints a line per thread whose counters
moved: `EPOCH_S ROLE TID COMM RUN_NS WAIT_NS`. Usage: sched_sample.py OUT_FILE SECONDS"""
import os, sys, time

def role(pid):
    try: cmd = open(f'/proc/{pid}/cmdline', 'rb').read().replace(b'\0', b' ').decode(errors='replace')
    except OSError: return None
    if 'fetch-main' in cmd: return 'client'
    if 'origin-main' in cmd: return 'origin'
    return None

out = open(sys.argv[1], 'w'); end = time.time() + float(sys.argv[2]); last = {}; roles = {}; scan = 0
while time.time() < end:
    if time.time() > scan:
        roles = {pid: r for pid in (int(p) for p in os.listdir('/proc') if p.isdigit()) if (r := role(pid))}; scan = time.time() + 0.5
    now = time.time()
    for pid, r in roles.items():
        try: tids = os.listdir(f'/proc/{pid}/task')
        except OSError: continue
        for tid in tids:
            try:
                run_ns, wait_ns, _ = open(f'/proc/{pid}/task/{tid}/schedstat').read().split()
                comm = open(f'/proc/{pid}/task/{tid}/comm').read().strip().replace(' ', '_')
            except (OSError, ValueError): continue
            key = (pid, tid)
            if last.get(key) != (run_ns, wait_ns):
                last[key] = (run_ns, wait_ns); out.write(f'{now:.4f} {r} {tid} {comm} {run_ns} {wait_ns}\n')
    time.sleep(0.01)
