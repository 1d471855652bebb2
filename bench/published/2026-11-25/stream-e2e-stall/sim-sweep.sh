#!/bin/bash
# sim sweep: vivace-video, continuous 4 Mbit/s player, start-dip trace (1.5 Mbit/s for 3 s then 50), RTT 1 ms, 1 MB buffer
SIM=${SIM:-controller-wasm/build/sim/pcc-sim}
for params in "" "--cc-param video_queue_spare_share=0" "--cc-param video_hold_pre_dip_rate=0" "--cc-param video_hold_pre_dip_rate=0 --cc-param video_queue_spare_share=0"; do
 for j in 0 200 500 1000; do for seed in 1 2 3; do
  cmd="pcc-sim --cc vivace-video --trace start-dip.trace --rtt-ms 1 --buffer-kb 1000 --video-mbps 4 --video-continuous --jitter-sd-us $j --duration-s 30 --seed $seed $params --json"
  nice -n 19 $SIM --cc vivace-video --trace ${TRACE:-start-dip.trace} --rtt-ms 1 --buffer-kb 1000 --video-mbps 4 --video-continuous --jitter-sd-us $j --duration-s 30 --seed $seed $params --json | python3 -c "
import json,sys; d=json.load(sys.stdin); f=d['flows'][0]; v=f['video']
print(json.dumps({'command': sys.argv[1], 'params': sys.argv[2], 'jitter_sd_us': int(sys.argv[3]), 'seed': int(sys.argv[4]), 'throughput_mbps': f['throughput_mbps'], 'throughput_last_half_mbps': f['throughput_last_half_mbps'], 'startup_delay_s': v['startup_delay_s'], 'stall_s': v['stall_s'], 'play_s': v['play_s'], 'segments': v['segments']}))" "$cmd" "$params" $j $seed
 done; done; done
