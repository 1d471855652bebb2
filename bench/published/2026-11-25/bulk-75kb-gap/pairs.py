# Probe pairs in a vivace session (consecutive MIs whose targets differ by (1+ε)/(1-ε), ε = 0.05): which side won,
# and when the lower probe won, why the upper lost (a loss, or an RTT-gradient penalty in a lossless MI), and the
# upper probe's wire rate. Usage: pairs.py MI_SUMMARY_JSON...
import sys, json, statistics as st
for f in sys.argv[1:]:
    m = [x for x in json.load(open(f))['mis'] if x['packets'] >= 10]; t0 = m[0]['t_s']
    m = [x for x in m if x['t_s'] - t0 > 2]
    i = 0; up = down = 0; why = {'loss': 0, 'rtt': 0, 'other': 0}; wire = []; wire_rtt = []
    while i + 1 < len(m):
        a, b = m[i], m[i + 1]
        r = max(a['target_mbps'], b['target_mbps']) / min(a['target_mbps'], b['target_mbps'])
        if 1.09 < r < 1.12:
            hi, lo = (a, b) if a['target_mbps'] > b['target_mbps'] else (b, a)
            if hi['utility'] >= lo['utility']: up += 1
            else:
                down += 1; x = hi['sent_mbps']; wire.append(hi['wire_mbps'])
                if hi['loss'] > 0: why['loss'] += 1
                elif hi['utility'] < x ** 0.9 - 4.5 * x: why['rtt'] += 1; wire_rtt.append(hi['wire_mbps'])
                else: why['other'] += 1
            i += 2
        else: i += 1
    print(f"{f}: pairs {up + down}: upper won {up}, lower won {down} (upper lost on: loss {why['loss']}, RTT penalty without loss {why['rtt']}, other {why['other']}); upper's wire rate when it lost on RTT: median {st.median(wire_rtt) if wire_rtt else 0:.1f} Mbit/s, {sum(w < 97 for w in wire_rtt)} of {len(wire_rtt)} below 97")
