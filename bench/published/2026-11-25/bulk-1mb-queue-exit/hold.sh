#!/usr/bin/env bash
# Hold 2: the shared WASM rebuilt from HEAD (slow_start_queue_exit, 7c795e7) under both locks, then issue 17's 1 MB link,
# vivace with --cc-param vivace.slow_start_queue_exit=0.5 (new) beside plain vivace (old, the rule off) in one build,
# 20 s, recorded, pairs 1..N with the same seed, the order alternating (new first in odd pairs). OUT: output folder.
# Stops at 470 s (the hold's 8 min). Run as: flock /tmp/pcc-heavy.lock flock /tmp/pcc-build.lock hold.sh
set -u
OUT=${OUT:-/tmp/bulk-1mb-queue-exit}
PAIRS=${PAIRS:-5}
source "$(dirname "$0")/../crtt15-after-fixes/hold-log.sh"
log start
nice npm run -s build -w @pcc-stream/controller >> "$OUT/build.log" 2>&1
log "wasm built rc=$?"
run() { # ARM REP [--cc-param ...]
  local arm=$1 rep=$2; shift 2
  nice -n 19 npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-1mb.json --schemes vivace --repetitions "$PAIRS" \
    --duration-s 20 --record --run "bulk-100mbps-30ms-1mb/vivace/$rep" --out "$OUT/$arm" "$@" >> "$OUT/bench-$arm.log" 2>&1
  log "$arm $rep rc=$?"
}
for rep in $(seq 1 "$PAIRS"); do
  if [ $((rep % 2)) -eq 1 ]; then run new "$rep" --cc-param vivace.slow_start_queue_exit=0.5; run old "$rep"
  else run old "$rep"; run new "$rep" --cc-param vivace.slow_start_queue_exit=0.5; fi
done
log done
