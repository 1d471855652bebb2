#!/bin/bash
# usage: bash bench/published/2026-11-25/thesis-setting/sim-commands.sh > sim.jsonl
# pcc-sim with sim:video's Fig 5.1 arguments (bench/harness/sim-video.ts), one line of JSON per run
SIM=controller-wasm/build/sim/pcc-sim  # run from the repository root
for bitrate in 15 4; do rate=$(python3 -c "print(round($bitrate*1.1,2))")
for dur in 30 60; do for delivery in continuous DASH; do for cc in allegro-latency vivace cubic bbr; do for seed in 1 2 3; do
  extra=""; [ $delivery = continuous ] && extra=--video-continuous
  args="--cc $cc --video-mbps $bitrate --segment-s 2 $extra --rate-mbps $rate --rtt-schedule 10:100:5 --buffer-kb 300 --loss 0.0001 --duration-s $dur --seed $seed"
  out=$(nice -n 19 $SIM $args --json 2>/dev/null)
  python3 -c "
import json,sys
r=json.loads(sys.argv[1]); f=r['flows'][0]; v=f.get('video') or {}
print(json.dumps({'bitrate_mbps':$bitrate,'duration_s':$dur,'delivery':'$delivery','cc':'$cc','seed':$seed,'args':'$args','buffering_ratio':v.get('buffering_ratio'),'stall_count':v.get('stall_count'),'video':v,'flow':{k:f[k] for k in f if k!='video' and not isinstance(f[k],(list,dict))}}))
" "$out"
done; done; done; done; done
