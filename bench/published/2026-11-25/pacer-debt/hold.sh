#!/bin/bash
# usage (from the repository root): flock /tmp/pcc-heavy.lock bench/published/2026-11-25/pacer-debt/hold.sh /ABSOLUTE/OUT_DIR
# one heavy-lock hold: paired before/after runs of bulk-100mbps-30ms-75kb-0pct/vivace (20 s, recorded, with the
# simulator's twin), order B A A B B A. before = 712aebe's token-bucket.ts put in place for the run, restored
# from HEAD after it (send-loop.ts is 712aebe's in both).
out=$1
cd "$(dirname "$0")/../../../.."  # the repository root
F=server/src/datagram/token-bucket.ts
git show HEAD:$F > $out/after-token-bucket.ts
run() { # label pair
  local label=$1 pair=$2 id=bulk-100mbps-30ms-75kb-0pct/vivace/$2
  if [ $label = before ]; then git show 712aebe:$F > $F; fi
  echo "{\"label\":\"$label\",\"pair\":$pair,\"start\":\"$(date -u +%T)\",\"load_before\":$(cut -d' ' -f1 /proc/loadavg),\"head\":\"$(git rev-parse --short HEAD)\",\"files\":\"$(git diff --stat -- $F | tail -1)\"}" >> $out/loads.jsonl
  git status --short > $out/git-status-$label-$pair.txt
  npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-75kb-0pct.json --schemes vivace --repetitions 3 --duration-s 20 --fidelity --record --run $id --out $out/$label-$pair > $out/$label-$pair.log 2>&1
  echo "{\"label\":\"$label\",\"pair\":$pair,\"end\":\"$(date -u +%T)\",\"load_after\":$(cut -d' ' -f1 /proc/loadavg)}" >> $out/loads.jsonl
  if [ $label = before ]; then cp $out/after-token-bucket.ts $F; fi
}
run before 1; run after 1; run after 2; run before 2; run before 3; run after 3
git diff --stat -- $F > $out/restored-check.txt
