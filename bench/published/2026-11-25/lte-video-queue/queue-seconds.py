#!/usr/bin/env python3
"""Where the queue was, from lte-att/timeline.py's output (one file per run). Per run: the seconds whose p95 queueing
delay exceeded 300 ms, by the controller's states that second (probing only, or slow start in it) and the player's
buffer (<= 4 s: vivace-video's low-buffer utility, w = 0.0015; 4-12 s: w between; unknown); then the seconds in which
the 300 kB queue was full (max >= 280 kB), the mean of the per-second maximum queue, and that mean over the trace's
dip (link-seconds 11-16, 0.8-2.1 Mbit/s).
usage: queue-seconds.py TIMELINE.txt..."""
import re, sys

for path in sys.argv[1:]:
    counts, queued, full, kb, dip = {}, 0, 0, [], []
    for line in open(path):
        cells = line.split('|')
        head = cells[0].split()
        if len(head) < 8 or not re.fullmatch(r'\d+', head[0]): continue
        second, max_kb = int(head[0]), int(head[5])
        kb.append(max_kb); full += max_kb >= 280
        if 11 <= second <= 16: dip.append(max_kb)
        if int(head[6]) <= 300: continue
        queued += 1
        state = 'slow start in it' if 'slow' in (head[8] if len(head) > 8 else '') else 'probing only'
        player = cells[1].split() if len(cells) > 1 else []
        buf = float(player[0]) if player else None
        band = 'buffer unknown' if buf is None else 'buffer <= 4 s' if buf <= 4 else 'buffer 4-12 s' if buf < 12 else 'buffer >= 12 s'
        counts[(state, band)] = counts.get((state, band), 0) + 1
    print(f'{path}: {queued} s over 300 ms (' + ', '.join(f'{s}, {b}: {n}' for (s, b), n in sorted(counts.items())) +
          f'); queue full {full} s; mean per-second max {sum(kb) / len(kb):.0f} kB, in the dip {sum(dip) / len(dip):.0f} kB')
