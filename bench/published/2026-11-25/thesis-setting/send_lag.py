#!/usr/bin/env python3
"""How long after the origin counted bytes as sent did the link see them arrive? For a datagram run directory: the
origin's MI telemetry (cumulative sent_datagram_bytes at t_ms) against linkem's downlink arrivals (link-down.log),
both put on wall-clock time (the telemetry file name's session start, the log's init timestamp). A lag that grows
during the run is a queue inside the sending host, before the link. Usage: send_lag.py RUN_DIR"""
import bisect, datetime, glob, json, os, re, sys
run = sys.argv[1]
t0 = None; lt = []; lc = []; c = 0
for line in open(os.path.join(run, 'link-down.log')):
    if line.startswith('#'):
        m = re.match(r'# init timestamp: (\d+)', line)
        if m: t0 = int(m.group(1))
        continue
    p = line.split()
    if len(p) >= 3 and p[1] == '+':
        c += int(p[2]); lt.append((t0 + int(p[0])) / 1000); lc.append(c)
tel = sorted(glob.glob(os.path.join(run, 'telemetry', '*.jsonl')))[0]
m = re.search(r'(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d)-(\d{3})Z', os.path.basename(tel))
start = datetime.datetime.fromisoformat(f'{m.group(1)}:{m.group(2)}:{m.group(3)}.{m.group(4)}+00:00').timestamp()
mi = [json.loads(l) for l in open(tel)]
# the page and the audio share the link: scale the link's bytes to the telemetry's by the totals at the end
k = lc[-1] / mi[-1]['sent_datagram_bytes']
last = -1
for o in mi:
    s = int(o['t_ms'] / 1000)
    if s == last: continue
    last = s
    i = bisect.bisect_left(lc, k * o['sent_datagram_bytes'])
    if i >= len(lt): break
    print(f"t {o['t_ms'] / 1000:5.1f} s  sent {o['sent_datagram_bytes'] / 1e6:6.2f} MB  link saw it {lt[i] - (start + o['t_ms'] / 1000):+6.2f} s later  srtt {o['srtt_us'] / 1000:6.0f} ms  in flight {o['bytes_in_flight'] / 1e6:5.2f} MB")
