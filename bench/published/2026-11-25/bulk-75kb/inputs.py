#!/usr/bin/env python3
"""Per run of a bench output dir (bulk 75 KB, recorded): what the controller was told on the real path beside
what pcc-sim was told in the paired simulation. Usage: inputs.py BENCH_DIR PCC_REPLAY > table.md
Reads results.jsonl, runs/*/*/*/record/*.replay (the origin's recording), link-summary.json and link-down.log
(linkem), sim.csv (pcc-sim, per 100 ms). Columns are explained in summary.md."""
import sys, json, glob, os, subprocess, statistics as st, collections, bisect

LINK_BYTES_PER_US = 100e6 / 8 / 1e6
BUFFER_BYTES = 75000
IP_UDP_OVERHEAD = 39 + 4  # bytes on the link per datagram beyond the recorded payload (headers, mahimahi framing)

def q(v, p):
    s = sorted(v); return s[int(p * (len(s) - 1))] if s else float('nan')

def recording(path):
    send, acks, order = {}, {}, []
    for line in open(path):
        p = line.split()
        if not p: continue
        if p[0] == 'sent': send[int(p[1])] = (float(p[3]), int(p[2]))
        elif p[0] == 'ack': acks[int(p[1])] = float(p[2]); order.append(int(p[1]))
    return send, acks

def stamp_queue_model(send):
    """Droptail 75 KB at 100 Mbit/s fed with the recorded send stamps: what the sender's own pattern does."""
    q_bytes, last, drops = 0.0, None, 0
    for pn in sorted(send):
        t, b = send[pn]; b += IP_UDP_OVERHEAD
        if last is not None: q_bytes = max(0.0, q_bytes - (t - last) * LINK_BYTES_PER_US)
        last = t
        if q_bytes + b > BUFFER_BYTES: drops += 1
        else: q_bytes += b
    return drops / max(1, len(send))

def per_ms(send):
    c = collections.Counter()
    for t, b in send.values(): c[int(t // 1000)] += b + IP_UDP_OVERHEAD
    ks = sorted(c); v = [c.get(k, 0) for k in range(ks[0] + 3000, ks[-1] - 1000)]
    w5 = [sum(v[i:i + 5]) for i in range(0, len(v) - 5, 5)]
    return (100 * sum(x == 0 for x in v) / len(v), 100 * sum(x > 12500 for x in v) / len(v),
            100 * sum(x > 62500 for x in w5) / len(w5))

def tw(ms, key):
    """Mean of an MI figure (bit/s) weighted by MI duration, in Mbit/s."""
    return sum(x[key] * x['durationUs'] for x in ms) / sum(x['durationUs'] for x in ms) / 1e6

def mis(replay, path):
    out = subprocess.run([replay, '--mi', path], capture_output=True, text=True, check=True).stdout
    return [json.loads(l) for l in out.splitlines()]

def main():
    bench, replay = sys.argv[1], sys.argv[2]
    rows = [json.loads(l) for l in open(os.path.join(bench, 'results.jsonl'))]
    print('| run | goodput Mbit/s | linkem Mbit/s | sim Mbit/s | linkem queue drops % | sim queue drops % | drops % a 75 KB queue fed the send stamps would make | ms with nothing sent % | ms sent above 100 Mbit/s % | 5-ms windows above 100 Mbit/s % | MI target / sent Mbit/s (after 2 s, weighted by MI duration) | sent / target | MIs with a loss % | MIs penalised for RTT, no loss % | sim: lossless 100-ms samples whose last MI was penalised % | CPU % origin / client / linkem | run-queue wait % origin / client |')
    print('|' + ' --- |' * 17)
    for r in rows:
        run = r['run_id']; d = os.path.join(bench, 'runs', run)
        f = r.get('fidelity') or {}
        link = json.load(open(os.path.join(d, 'link-summary.json')))['down']
        drops = 100 * link['queueDropPackets'] / max(1, link['ingressPackets'])
        cpu = f.get('cpu_mean_percent', {}); wait = f.get('cpu_wait_mean_percent', {})
        sim_drop = sim_pen = '-'
        simj = os.path.join(d, 'sim.json')
        if os.path.exists(simj):
            s = json.load(open(simj)); fl = s['flows'][0] if 'flows' in s else s
            sim_drop = f"{100 * fl['packets_dropped_queue'] / max(1, fl['packets_sent']):.2f}"
        simc = os.path.join(d, 'sim.csv')
        if os.path.exists(simc):
            import csv
            rr = [x for x in csv.DictReader(open(simc)) if float(x['time_s']) > 2 and x['cc_state'] != 'slow_start' and float(x['send_rate_mbps']) > 0 and float(x['mi_loss_rate']) == 0]
            pen = [x for x in rr if float(x['mi_utility']) < 0.8 * float(x['send_rate_mbps']) ** 0.9]
            sim_pen = f"{100 * len(pen) / max(1, len(rr)):.0f}"
        recs = glob.glob(os.path.join(d, 'record', '*.replay'))
        cols = ['-'] * 9
        if recs:
            send, acks = recording(recs[0])
            m = [x for x in mis(replay, recs[0]) if x['startUs'] - 0 > 0]
            t0 = min(t for t, b in send.values())
            later = [x for x in m if x['startUs'] - t0 > 2e6 and x['packetsSent'] >= 10 and not x['appLimited']]
            x_mbps = lambda x: x['sendRateBps'] / 1e6
            lossy = [x for x in later if x['packetsLost'] > 0]
            rtt_pen = [x for x in later if x['packetsLost'] == 0 and x['utility'] < 0.8 * x_mbps(x) ** 0.9]
            empty, above, above5 = per_ms(send)
            cols = [f"{100 * stamp_queue_model(send):.2f}", f"{empty:.0f}", f"{above:.0f}", f"{above5:.0f}",
                    f"{tw(later, 'targetRateBps'):.1f} / {tw(later, 'sendRateBps'):.1f}",
                    f"{tw(later, 'sendRateBps') / tw(later, 'targetRateBps'):.2f}",
                    f"{100 * len(lossy) / len(later):.0f}", f"{100 * len(rtt_pen) / len(later):.0f}"]
        else:
            cols = cols[:8]
        print(f"| {run} | {r['goodput_mbps']:.1f} | {f.get('real_throughput_mbps', float('nan')):.1f} | "
              f"{f.get('sim_throughput_mbps') or '-'} | {drops:.2f} | {sim_drop} | " + ' | '.join(cols) +
              f" | {sim_pen} | {cpu.get('origin', 0):.0f} / {cpu.get('client', 0):.0f} / {cpu.get('linkem', 0):.0f} | "
              f"{wait.get('origin', 0):.0f} / {wait.get('client', 0):.0f} |")

main()
