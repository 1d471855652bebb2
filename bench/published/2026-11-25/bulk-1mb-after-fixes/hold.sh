#!/usr/bin/env bash
# The 1 MB bulk link, vivace, vivace-loss and tcp-bbr × 3, 20 s, recorded, one bench call. OUT: output folder.
set -u
OUT=${OUT:-/tmp/mb1}
source "$(dirname "$0")/../crtt15-after-fixes/hold-log.sh"
log start
nice -n 19 timeout 480 npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-1mb.json --schemes vivace,vivace-loss,tcp-bbr \
  --repetitions 3 --duration-s 20 --fidelity --record --out "$OUT/out" >> "$OUT/bench.log" 2>&1
log "done rc=$?"
