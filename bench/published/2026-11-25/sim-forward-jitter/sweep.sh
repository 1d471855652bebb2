#!/bin/bash
# Builds mi_gradient_probe against controller-wasm/build (cmake) and writes sim-sweep.jsonl. Run from the repository root:
#   bash bench/published/2026-11-25/sim-forward-jitter/sweep.sh
set -euo pipefail
here=bench/published/2026-11-25/sim-forward-jitter
cmake --build controller-wasm/build --target pcc_sim --parallel 2 >&2
probe=$(mktemp -d)/mi_gradient_probe
cc -O2 -std=gnu11 -Icontroller-wasm/sim -Icontroller-wasm/include -Icontroller-wasm/src -Inetpath \
  $here/mi_gradient_probe.c controller-wasm/build/sim/libpcc_sim.a controller-wasm/build/libpcc_cc.a \
  controller-wasm/build/netpath/libnetpath.a -lm -o "$probe"
out=$here/sim-sweep.jsonl
: > "$out"
for params in "" "latency_filter=0.03"; do
  for buffer in 75000 1000000; do
    for sd in 0 150 200 250 400; do
      for tau in 10000 30000 60000; do
        [ "$sd" = 0 ] && [ "$tau" != 30000 ] && continue
        for seed in 1 2 3 4 5 6 7 8; do
          "$probe" "$buffer" "$sd" "$tau" "$seed" 20 "$params" >> "$out"
        done
      done
    done
  done
  echo "{\"event\":\"progress\",\"done\":\"${params:-default}\"}" >&2
done
