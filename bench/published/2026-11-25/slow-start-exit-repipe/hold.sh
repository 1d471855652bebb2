#!/usr/bin/env bash
# usage: OUT=/ABS/OUT [PAIRS="1 2 3"] flock /tmp/pcc-heavy.lock bench/published/2026-11-25/slow-start-exit-repipe/hold.sh 75kb-0pct|1mb
# Paired real-path A/B of vivace's slow_start_exit_repipe (off = the default, on = --cc-param
# vivace.slow_start_exit_repipe=1): 100 Mbit/s, 30 ms, 20-s recorded bulk runs, pairs $PAIRS; pair k runs repetition k
# (linkem's seed k) in both arms back to back, the arm order alternating (odd pairs off first). A WASM build takes the
# heavy lock too, so the WASM cannot change within a hold; each run's WASM sha256 is logged. Loads, HEAD and the WASM's sha256 in $OUT/holds.jsonl
# (../crtt15-after-fixes/hold-log.sh).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/../crtt15-after-fixes/hold-log.sh"
sc=${1:?give 75kb-0pct or 1mb}; name=bulk-100mbps-30ms-$sc; PAIRS=${PAIRS:-1 2 3}
run() { # PAIR ARM
  local extra=(); [[ $2 == on ]] && extra=(--cc-param vivace.slow_start_exit_repipe=1)
  log "start $sc p$1 $2"
  timeout 150 npm run -s bench -- --scenario "bench/scenarios/$name.json" --schemes vivace --repetitions 9 \
    --run "$name/vivace/$1" --duration-s 20 --record "${extra[@]}" --out "$OUT/$sc-p$1-$2" >> "$OUT/$sc-p$1-$2.log" 2>&1
  log "end $sc p$1 $2 rc $?"
}
log "hold-start $sc"
for k in $PAIRS; do
  if (( k % 2 )); then run $k off; run $k on; else run $k on; run $k off; fi
done
log "hold-end $sc"
