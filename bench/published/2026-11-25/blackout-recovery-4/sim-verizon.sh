#!/bin/bash
# pcc-sim, Verizon-LTE-short.down, 40 ms, 1000 KB, 140 s, seeds 1-10: HEAD (base) vs HEAD + the retest (fix)
T=bench/traces/Verizon-LTE-short.down  # run from the repository root
echo "# pcc-sim, Verizon-LTE-short.down, --rtt-ms 40 --buffer-kb 1000 --duration-s 140, seeds 1-10; base = HEAD f69b5b8, fix = HEAD + vivace_recovery.c's retest_after_silence"
echo "# lte = --cc vivace --cc-param mi_timeout_rtts=2 --cc-param latency_coefficient=2 --packet-bytes 500; default = --cc vivace; +moving = --cc-param moving=1; loss = --cc vivace-loss"
echo "# seed variant arm throughput_mbps p95_rtt_ms"
for seed in 1 2 3 4 5 6 7 8 9 10; do
 for variant in lte default lte+moving default+moving vivace-loss; do
  case $variant in
   lte) a=(--cc vivace --cc-param mi_timeout_rtts=2 --cc-param latency_coefficient=2 --packet-bytes 500);;
   default) a=(--cc vivace);;
   lte+moving) a=(--cc vivace --cc-param mi_timeout_rtts=2 --cc-param latency_coefficient=2 --packet-bytes 500 --cc-param moving=1);;
   default+moving) a=(--cc vivace --cc-param moving=1);;
   vivace-loss) a=(--cc vivace-loss);;
  esac
  for arm in base fix; do
   d=$BASE_TREE; [ $arm = fix ] && d=$FIX_TREE  # git worktrees at f69b5b8 and d6baebf, each with pcc-sim built
   nice -n 19 $d/controller-wasm/build/sim/pcc-sim --trace $T --rtt-ms 40 --buffer-kb 1000 --duration-s 140 --seed $seed --json "${a[@]}" 2>/dev/null |
     python3 -c "import sys,json; f=json.load(sys.stdin)['flows'][0]; print('$seed $variant $arm', round(f['throughput_mbps'],2), round(f['p95_rtt_ms'],2))"
  done
 done
done
