#!/usr/bin/env bash
# One heavy-lock hold of this folder (started under `flock /tmp/pcc-heavy.lock`): optionally the shared WASM rebuild
# (REBUILD=1, under the build lock too), then lte-verizon-lte-short runs, 30 s each, in the order given as ARM:REP.
# Arms: on (vivace-video with --cc-param vivace-video.video_startup_full_latency=1, into OUT/on), off (=0, OUT/off),
# vivace, bbr (tcp-bbr), cubic (tcp-cubic) (OUT/other). Logs UTC time, 1-min load, HEAD and the WASM's sha256 prefix
# per run to holds.jsonl and the tree's git status per run to git-status-NAME.txt.
# Usage: hold.sh NAME OUT LATEST_START_HHMM ARM:REP... ; skips (rc 3) when the lock came after LATEST_START_HHMM UTC.
set -u
name=$1 out=$2 latest=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
if [ "$(date -u +%H%M)" -gt "$latest" ]; then echo "lock came after $latest UTC: skipped" >&2; exit 3; fi
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
    on) scheme=vivace-video dir=on param=(--cc-param vivace-video.video_startup_full_latency=1) ;;
    off) scheme=vivace-video dir=off param=(--cc-param vivace-video.video_startup_full_latency=0) ;;
    vivace) scheme=vivace dir=other param=() ;;
    bbr) scheme=tcp-bbr dir=other param=() ;;
    cubic) scheme=tcp-cubic dir=other param=() ;;
    *) echo "unknown arm $arm" >&2; exit 2 ;;
  esac
  git status --short > "$here/git-status-$name-$arm-$rep.txt"
  log "start $arm/$rep"
  timeout 120 npm run -s bench -- --suite lte --schemes vivace-video,vivace,tcp-cubic,tcp-bbr --duration-s 30 \
    --repetitions 3 "${param[@]}" --run "lte-verizon-lte-short/$scheme/$rep" --out "$out/$dir"
  log "end $arm/$rep rc=$?"
done
