#!/bin/bash
# paired before/after: build-old (HEAD's controller) vs build (the fix), thesis §5.2 changing-RTT, 15 Mbit/s DASH
cd "${WT:?a worktree at 4148717 (build-old) with the fix built in build/}/controller-wasm"
for s in $(seq 1 12); do for cc in vivace-video vivace; do for b in build-old build; do
  out=$(nice -n 19 $b/sim/pcc-sim --cc $cc --video-mbps 15 --rate-mbps 16.5 --buffer-kb 300 --loss 0.0001 --rtt-schedule 10:100:5 --duration-s 60 --seed $s --json)
  echo "{\"seed\":$s,\"cc\":\"$cc\",\"variant\":\"$([ $b = build ] && echo fix || echo head)\",\"result\":$out}"
done; done; done
