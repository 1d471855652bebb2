#!/bin/bash
# A/B hold: pairs of fidelity-loss-0pct/vivace/N, 10 s, recorded; the before arm runs from BEFORE_DIR (a worktree at the
# before commit with its own WASM build), the after arm from AFTER_DIR; odd N: before first, even N: after first.
# usage: BEFORE_DIR=WT AFTER_DIR=TREE OUT=DIR ab-hold.sh [single before|after N] N...  (under the heavy lock)
one() { # label dir n
  label=$1; dir=$2; n=$3; out=${OUT:?output folder}/$label-$n
  cd $dir
  echo "{\"run\":\"fidelity-loss-0pct/vivace/$n\",\"label\":\"$label\",\"phase\":\"before\",\"t\":\"$(date -u +%FT%TZ)\",\"loadavg\":\"$(cat /proc/loadavg)\",\"dir\":\"$dir\",\"commit\":\"$(git rev-parse --short HEAD)\",\"status_controller_server\":\"$(git status --short controller-wasm server | tr '\n' ';')\"}" >> $OUT/holds.jsonl
  timeout 240 npm run -s bench -- --suite fidelity --repetitions 6 --duration-s 10 --record --run fidelity-loss-0pct/vivace/$n --out $out > $out.log 2>&1
  rc=$?
  echo "{\"run\":\"fidelity-loss-0pct/vivace/$n\",\"label\":\"$label\",\"phase\":\"after\",\"t\":\"$(date -u +%FT%TZ)\",\"loadavg\":\"$(cat /proc/loadavg)\",\"rc\":$rc}" >> $OUT/holds.jsonl
}
B=${BEFORE_DIR:?a worktree at the before commit}; A=${AFTER_DIR:?the tree at the after commit}
if [ "$1" = single ]; then one $2 $([ $2 = before ] && echo $B || echo $A) $3; shift 3; fi
for n in "$@"; do
  if [ $((n % 2)) -eq 1 ]; then one before $B $n; one after $A $n; else one after $A $n; one before $B $n; fi
done
