#!/bin/bash
# usage: flock /tmp/pcc-heavy.lock bench/published/2026-11-25/pacing-catchup-spread/hold.sh /ABS/OUT "REP..."
# One heavy-lock hold: for each repetition K, one 20-s recorded fidelity run of bulk-100mbps-30ms-75kb-0pct/vivace/K per
# arm, the origin's --pacing-catchup burst (today's default) or spread, the order alternating with K. Same WASM, addon
# and tree for both arms. A copy of the shared pcc-replay is taken at the start (OUT/pcc-replay) so analyse.py replays
# the MIs of the C the runs used. Loads, HEAD and the WASM hash per run in OUT/holds.jsonl.
OUT=$1; read -ra reps <<< "$2"
source "$(dirname "${BASH_SOURCE[0]}")/../origin-flag-ab-hold.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../crtt15-after-fixes/hold-log.sh"
cp controller-wasm/build/pcc-replay "$OUT/pcc-replay"
log hold-start
origin_flag_ab pacing-catchup burst spread 0
log hold-end
