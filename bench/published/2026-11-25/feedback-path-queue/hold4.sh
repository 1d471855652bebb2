#!/bin/sh
# Hold 4: the same bench run at normal priority and under `nice -n -10` (the origin and the Node client inherit it;
# linkem runs SCHED_FIFO either way), paired per repetition, order alternating; 3 pairs, 1 MB, vivace, 20 s.
# Usage: OUT=/tmp/x flock /tmp/pcc-heavy.lock bench/published/2026-11-25/feedback-path-queue/hold4.sh
cd /work/main
HERE=bench/published/2026-11-25/feedback-path-queue
mkdir -p $OUT
echo "start $(date -u +%T) load $(cat /proc/loadavg) commit $(git rev-parse --short HEAD) wasm $(sha256sum controller-wasm/wasm-dist/pcc_cc.wasm | cut -c1-16)"
python3 $HERE/sched_sample.py $OUT/sched.txt 200 &
SP=$!
run() { # $1 = arm (normal|nice), $2 = repetition
  PRE=""; [ "$1" = nice ] && PRE="nice -n -10"
  echo "$1 rep $2 start $(date -u +%T.%N | cut -c1-12) load $(cut -d' ' -f1 /proc/loadavg)"
  timeout 60 $PRE npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-1mb.json --schemes vivace --repetitions 3 --run bulk-100mbps-30ms-1mb/vivace/$2 --duration-s 20 --record --out $OUT/$1 >> $OUT/bench-$1.log 2>&1
  echo "$1 rep $2 rc $? end $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
}
run normal 1; run nice 1; run nice 2; run normal 2; run normal 3; run nice 3
kill $SP 2>/dev/null; wait $SP 2>/dev/null
echo "end $(date -u +%T) load $(cat /proc/loadavg)"
