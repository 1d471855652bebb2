#!/bin/bash
# usage: OUT=DIR [CUTOFF=HH:MM:SS] hold.sh NAME FIRST_N BUDGET_S [busy]   (run under /tmp/pcc-heavy.lock, from anywhere)
# The faults short form's blackout case (vivace, 24 s, recorded), one run per bench invocation (run id
# blackout/vivace/N), until the budget (or CUTOFF UTC, by default 05:32, session 18's last heavy-run time) leaves
# too little for another run. busy: one busy loop beside, for the CI's 2-core load (as blackout-recovery-4's h2).
set -u
: "${OUT:?set OUT to the directory for the logs and runs}"
cd "$(dirname "$0")/../../../.."
name=$1; n=$2; budget=$3; busy=${4:-}
{
echo "locked $(date -u +%T) load $(cat /proc/loadavg) HEAD $(git rev-parse --short HEAD) wasm $(sha256sum controller-wasm/wasm-dist/pcc_cc.wasm | cut -c1-16)"
git status --short
b1=
if [ "$busy" = busy ]; then ( while :; do :; done ) & b1=$!; echo "busy loop pid $b1"; fi
end=$(( $(date +%s) + budget )); cutoff=$(date -u -d "${CUTOFF:-05:32:00}" +%s)
[ $end -gt $cutoff ] && end=$cutoff
while [ $(date +%s) -lt $(( end - 40 )) ]; do
  echo "run $n start $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
  timeout 120 nice -n 19 npm run -s bench -- --suite faults --duration-s 24 --schemes vivace --repetitions 100 --run blackout/vivace/$n --record --out "$OUT/$name"
  echo "run $n done rc=$? $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
  n=$((n+1))
done
[ -n "$b1" ] && kill "$b1"
echo "released $(date -u +%T) load $(cat /proc/loadavg)"
} >>"$OUT/$name.log" 2>&1
