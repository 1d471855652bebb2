#!/bin/sh
# Hold 3: as hold.sh, with each origin/client thread's scheduler counters sampled beside it (sched_sample.py).
# Usage: OUT=/tmp/x flock /tmp/pcc-heavy.lock bench/published/2026-11-25/feedback-path-queue/hold3.sh
cd /work/main
HERE=bench/published/2026-11-25/feedback-path-queue
mkdir -p $OUT
echo "start $(date -u +%T) load $(cat /proc/loadavg) commit $(git rev-parse --short HEAD) wasm $(sha256sum controller-wasm/wasm-dist/pcc_cc.wasm 2>/dev/null | cut -c1-16 | head -1)"
python3 $HERE/sched_sample.py $OUT/sched.txt 150 &
SP=$!
timeout 170 npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-1mb.json --schemes vivace --repetitions 3 --duration-s 20 --record --out $OUT/out > $OUT/bench.log 2>&1
echo "bench rc $?"
kill $SP 2>/dev/null; wait $SP 2>/dev/null
echo "end $(date -u +%T) load $(cat /proc/loadavg)"
