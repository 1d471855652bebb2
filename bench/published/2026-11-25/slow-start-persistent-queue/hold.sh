#!/usr/bin/env bash
# One heavy-lock hold (run under `flock /tmp/pcc-heavy.lock`): pair REP on TMobile-LTE-short, 30-s ABR, arms back to
# back: vv (vivace-video's defaults: slow_start_persistent_queue on), vv-off (--cc-param
# vivace-video.slow_start_persistent_queue=0), v (vivace), bbr (tcp-bbr). The arms that ../lte-fade-cut-regain/hold.sh
# knows run through it (HOLD_DIR: its notes and git status go to this folder); vv-off, which it does not know, runs
# here with the same bench command, noted the same way (../../hold_note.sh).
# Usage: hold.sh OUT REP LATEST_START_HHMM   (rc 3: the lock came after LATEST_START_HHMM UTC)
set -u
out=$1 rep=$2 latest=$3 scen=tmobile-lte-short
here=$(cd "$(dirname "$0")" && pwd)
export HOLD_DIR=$here
HOLD_REPO=$(git -C "$here" rev-parse --show-toplevel) HOLD_LOG=$here/holds.jsonl
. "$here/../../hold_note.sh"
shared="$here/../lte-fade-cut-regain/hold.sh"
bash "$shared" "$out" "$scen" "$latest" "vv:$rep" || exit $?
git -C "$HOLD_REPO" status --short > "$here/git-status-$scen-vv-off-$rep.txt"
hold_note "start $scen vv-off/$rep"
(cd "$HOLD_REPO" && timeout 120 npm run -s bench -- --suite lte --schemes vivace-video --duration-s 30 --repetitions 3 \
  --cc-param vivace-video.slow_start_persistent_queue=0 --run "lte-$scen/vivace-video/$rep" --out "$out/$scen/vv-off")
hold_note "end $scen vv-off/$rep rc=$?"
bash "$shared" "$out" "$scen" "$latest" "v:$rep" "bbr:$rep"
