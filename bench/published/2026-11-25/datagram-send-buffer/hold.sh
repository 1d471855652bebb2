#!/bin/bash
# usage: OUT=/ABS/OUT [SCENARIO=bench/scenarios/NAME.json] flock /tmp/pcc-heavy.lock \
#          bench/published/2026-11-25/datagram-send-buffer/hold.sh [K ...]
# One heavy-lock hold: one pair of 20-s recorded runs of NAME/vivace/K per repetition K (default 1 2 3, the first
# hold; the second ran 4 5 6 7 8), the origin's --datagram-send-buffer-bytes 4194304 (~340 ms at 100 Mbit/s) vs
# 65536 (~5 ms), order alternating with K. SCENARIO defaults to issue 17's 1 MB link (this folder's holds);
# ../datagram-send-buffer-75kb ran bench/scenarios/bulk-100mbps-30ms-75kb-0pct.json. Same WASM, addon and tree for
# both arms. Loads, HEAD and the WASM hash per run in OUT/holds.jsonl.
source "$(dirname "${BASH_SOURCE[0]}")/../crtt15-after-fixes/hold-log.sh"
scenario=${SCENARIO:-bench/scenarios/bulk-100mbps-30ms-1mb.json}; name=$(basename "$scenario" .json)
[[ -f $scenario ]] || { echo "hold.sh: no scenario file $scenario" >&2; exit 2; }
log "hold-start $name"
reps=("$@"); (( ${#reps[@]} )) || reps=(1 2 3)
nreps=3; for k in "${reps[@]}"; do (( k > nreps )) && nreps=$k; done  # --run K needs K <= --repetitions
for k in "${reps[@]}"; do
  if (( k % 2 )); then arms=(4194304 65536); else arms=(65536 4194304); fi
  for arm in "${arms[@]}"; do
    log "start $arm-$k"
    timeout 60 npm run -s bench -- --scenario "$scenario" --schemes vivace --repetitions "$nreps" \
      --duration-s 20 --run "$name/vivace/$k" --record --origin-arg="--datagram-send-buffer-bytes=$arm" \
      --out "$OUT/$arm-$k" > "$OUT/$arm-$k.log" 2>&1
    log "end $arm-$k rc $?"
  done
done
log hold-end
