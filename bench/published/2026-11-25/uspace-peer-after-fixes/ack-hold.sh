#!/usr/bin/env bash
# Controller cost per ack (controller-wasm/scripts/bench-ack.ts, vivace, 1M packets, best of 3), acks with and without
# receive times, BEFORE and AFTER alternately, ROUNDS rounds. BEFORE/AFTER: controller-wasm worktrees, each built
# (npm run -s build) with the same bench-ack.ts / bench_ack_main.c; OUT: output folder. Called without bench:ack's
# build step so the hold times only the benchmark.
set -u
BEFORE=${BEFORE:?worktree} AFTER=${AFTER:?worktree} OUT=${OUT:?output folder} ROUNDS=${ROUNDS:-3}
source "$(dirname "$0")/../crtt15-after-fixes/hold-log.sh"
log start
for round in $(seq "$ROUNDS"); do
  for side in BEFORE AFTER; do
    wt=${!side}
    for receive in on off; do
      echo "== round $round $side $(git -C "$wt" rev-parse --short HEAD) wasm $(sha256sum "$wt/controller-wasm/wasm-dist/pcc_cc.wasm" | cut -c1-16) receive-times $receive load $(cut -d' ' -f1 /proc/loadavg)" >> "$OUT/ack-cost.txt"
      (cd "$wt/controller-wasm" && nice -n 19 node --import tsx scripts/bench-ack.ts --algorithms vivace --receive-times "$receive") >> "$OUT/ack-cost.txt" 2>> "$OUT/ack-cost.err"
    done
  done
done
log end
