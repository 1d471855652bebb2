#!/bin/bash
# usage: flock /tmp/pcc-heavy.lock bench/published/2026-11-25/pacer-debt/hold2/fr.sh /ABSOLUTE/DIR
# fixed-rate.test with each bucket variant in place, restored to HEAD's after (HEAD was 6f32e92)
DIR=$1  # holds old-tb.ts (712aebe), new-tb.ts (6f32e92), cand-tb.ts (6f32e92 with DEBT_REPAY_FRACTION 0.25)
cd "$(dirname "$0")/../../../../.."  # the repository root
F=server/src/datagram/token-bucket.ts
for v in old new cand; do
  cp $DIR/$v-tb.ts $F
  echo "== $v start $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
  (cd server && nice -n 19 node --import tsx --test test/fixed-rate.test.ts 2>&1 | grep -E "^not ok|^ok|per-second|error")
done
git show HEAD:$F > $F
echo "end $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) diff: $(git diff --stat -- $F)"
