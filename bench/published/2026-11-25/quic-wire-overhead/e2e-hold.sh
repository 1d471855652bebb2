#!/usr/bin/env bash
# Hold 2: the e2e test that plays video in Chromium over WebTransport datagrams (vivace), twice, after the addon
# rebuild with the client's connectionIdBytes option. OUT: log folder.
set -u
OUT=${OUT:-/tmp/wt-d-hold2}
source "$(dirname "$0")/../crtt15-after-fixes/hold-log.sh"
for i in 1 2; do
  log "start e2e/$i"
  (cd e2e && nice -n 19 node --import tsx --test --test-concurrency=1 --test-name-pattern 'vivace over WebTransport datagrams plays' test/playback.test.ts) >> "$OUT/e2e.log" 2>&1
  log "done e2e/$i rc=$?"
done
