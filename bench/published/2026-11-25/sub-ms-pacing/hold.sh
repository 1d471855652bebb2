#!/bin/bash
# usage (from anywhere): flock /tmp/pcc-heavy.lock bench/published/2026-11-25/sub-ms-pacing/hold.sh /ABS/OUT SCHEME "BURST_US..." "REP..."
# One heavy-lock hold: for each repetition K, one 20-s recorded fidelity run of bulk-100mbps-30ms-75kb-0pct/SCHEME/K per
# origin pacing burst (--pacing-burst-us), the arms' order rotated by K so no arm always runs first. Each run is
# its own bench invocation, out dir OUT/b<BURST>-<K>; loads, HEAD and the WASM hash per run in OUT/holds.jsonl
# (../crtt15-after-fixes/hold-log.sh's logger). SCHEME pcc-uspace (the authors' Vivace, not our origin: no burst flag)
# needs USPACE=DIR (its src/app) and takes the arm 0, out dir OUT/b0-<K>.
OUT=$1; scheme=$2; read -ra arms <<< "$3"; read -ra reps <<< "$4"
maxrep=$(printf '%s\n' "${reps[@]}" 3 | sort -n | tail -1)  # --run names repetition K of at least K
source "$(dirname "${BASH_SOURCE[0]}")/../crtt15-after-fixes/hold-log.sh"
log hold-start
for k in "${reps[@]}"; do
  n=${#arms[@]}
  for ((i = 0; i < n; i++)); do
    b=${arms[$(( (i + k - 1) % n ))]}
    log "start b$b-$k"
    if [ "$b" = 0 ]; then extra=(--uspace "$USPACE"); else extra=(--fidelity --record --origin-arg="--pacing-burst-us=$b"); fi
    npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-75kb-0pct.json --schemes "$scheme" --repetitions "$maxrep" \
      --duration-s 20 --run "bulk-100mbps-30ms-75kb-0pct/$scheme/$k" "${extra[@]}" --out "$OUT/b$b-$k" > "$OUT/b$b-$k.log" 2>&1
    log "end b$b-$k"
  done
done
log hold-end
