#!/usr/bin/env bash
# One heavy-lock hold: the given lte-verizon-lte-short run ids (SCHEME/REP), 30 s, into OUT_DIR; logs UTC time, load and
# HEAD before/after to holds.jsonl and the tree's git status. Started under `flock /tmp/pcc-heavy.lock`.
# Usage: hold.sh NAME OUT_DIR LATEST_START_HHMM RUN... ; skips (rc 3) when the lock came after LATEST_START_HHMM UTC.
# HOLD_BENCH_ARGS (optional, split on spaces) is added to the bench command, e.g. a --cc-param variant (its own OUT_DIR).
set -u
name=$1 out=$2 latest=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
now=$(date -u +%H%M)
if [ "$now" -gt "$latest" ]; then echo "lock came at $now UTC, after $latest: skipped" >&2; exit 3; fi
log() { printf '{"hold":"%s","at":"%s","event":"%s","load1":%s,"head":"%s"}\n' "$name" "$(date -u +%FT%TZ)" "$1" \
  "$(cut -d' ' -f1 /proc/loadavg)" "$(git -C "$repo" rev-parse --short HEAD)" >> "$here/holds.jsonl"; }
git -C "$repo" status --short > "$here/git-status-$name.txt"
log start
args=()
for r in "$@"; do args+=(--run "lte-verizon-lte-short/$r"); done
cd "$repo" && timeout 470 npm run -s bench -- --suite lte --schemes vivace-video,vivace,tcp-cubic,tcp-bbr --duration-s 30 \
  --repetitions 3 ${HOLD_BENCH_ARGS:-} "${args[@]}" --out "$out"
rc=$?
log "end rc=$rc"
exit $rc
