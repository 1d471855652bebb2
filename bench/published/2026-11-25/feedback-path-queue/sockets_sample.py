#!/usr/bin/env python3
"""Samples every ~20 ms, during a bench run: `ss -u -a -m -n` inside the first linkem-* namespace (the client's socket)
and on the host (the origin's), with CLOCK_MONOTONIC stamps; nstat UDP receive errors inside at start and end.
Usage: sockets_sample.py OUT_FILE SECONDS (root; run beside the bench, e.g. hold.sh)"""
import subprocess, sys, time
out = open(sys.argv[1], 'w'); end = time.time() + float(sys.argv[2])
ns = None
while time.time() < end:
    if ns is None:
        l = [n.split()[0] for n in subprocess.run(['ip', 'netns', 'list'], capture_output=True, text=True).stdout.splitlines() if n.startswith('linkem-')]
        if l: ns = l[0]; out.write(f'# ns {ns}\n'); out.write('# nstat0 ' + subprocess.run(['ip','netns','exec',ns,'nstat','-az','UdpRcvbufErrors','UdpInErrors','UdpInDatagrams'],capture_output=True,text=True).stdout.replace('\n',' | ') + '\n')
        else: time.sleep(0.05); continue
    t = time.clock_gettime(time.CLOCK_MONOTONIC)
    r = subprocess.run(['ip', 'netns', 'exec', ns, 'ss', '-u', '-a', '-m', '-n'], capture_output=True, text=True).stdout
    h = subprocess.run(['ss', '-u', '-a', '-m', '-n', 'src', '100.110.0.0/16'], capture_output=True, text=True).stdout
    out.write(f'T {t:.4f}\n' + r + '--host\n' + h)
    time.sleep(0.02)
if ns: out.write('# nstat1 ' + subprocess.run(['ip','netns','exec',ns,'nstat','-az','UdpRcvbufErrors','UdpInErrors','UdpInDatagrams'],capture_output=True,text=True).stdout.replace('\n',' | ') + '\n')
