#!/usr/bin/env bash
# The one heavy-lock hold of this folder (run under `flock /tmp/pcc-heavy.lock`): the shared WASM rebuild (under the
# build lock too; REBUILD=0 skips it), then vivace-video lte-verizon-lte-short runs of 30 s with
# --cc-param vivace-video.regain_without_queue=1 (on) or =0 (off), in the order given as ARM:REP, each into OUT/ARM.
# Per step it appends UTC time, 1-min load, HEAD and the WASM's sha256 prefix to holds.jsonl (../../hold_note.sh), and
# the tree's git status before each run to git-status-ARM-REP.txt.
# Usage: hold.sh OUT LATEST_START_HHMM ARM:REP...   (rc 3: the lock came after LATEST_START_HHMM UTC)
set -u
out=$1 latest=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
HOLD_REPO=$(git -C "$here" rev-parse --show-toplevel) HOLD_LOG=$here/holds.jsonl
. "$here/../../hold_note.sh"
[ "$(date -u +%H%M)" -le "$latest" ] || { echo "lock came after $latest UTC: skipped" >&2; exit 3; }
cd "$HOLD_REPO" || exit 2
if [ "${REBUILD:-1}" = 1 ]; then hold_rebuild || exit 2; fi
for spec in "$@"; do
  arm=${spec%%:*} rep=${spec#*:}
  case $arm in on) value=1 ;; off) value=0 ;; *) echo "unknown arm $arm" >&2; exit 2 ;; esac
  git status --short > "$here/git-status-$arm-$rep.txt"
  hold_note "start $arm/$rep"
  timeout 120 npm run -s bench -- --suite lte --schemes vivace-video --duration-s 30 --repetitions 3 \
    --cc-param "vivace-video.regain_without_queue=$value" --run "lte-verizon-lte-short/vivace-video/$rep" --out "$out/$arm"
  hold_note "end $arm/$rep rc=$?"
done
