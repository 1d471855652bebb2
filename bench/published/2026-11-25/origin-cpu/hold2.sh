#!/bin/bash
# usage (from the repository root): flock /tmp/pcc-heavy.lock bench/published/2026-11-25/origin-cpu/hold2.sh /ABSOLUTE/OUT_DIR
# one heavy-lock hold: paired before/after runs of fidelity-loss-0pct/vivace (20 s), order B A A B B A.
# before = 08078da's token-bucket.ts and send-loop.ts put in place for the run, restored from 712aebe after it.
out=$1
cd "$(dirname "$0")/../../../.."  # the repository root
F="server/src/datagram/token-bucket.ts server/src/datagram/send-loop.ts"
run() { # label pair
  local label=$1 pair=$2 id=fidelity-loss-0pct/vivace/$2
  if [ $label = before ]; then for f in $F; do git show 08078da:$f > $f; done; fi
  echo "{\"label\":\"$label\",\"pair\":$pair,\"start\":\"$(date -u +%T)\",\"load_before\":$(cut -d' ' -f1 /proc/loadavg),\"head\":\"$(git rev-parse --short HEAD)\",\"files\":\"$(git diff --stat -- $F | tail -1)\"}" >> $out/loads.jsonl
  git status --short > $out/git-status-$label-$pair.txt
  npm run -s bench -- --suite fidelity --duration-s 20 --run $id --out $out/$label-$pair > $out/$label-$pair.log 2>&1
  echo "{\"label\":\"$label\",\"pair\":$pair,\"end\":\"$(date -u +%T)\",\"load_after\":$(cut -d' ' -f1 /proc/loadavg)}" >> $out/loads.jsonl
  if [ $label = before ]; then for f in $F; do git show 712aebe:$f > $f; done; fi
}
run before 1; run after 1; run after 2; run before 2; run before 3; run after 3
git diff --stat -- $F > $out/restored-check.txt
