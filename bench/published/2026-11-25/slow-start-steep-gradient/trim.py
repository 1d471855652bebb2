# usage: trim.py RECORDING CUT_S OUT: the recording up to its first timed input (tick/sent/ack/loss/app_state) after CUT_S.
import sys
src, cut_us, out = sys.argv[1], int(float(sys.argv[2]) * 1e6), sys.argv[3]
keep = []
for line in open(src):
    t = line.split()
    if t and not line.startswith('#') and t[-1].lstrip('-').isdigit() and int(t[-1]) > cut_us and t[0] in ('tick', 'sent', 'ack', 'loss', 'app_state'):
        break
    keep.append(line)
open(out, 'w').writelines(keep)
