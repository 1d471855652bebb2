#!/usr/bin/env bash
# pcc-sim over the lte suite's four downlink traces (40 ms RTT, 300 kB, the ABR ladder 0.3-8 Mbit/s, DASH, 30 s),
# seeds 1-10, one JSON line per run (p95/mean queueing = the flow's p95/mean RTT less the base RTT).
# usage: sim-grid.sh PCC_SIM OUT.jsonl CC[,CC...] [--cc-param NAME=VALUE ...]
set -eu
sim=$1 out=$2 ccs=$3; shift 3
traces=$(cd "$(dirname "$0")/../../../traces" && pwd)
: > "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
gzip -dc "$traces/TMobile-LTE-driving.down.gz" > "$tmp/TMobile-LTE-driving.down"   # pcc-sim reads plain traces
for tr in Verizon-LTE-short TMobile-LTE-short ATT-LTE-driving-2016 TMobile-LTE-driving; do
  for s in 1 2 3 4 5 6 7 8 9 10; do
    for cc in ${ccs//,/ }; do
      f=$traces/$tr.down; [ -e "$f" ] || f=$tmp/$tr.down
      nice -n 19 "$sim" --cc "$cc" "$@" --trace "$f" --rtt-ms 40 --buffer-kb 300 --video-abr 0.3,0.8,2,4,8 \
        --duration-s 30 --seed "$s" --json | python3 -c "
import json, sys
o = json.load(sys.stdin); f = o['flows'][0]; v = f['video']
print(json.dumps({'trace': '$tr', 'seed': $s, 'cc': '$cc', 'throughput_mbps': f['throughput_mbps'],
  'p95_queueing_ms': f['p95_rtt_ms'] - f['base_rtt_ms'], 'mean_queueing_ms': f['mean_rtt_ms'] - f['base_rtt_ms'],
  'loss_rate': f['loss_rate'], 'buffering_ratio': v['buffering_ratio'], 'average_bitrate_mbps': v['average_bitrate_mbps']}))" >> "$out"
    done
  done
done
