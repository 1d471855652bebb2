#!/bin/bash
# sim:paper's Fig 4.9 row "vivace (LTE settings)" (scripts/paper/figures.ts), seeds 1-10, HEAD (build-old) vs the fix (build)
cd "${WT:?a worktree at 4148717 (build-old) with the fix built in build/}/controller-wasm"
for s in $(seq 1 10); do for b in build-old build; do
  out=$(nice -n 19 $b/sim/pcc-sim --cc vivace --cc-param mi_timeout_rtts=2 --cc-param latency_coefficient=2 --packet-bytes 500 --trace ../bench/traces/Verizon-LTE-short.down --rtt-ms 40 --buffer-kb 1000 --duration-s 140 --seed $s --json)
  echo "{\"seed\":$s,\"cc\":\"vivace (LTE settings)\",\"variant\":\"$([ $b = build ] && echo fix || echo head)\",\"result\":$out}"
done; done
