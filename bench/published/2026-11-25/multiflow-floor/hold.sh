#!/usr/bin/env bash
# One hold: for each repetition, one bench call running every scheme of SCHEMES on SCENARIO back to back (interleaved),
# with machine-log.ts sampling CPU, run-queue wait and CPU pressure throughout. Stops before a repetition that would
# end past BUDGET_S seconds into the hold (RUN_S: estimated wall seconds per run).
# usage: OUT=DIR hold.sh LABEL BUDGET_S RUN_S "SOURCE ARGS" SCENARIO DURATION_S "SCHEMES" REPS...
#   e.g. OUT=/tmp/mff/h1 hold.sh h1 400 45 "--scenario bench/scenarios/multiflow-3x8mbps-ample.json" multiflow-3x8mbps-ample 30 "tcp-cubic vivace" 1 2 3
set -u
label=$1 budget_s=$2 run_s=$3 source_args=$4 scenario=$5 duration_s=$6 schemes=$7; shift 7
source "$(dirname "$0")/../crtt15-after-fixes/hold-log.sh"
node --import tsx bench/published/2026-11-25/multiflow-floor/machine-log.ts > "$OUT/machine-$label.jsonl" &
sampler=$!
start=$(date +%s)
log "$label start"
for rep in "$@"; do
  n=$(wc -w <<< "$schemes")
  if (( $(date +%s) - start + n * run_s > budget_s )); then log "$label rep $rep skipped (budget)"; break; fi
  args=(); for s in $schemes; do args+=(--run "$scenario/$s/$rep"); done
  log "$label rep $rep"
  # shellcheck disable=SC2086
  nice -n 19 timeout $(( n * run_s * 2 )) npm run -s bench -- $source_args --duration-s "$duration_s" "${args[@]}" --out "$OUT/out" >> "$OUT/bench.log" 2>&1
  log "$label rep $rep done rc=$?"
done
log "$label end"
kill "$sampler"
