#!/bin/sh
# One heavy-lock hold on issue 17's 1 MB link, vivace, 20 s, recorded, with a sampler beside the bench.
#   MODE=sockets (hold 2): 3 runs, sockets_sample.py (ss -m of the origin's and the client's UDP sockets)
#   MODE=sched   (hold 3): 3 runs, sched_sample.py (each origin/client thread's schedstat)
#   MODE=pairs   (hold 4): sched_sample.py; 3 pairs, normal priority vs `nice -n -10` (the origin and the Node
#                          client inherit it; linkem is SCHED_FIFO either way), order alternating
# Usage: MODE=... OUT=/tmp/x flock /tmp/pcc-heavy.lock bench/published/2026-11-25/feedback-path-queue/hold.sh
cd /work/main
HERE=bench/published/2026-11-25/feedback-path-queue
MODE=${MODE:-sockets}
mkdir -p $OUT
echo "start $(date -u +%T) load $(cat /proc/loadavg) commit $(git rev-parse --short HEAD) wasm $(sha256sum controller-wasm/wasm-dist/pcc_cc.wasm | cut -c1-16)"
if [ "$MODE" = sockets ]; then python3 $HERE/sockets_sample.py $OUT/ss.txt 150 & else python3 $HERE/sched_sample.py $OUT/sched.txt 200 & fi
SP=$!
PRIO=""
bench() { # $1 = out dir, then extra bench arguments; $PRIO prefixes the command (the pairs' nice arm)
  dir=$1; shift
  timeout 170 $PRIO npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-1mb.json --schemes vivace --repetitions 3 --duration-s 20 --record --out $dir "$@" >> $dir.log 2>&1
}
run() { # $1 = arm (normal|nice), $2 = repetition
  echo "$1 rep $2 start $(date -u +%T.%N | cut -c1-12) load $(cut -d' ' -f1 /proc/loadavg)"
  if [ "$1" = nice ]; then PRIO="nice -n -10"; else PRIO=""; fi
  bench $OUT/$1 --run bulk-100mbps-30ms-1mb/vivace/$2
  echo "$1 rep $2 rc $? end $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
}
if [ "$MODE" = pairs ]; then
  run normal 1; run nice 1; run nice 2; run normal 2; run normal 3; run nice 3
else
  bench $OUT/out; echo "bench rc $?"
fi
kill $SP 2>/dev/null; wait $SP 2>/dev/null
echo "end $(date -u +%T) load $(cat /proc/loadavg)"
