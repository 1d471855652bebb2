#!/usr/bin/env bash
# One bulk scenario, vivace, vivace-loss, pcc-uspace, tcp-bbr and tcp-cubic × 3, 20 s, one bench call (the plan runs
# the schemes interleaved within each repetition). SCEN: scenario file; OUT: output folder; USPACE: PCC-Uspace's src/app.
set -u
SCEN=${SCEN:?scenario file} OUT=${OUT:?output folder} USPACE=${USPACE:-/tmp/pcc-uspace/src/app}
source "$(dirname "$0")/../crtt15-after-fixes/hold-log.sh"
log "start $(basename "$SCEN")"
nice -n 19 timeout 400 npm run -s bench -- --scenario "$SCEN" --schemes vivace,vivace-loss,pcc-uspace,tcp-bbr,tcp-cubic \
  --repetitions 3 --duration-s 20 --fidelity --uspace "$USPACE" --out "$OUT/out" >> "$OUT/bench.log" 2>&1
log "done rc=$?"
