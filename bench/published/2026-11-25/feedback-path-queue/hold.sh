#!/bin/sh
# One heavy-lock hold: 3 x vivace on issue 17's 1 MB link, 20 s, recorded, with the socket sampler beside it.
# Usage: OUT=/tmp/x flock /tmp/pcc-heavy.lock bench/published/2026-11-25/feedback-path-queue/hold.sh
cd /work/main
HERE=bench/published/2026-11-25/feedback-path-queue
echo "start $(date -u +%T) load $(cat /proc/loadavg) commit $(git rev-parse --short HEAD) wasm $(sha256sum controller-wasm/wasm-dist/pcc_cc.wasm 2>/dev/null | cut -c1-16 | head -1)"
python3 $HERE/sockets_sample.py $OUT/ss.txt 150 &
SP=$!
timeout 170 npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-1mb.json --schemes vivace --repetitions 3 --duration-s 20 --record --out $OUT/out > $OUT/bench.log 2>&1
echo "bench rc $?"
kill $SP 2>/dev/null; wait $SP 2>/dev/null
echo "end $(date -u +%T) load $(cat /proc/loadavg)"
