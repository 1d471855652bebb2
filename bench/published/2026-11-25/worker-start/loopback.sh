#!/usr/bin/env bash
# usage: OUT=/ABS/OUT flock /tmp/pcc-heavy.lock bench/published/2026-11-25/worker-start/loopback.sh
# Issue 18's worker-start on loopback in one hold: builds the player (vite, if stale), runs the worker-start and
# session-start e2e tests, then measure.ts's page timelines on loopback, REPS (default 5) repetitions of the new start
# (default), the old one (workerScript=fetched) and the serial one (sessionStart=serial), back to back, the order
# rotating. Loads, HEAD and the shared WASM's sha256 in $OUT/holds.jsonl, the timelines in $OUT/loopback.jsonl.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$HERE/../crtt15-after-fixes/hold-log.sh"
log hold-start
npm run -s build -w player > "$OUT/build.log" 2>&1 || { log build-failed; exit 1; }; log built
(cd e2e && timeout 200 node --import tsx --test test/worker-start.test.ts test/session-start.test.ts) > "$OUT/e2e.log" 2>&1; log "e2e rc $?"
timeout 200 node --import tsx "$HERE/measure.ts" loopback "$OUT/loopback" "${REPS:-5}" default workerScript=fetched sessionStart=serial \
  >> "$OUT/loopback.jsonl" 2>> "$OUT/loopback.log"
log "loopback rc $?"
log hold-end
