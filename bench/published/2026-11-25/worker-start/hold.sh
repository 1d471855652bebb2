#!/usr/bin/env bash
# usage: OUT=/ABS/OUT [TRACE=att-lte-driving-2016] [BUDGET_S=400] flock /tmp/pcc-heavy.lock bench/published/2026-11-25/worker-start/hold.sh
# Issue 18's worker-start A/B through an lte suite trace (ATT-LTE-driving-2016 unless TRACE) in one hold (<= 7 min):
# vivace-video, 12-s bench runs, 3 paired repetitions, each the old start (--player-param workerScript=fetched: the
# worker's script fetched over the link, dash.js built at once) and the new one (the default: the inline worker, dash.js
# built once it runs) back to back, the order alternating; then measure.ts's page timelines, 2 repetitions of both
# arms, with what time is left. Each bench arm is its own invocation: $OUT/<arm>-<k>/. Loads, HEAD and the shared
# WASM's sha256 in $OUT/holds.jsonl; the timelines in $OUT/timeline.jsonl.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/../crtt15-after-fixes/hold-log.sh"
trace=${TRACE:-att-lte-driving-2016}
deadline=$(( SECONDS + ${BUDGET_S:-400} ))
log hold-start
for run in fetched-1 inline-1 inline-2 fetched-2 fetched-3 inline-3; do
  left=$(( deadline - SECONDS ))
  if (( left <= 40 )); then log "skip $run (${left}s left)"; continue; fi
  extra=(); [[ $run == fetched-* ]] && extra=(--player-param workerScript=fetched)
  log "start $run"
  timeout "$left" npm run -s bench -- --suite lte --schemes vivace-video --repetitions 1 --duration-s 12 \
    --run "lte-$trace/vivace-video/1" "${extra[@]}" --out "$OUT/$run" >> "$OUT/$run.log" 2>&1
  log "end $run rc $?"
done
left=$(( deadline - SECONDS ))
if (( left > 60 )); then
  log timeline-start
  timeout "$left" node --import tsx "$HERE/measure.ts" "$trace" "$OUT/timeline" 2 default workerScript=fetched \
    >> "$OUT/timeline.jsonl" 2>> "$OUT/timeline.log"
  log "timeline-end rc $?"
fi
log hold-end
