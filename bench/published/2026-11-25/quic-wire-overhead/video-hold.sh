#!/usr/bin/env bash
# Hold 3: one video scenario for where a Chromium session's wire bytes go (issue 18): Verizon-LTE-short, 30 s,
# vivace-video and tcp-cubic, repetition 1, one bench call. OUT: output folder.
set -u
OUT=${OUT:-/tmp/wt-d-hold3}
source "$(dirname "$0")/../crtt15-after-fixes/hold-log.sh"
log start
nice -n 19 npm run -s bench -- --suite lte --duration-s 30 --run lte-verizon-lte-short/vivace-video/1 \
  --run lte-verizon-lte-short/tcp-cubic/1 --out "$OUT/out" >> "$OUT/bench.log" 2>&1
log "done rc=$?"
