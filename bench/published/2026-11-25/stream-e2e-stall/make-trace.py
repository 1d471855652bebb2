# Writes start-dip.trace (mahimahi: one 1504-byte opportunity per line, ms): 1.5 Mbit/s for 3 s, then 50 Mbit/s to 30 s.
lines = []
t = 0.0
while t < 3000:
    lines.append(int(t)); t += 1504 * 8 / 1.5e6 * 1000
t = 3000.0
while t < 30000:
    lines.append(int(t)); t += 1504 * 8 / 50e6 * 1000
open('start-dip.trace', 'w').write('\n'.join(str(max(1, x)) for x in lines) + '\n')
