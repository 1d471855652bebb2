#!/bin/bash
# usage: OUT=DIR startup-hold.sh N...   (under /tmp/pcc-heavy.lock, from anywhere): issue 17's startup, the fidelity
# suite's 0 % loss case (100 Mbit/s, 30 ms, 75 KB), vivace, 10 s, recorded, one bench invocation per N (as ../startup-2).
set -u
: "${OUT:?set OUT}"
cd "$(dirname "$0")/../../../.."
{
echo "locked $(date -u +%T) load $(cat /proc/loadavg) HEAD $(git rev-parse --short HEAD) wasm $(sha256sum controller-wasm/wasm-dist/pcc_cc.wasm | cut -c1-16)"
for n in "$@"; do
  echo "run $n start $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
  timeout 150 nice -n 19 npm run -s bench -- --suite fidelity --repetitions 6 --duration-s 10 --record --run fidelity-loss-0pct/vivace/$n --out "$OUT/startup"
  echo "run $n done rc=$? $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
done
echo "released $(date -u +%T) load $(cat /proc/loadavg)"
} >>"$OUT/startup.log" 2>&1
