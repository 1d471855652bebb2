#!/bin/bash
# usage: hold.sh NAME FIRST_N BUDGET_S [busy]
# Under /tmp/pcc-heavy.lock: the faults short form's blackout case (vivace, 24 s, recorded), one run per bench
# invocation (repetition N = run id blackout/vivace/N), until the budget leaves too little for another run.
set -u
: "${OUT:?set OUT to the directory for the logs and runs}"
cd /work/main
name=$1; n=$2; budget=$3; busy=${4:-}
log=$OUT/$name.log
{
echo "locked $(date -u +%T) load $(cat /proc/loadavg) HEAD $(git rev-parse --short HEAD) wasm $(sha256sum controller-wasm/wasm-dist/pcc_cc.wasm | cut -c1-16)"
git status --short
b1=
if [ "$busy" = busy ]; then ( while :; do :; done ) & b1=$!; echo "busy loop pid $b1"; fi
end=$(( $(date +%s) + budget ))
cutoff=$(date -u -d '02:57:00' +%s)  # no heavy run after 02:57 UTC (helper rules, session 17 second round)
[ $end -gt $cutoff ] && end=$cutoff
while [ $(date +%s) -lt $(( end - 45 )) ]; do
  echo "run $n start $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
  timeout 120 nice -n 19 npm run -s bench -- --suite faults --duration-s 24 --schemes vivace --repetitions 100 --run blackout/vivace/$n --record --out $OUT/$name
  echo "run $n done rc=$? $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
  n=$((n+1))
done
[ -n "$b1" ] && kill $b1
echo "released $(date -u +%T) load $(cat /proc/loadavg)"
} >>$log 2>&1
