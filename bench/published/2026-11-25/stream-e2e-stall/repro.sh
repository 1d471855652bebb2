#!/bin/bash
# usage (from anywhere in the repository, under the heavy lock): flock /tmp/pcc-heavy.lock repro.sh RUNS BUSY TAG
# Runs the stream=1 e2e test RUNS times (at most HOLD_S seconds, default 390) beside BUSY shell busy loops; extra page
# query for the test from H20S_EXTRA (the holds used a temporary hook in the test for it, not committed). Logs go to
# $OUT (default ./repro-logs); one JSON line per run on stdout with the test's diagnosis.
runs=$1; busy=$2; tag=$3
out=${OUT:-$PWD/repro-logs}; mkdir -p "$out"
cd "$(git rev-parse --show-toplevel)/e2e"; export H20S_EXTRA="$H20S_EXTRA"
pids=()
for i in $(seq 1 $busy); do ( while :; do :; done ) & pids+=($!); done
echo "{\"tag\":\"$tag\",\"start\":\"$(date -u +%T)\",\"load\":\"$(cut -d' ' -f1-3 /proc/loadavg)\",\"commit\":\"$(git rev-parse --short HEAD)\",\"busy\":$busy}"
end=$((SECONDS+${HOLD_S:-390}))
for r in $(seq 1 $runs); do
  [ $SECONDS -ge $end ] && break
  log=$out/$tag-$r.log
  timeout 150 node --import tsx --test --test-name-pattern "continuous stream" test/cmcd-cmsd.test.ts > $log 2>&1
  rc=$?
  diag=$(grep -o '{"component":"e2e","test":"stream-cmcd".*' $log | head -1)
  echo "{\"run\":$r,\"rc\":$rc,\"end\":\"$(date -u +%T)\",\"load\":\"$(cut -d' ' -f1 /proc/loadavg)\"} $diag" | cut -c1-600
done
for p in "${pids[@]}"; do kill $p; done
echo "{\"tag\":\"$tag\",\"end\":\"$(date -u +%T)\",\"load\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}"
