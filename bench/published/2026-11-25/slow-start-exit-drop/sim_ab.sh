#!/bin/sh
# pcc-sim A/B of slow_start_exit_repipe (one binary, the parameter as the switch): PCC_SIM OUT_DIR
# 100 Mbit/s 30 ms, 75 KB and 1 MB, seeds 1-3, 20 s; TMobile-LTE-short (300 KB, 40 ms RTT), 40 s, seeds 1-3.
SIM=$1; OUT=$2; TR=$(dirname "$0")/../../../traces/TMobile-LTE-short.down
for arm in 0 1; do
  for buf in 75 1000; do for seed in 1 2 3; do
    nice -n 10 "$SIM" --cc vivace --duration-s 20 --sample-ms 50 --buffer-kb $buf --seed $seed \
      --cc-param slow_start_exit_repipe=$arm --csv "$OUT/b$buf-s$seed-r$arm.csv" --json > "$OUT/b$buf-s$seed-r$arm.json"
  done; done
  for seed in 1 2 3; do
    nice -n 10 "$SIM" --cc vivace --duration-s 40 --sample-ms 50 --trace "$TR" --rtt-ms 40 --buffer-kb 300 --seed $seed \
      --cc-param slow_start_exit_repipe=$arm --json > "$OUT/tmobile-s$seed-r$arm.json"
  done
done
