#!/bin/bash
# usage: flock /tmp/pcc-heavy.lock bench/published/2026-11-25/addon-pacer/hold.sh /ABS/OUT "REP..."
# One heavy-lock hold: for each repetition K, one 20-s recorded fidelity run of bulk-100mbps-30ms-75kb-0pct/vivace/K per
# arm, the origin's --pacer loop (today's default) or addon, the order alternating with K (loop first for odd K). Same
# WASM, addon and tree for both arms. A run that does not end "ok" stops the hold (no budget spent on a broken arm).
# Loads, HEAD and the WASM hash per run in OUT/holds.jsonl; the addon's hash in OUT/addon-sha256.txt.
OUT=$1; read -ra reps <<< "$2"
source "$(dirname "${BASH_SOURCE[0]}")/../origin-flag-ab-hold.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../crtt15-after-fixes/hold-log.sh"
cp controller-wasm/build/pcc-replay "$OUT/pcc-replay"
sha256sum server/native/*.node | cut -c1-16 > "$OUT/addon-sha256.txt"
log hold-start
origin_flag_ab pacer loop addon 1
log hold-end
