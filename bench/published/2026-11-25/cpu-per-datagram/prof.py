# Per-process breakdown of perf samples: which call paths the origin's and client's threads spent their samples in.
# usage: NODE_OPTIONS=--perf-basic-prof perf record -F 499 -a -g -o perf.data -- npm run -s bench ...; python3 prof.py perf.data ORIGIN_PID CLIENT_PID
# (the origin is the process whose /tmp/perf-PID.map names send-loop.ts, the client the one naming pcc-client.ts)
import subprocess, sys, re, collections, json
data, origin_pid, client_pid = sys.argv[1], sys.argv[2], sys.argv[3]
out = subprocess.run(['perf','script','-i',data,'-F','pid,tid,comm,ip,sym'], capture_output=True, text=True).stdout
samples = []
cur = None
head = re.compile(r'^\s*(.*?)\s+(\d+)/(\d+)\s*$')
for line in out.split('\n'):
    m = head.match(line)
    if m:
        if cur: samples.append(cur)
        cur = (m.group(2), m.group(1), [])
    elif line.strip() and cur is not None:
        cur[2].append(line.strip().split(' ',1)[-1])
if cur: samples.append(cur)
CATS = [
 ('send-loop turn (setImmediate: service, batch hand-over)', r'processImmediate'),
 ('received datagrams (napi async completion -> promise -> JS)', r'ThreadSafeFunction::AsyncCb|uv__async_io'),
 ('timers (ACK timer, telemetry, stats polling)', r'uv__run_timers'),
 ('Atomics.wait sleep', r'FutexEmulation'),
 ('GC', r'Scavenger|MarkCompact|Heap::'),
]
QCATS = [
 ('sendmsg (UDP out, incl. TUN into linkem)', r'sendmsg'),
 ('recvmmsg (UDP in)', r'recvmmsg|recvmsg'),
 ('epoll_wait (idle/park)', r'epoll_wait'),
 ('futex (wake-ups between threads)', r'futex'),
 ('eventfd/write (waking the JS thread)', r'libc_write|ksys_write'),
]
def report(pid, name):
    mine = [s for s in samples if s[0] == pid]
    threads = collections.Counter(s[1] for s in mine)
    total = len(mine)
    res = {'process': name, 'samples': total, 'threads': dict(threads)}
    for tname, cats in (('node', CATS), ('pcc-quic', QCATS)):
        ss = [s for s in mine if s[1] == tname]
        if not ss: continue
        d = {'share_of_process_pct': round(100*len(ss)/total,1)}
        for label, pat in cats:
            rx = re.compile(pat)
            d[label] = round(100*sum(1 for s in ss if any(rx.search(f) for f in s[2]))/len(ss),1)
        d['kernel scheduling (schedule/finish_task_switch in any chain)'] = round(100*sum(1 for s in ss if any('finish_task_switch' in f or '__schedule' in f for f in s[2]))/len(ss),1)
        res[tname] = d
    return res
print(json.dumps(report(origin_pid,'origin'), indent=1))
print(json.dumps(report(client_pid,'client'), indent=1))
