#!/usr/bin/env bash
# One heavy-lock hold (run under `flock /tmp/pcc-heavy.lock`): the player build if stale (player/dist is what the bench
# serves), then 30-s ABR runs of scenario SCEN (lte-verizon-lte-short, lte-tmobile-lte-short) in the order given as
# ARM:REP, each into OUT/SCEN/ARM. Arms: vv / vvd (vivace-video, the page's ABR / dash.js's: --player-param
# abrThroughput=dashjs), vvr (vivace-video with --cc-param vivace-video.regain_without_queue=1), v (vivace), bbr / bbrd
# (tcp-bbr, the page's ABR / dash.js's), cubic (tcp-cubic). Per step it appends UTC time, 1-min load, HEAD and the
# WASM's sha256 prefix to holds.jsonl (../../hold_note.sh) and the tree's git status before each run to
# git-status-SCEN-ARM-REP.txt.
# REPS (default 3) is the scenario's repetition count, for a REP above 3.
# Usage: [REPS=N] hold.sh OUT SCEN LATEST_START_HHMM ARM:REP...   (rc 3: the lock came after LATEST_START_HHMM UTC)
set -u
out=$1 scen=$2 latest=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
HOLD_REPO=$(git -C "$here" rev-parse --show-toplevel) HOLD_LOG=$here/holds.jsonl
. "$here/../../hold_note.sh"
[ "$(date -u +%H%M)" -le "$latest" ] || { echo "lock came after $latest UTC: skipped" >&2; exit 3; }
cd "$HOLD_REPO" || exit 2
hold_note "player build start"
npm run -s build -w @pcc-stream/player >/dev/null || { hold_note "player build failed"; exit 2; }
hold_note "player build end"
for spec in "$@"; do
  arm=${spec%%:*} rep=${spec#*:}
  case $arm in
    vv|vvd|vvr) scheme=vivace-video ;;
    v) scheme=vivace ;;
    bbr|bbrd) scheme=tcp-bbr ;;
    cubic) scheme=tcp-cubic ;;
    *) echo "unknown arm $arm" >&2; exit 2 ;;
  esac
  extra=()
  case $arm in
    vvd|bbrd) extra=(--player-param abrThroughput=dashjs) ;;
    vvr) extra=(--cc-param vivace-video.regain_without_queue=1) ;;
  esac
  git status --short > "$here/git-status-$scen-$arm-$rep.txt"
  hold_note "start $scen $arm/$rep"
  timeout 120 npm run -s bench -- --suite lte --schemes "$scheme" --duration-s 30 --repetitions "${REPS:-3}" \
    "${extra[@]}" --run "lte-$scen/$scheme/$rep" --out "$out/$scen/$arm"
  hold_note "end $scen $arm/$rep rc=$?"
done
