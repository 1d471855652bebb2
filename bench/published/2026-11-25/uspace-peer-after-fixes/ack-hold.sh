#!/usr/bin/env bash
# Controller cost per ack (controller-wasm/scripts/bench-ack.ts, 1M packets, best of 3) before and after the one-way-delay
# regression, alternately, ROUNDS rounds. BEFORE/AFTER: built controller-wasm worktrees (npm run -s build in each);
# OUT: output folder. Called without the build step (bench:ack would build first) so the hold times only the benchmark.
set -u
BEFORE=${BEFORE:?worktree} AFTER=${AFTER:?worktree} OUT=${OUT:?output folder} ROUNDS=${ROUNDS:-3}
source "$(dirname "$0")/../crtt15-after-fixes/hold-log.sh"
log start
for round in $(seq "$ROUNDS"); do
  for side in BEFORE AFTER; do
    wt=${!side}
    echo "== round $round $side $(git -C "$wt" rev-parse --short HEAD) wasm $(sha256sum "$wt/controller-wasm/wasm-dist/pcc_cc.wasm" | cut -c1-16) load $(cut -d' ' -f1 /proc/loadavg)" >> "$OUT/ack-cost.txt"
    (cd "$wt/controller-wasm" && nice -n 19 node --import tsx scripts/bench-ack.ts) >> "$OUT/ack-cost.txt" 2>> "$OUT/ack-cost.err"
  done
done
log end
