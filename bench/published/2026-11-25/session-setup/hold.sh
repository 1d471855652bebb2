#!/usr/bin/env bash
# usage: OUT=/ABS/OUT flock /tmp/pcc-heavy.lock bench/published/2026-11-25/session-setup/hold.sh
# Issue 18's session-setup A/B in one hold (<= 7 min): ATT-LTE-driving-2016 (the lte suite's scenario), vivace-video
# and tcp-bbr, 12-s runs (start-up is over by 6 s on this trace), 3 paired repetitions. Each repetition runs the page's
# old serial start (--player-param sessionStart=serial) and the new early start (the default) back to back, the
# order alternating. TCP starts the same under both (a consistency check of the arms). Each arm of each repetition is
# its own bench invocation: $OUT/<arm>-<k>/. Loads, HEAD and the shared WASM's sha256 in $OUT/holds.jsonl.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/../crtt15-after-fixes/hold-log.sh"
budget_s=415; t0=$SECONDS
arm() { # ARM K
  local limit=$(( budget_s - (SECONDS - t0) ))
  (( limit > 40 )) || { log "skip $1-$2 (${limit}s left)"; return; }
  log "start $1-$2"
  local param=(); [[ $1 == serial ]] && param=(--player-param sessionStart=serial)
  timeout "$limit" npm run -s bench -- --suite lte --schemes vivace-video,tcp-bbr --repetitions 1 --duration-s 12 \
    --run lte-att-lte-driving-2016/vivace-video/1 --run lte-att-lte-driving-2016/tcp-bbr/1 "${param[@]}" \
    --out "$OUT/$1-$2" >> "$OUT/$1-$2.log" 2>&1
  log "end $1-$2 rc $?"
}
log hold-start
arm serial 1; arm early 1
arm early 2; arm serial 2
arm serial 3; arm early 3
log hold-end
