#!/bin/sh
# pcc-sim A/B of slow_start_exit_repipe on the LTE traces: PCC_SIM OUT_DIR VALUE...
# Each of TMobile-LTE-short, Verizon-LTE-short and ATT-LTE-driving-2016 (.down) rotated to start 0, 10, ..., 100 s in
# (rotate_trace.py: 11 windows of the same trace), 300 KB, 40 ms RTT, 40 s, seeds 1-3 (a seed changes only the send
# jitter, so seeds of one window are not independent draws), vivace with --cc-param slow_start_exit_repipe=VALUE.
# VALUE 0/1: the committed parameter; 2-7: the variants of variants.diff (a build with it applied).
SIM=$1; OUT=$2; shift 2
HERE=$(dirname "$0"); TR=$HERE/../../../traces
mkdir -p "$OUT/traces"
for t in TMobile-LTE-short Verizon-LTE-short ATT-LTE-driving-2016; do for off in 0 10 20 30 40 50 60 70 80 90 100; do
  python3 "$HERE/rotate_trace.py" "$TR/$t.down" $off "$OUT/traces/$t-o$off.down"
done; done
for f in "$OUT"/traces/*.down; do b=$(basename "$f" .down); for seed in 1 2 3; do for v in "$@"; do
  nice -n 10 "$SIM" --cc vivace --duration-s 40 --sample-ms 50 --trace "$f" --rtt-ms 40 --buffer-kb 300 --seed $seed \
    --cc-param slow_start_exit_repipe=$v --csv "$OUT/$b-s$seed-r$v.csv" --json > "$OUT/$b-s$seed-r$v.json"
done; done; done
