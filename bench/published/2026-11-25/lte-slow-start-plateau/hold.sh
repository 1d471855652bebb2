#!/usr/bin/env bash
# One heavy-lock hold (run under `flock /tmp/pcc-heavy.lock`): optionally the shared WASM rebuild (REBUILD=1, under
# the build lock too), then lte-verizon-lte-short runs of 30 s in the order given as ARM:REP. Arms: on / off
# (vivace-video with --cc-param vivace-video.slow_start_delivery_plateau=$PLATEAU / =0), von / voff (the same for plain
# vivace), bbr (tcp-bbr); each into OUT/ARM. Per run it logs UTC time, 1-min load, HEAD and the WASM's sha256 prefix
# to holds.jsonl and the tree's git status to git-status-NAME-ARM-REP.txt.
# Usage: PLATEAU=0.5 hold.sh NAME OUT LATEST_START_HHMM ARM:REP...   (rc 3: the lock came after LATEST_START_HHMM UTC)
set -u
name=$1 out=$2 latest=$3; shift 3
f=${PLATEAU:?set PLATEAU}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
[ "$(date -u +%H%M)" -le "$latest" ] || { echo "lock came after $latest UTC: skipped" >&2; exit 3; }
log() { printf '{"hold":"%s","at":"%s","event":"%s","load1":%s,"head":"%s","wasm":"%s"}\n' "$name" "$(date -u +%FT%TZ)" \
  "$1" "$(cut -d' ' -f1 /proc/loadavg)" "$(git -C "$repo" rev-parse --short HEAD)" \
  "$(sha256sum "$repo/controller-wasm/wasm-dist/pcc_cc.wasm" | cut -c1-8)" >> "$here/holds.jsonl"; }
cd "$repo" || exit 2
if [ "${REBUILD:-0}" = 1 ]; then
  log "rebuild start"
  flock /tmp/pcc-build.lock npm run -s build -w @pcc-stream/controller >/dev/null || { log "rebuild failed"; exit 2; }
  log "rebuild end"
fi
for spec in "$@"; do
  arm=${spec%%:*} rep=${spec#*:}
  case $arm in
    on|off) scheme=vivace-video ;;
    von|voff) scheme=vivace ;;
    bbr) scheme=tcp-bbr ;;
    *) echo "unknown arm $arm" >&2; exit 2 ;;
  esac
  case $arm in
    on|von) param=(--cc-param "$scheme.slow_start_delivery_plateau=$f") ;;
    off|voff) param=(--cc-param "$scheme.slow_start_delivery_plateau=0") ;;
    *) param=() ;;
  esac
  git status --short > "$here/git-status-$name-$arm-$rep.txt"
  log "start $arm/$rep"
  timeout 120 npm run -s bench -- --suite lte --schemes vivace-video,vivace,tcp-bbr --duration-s 30 --repetitions 3 \
    "${param[@]}" --run "lte-verizon-lte-short/$scheme/$rep" --out "$out/$arm"
  log "end $arm/$rep rc=$?"
done
