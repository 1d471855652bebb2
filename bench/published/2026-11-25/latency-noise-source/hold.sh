#!/bin/bash
# usage: flock /tmp/pcc-heavy.lock bench/published/2026-11-25/latency-noise-source/hold.sh /ABS/OUT BEFORE_WASM_DIR AFTER_WASM_DIR "REP..."
# One heavy-lock hold: for each repetition K, one 20-s recorded fidelity run of bulk-100mbps-30ms-75kb-0pct/vivace/K
# per arm (before: the shared WASM without the emission rule; after: with it), the order alternating with K. Each arm's
# WASM (pcc_cc.wasm + pcc_cc.mjs) is copied into controller-wasm/wasm-dist under the build lock right before its run;
# the hold ends with the after arm's in place (the committed C). Loads, HEAD and the WASM hash per run in OUT/holds.jsonl.
OUT=$1; before=$2; after=$3; read -ra reps <<< "$4"
maxrep=$(printf '%s\n' "${reps[@]}" 3 | sort -n | tail -1)
source "$(dirname "${BASH_SOURCE[0]}")/../crtt15-after-fixes/hold-log.sh"
use() { flock /tmp/pcc-build.lock cp "$1/pcc_cc.wasm" "$1/pcc_cc.mjs" controller-wasm/wasm-dist/; }
log hold-start
for k in "${reps[@]}"; do
  if (( k % 2 )); then arms=(before after); else arms=(after before); fi
  for arm in "${arms[@]}"; do
    if [ "$arm" = before ]; then use "$before"; else use "$after"; fi
    log "start $arm-$k"
    npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-75kb-0pct.json --schemes vivace --repetitions "$maxrep" \
      --duration-s 20 --run "bulk-100mbps-30ms-75kb-0pct/vivace/$k" --fidelity --record --out "$OUT/$arm-$k" > "$OUT/$arm-$k.log" 2>&1
    log "end $arm-$k"
  done
done
use "$after"
log hold-end
