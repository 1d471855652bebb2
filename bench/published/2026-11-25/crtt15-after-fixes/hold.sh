#!/usr/bin/env bash
# changing-rtt-15mbps, 30 s, repetitions 1-3 of the four schemes, one bench call per repetition. OUT: output folder.
set -u
OUT=${OUT:-/tmp/crtt2}
source "$(dirname "$0")/hold-log.sh"
log start
for rep in 1 2 3; do
  args=(); for s in vivace-video vivace tcp-cubic tcp-bbr; do args+=(--run "changing-rtt-15mbps/$s/$rep"); done
  log "rep $rep"
  nice -n 19 timeout 240 npm run -s bench -- --suite seed-changing-rtt --duration-s 30 "${args[@]}" --out "$OUT/out" >> "$OUT/bench.log" 2>&1
  log "rep $rep done rc=$?"
done
log end
