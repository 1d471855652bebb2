#!/usr/bin/env bash
# One heavy-lock hold (run under `flock /tmp/pcc-heavy.lock`): 30-s ABR runs of the lte-suite trace SCEN, ARM:REP in
# the order given, each into OUT/SCEN/ARM. Arms differ by the origin's --etp-source (server README "CMCD in, CMSD
# out"): vv = vivace-video, measured (the default at c8b148e, passed explicitly so results.jsonl records it); vvp =
# vivace-video, pacing (the rule before); bbr = tcp-bbr (its etp is the kernel's; the flag does not touch it, passed
# the same so all three arms' origins take it). As ../lte-fade-cut-regain/hold.sh, whose arms are controller
# parameters only: per step the UTC time, 1-min load, HEAD and WASM prefix go to holds.jsonl (../../hold_note.sh),
# the tree's git status to git-status-SCEN-ARM-REP.txt.
# Usage: hold.sh OUT SCEN LATEST_START_HHMM ARM:REP...   (rc 3: the lock came after LATEST_START_HHMM UTC)
set -u
out=$1 scen=$2 latest=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
HOLD_REPO=$(git -C "$here" rev-parse --show-toplevel) HOLD_LOG=$here/holds.jsonl
. "$here/../../hold_note.sh"
if [ "$(date -u +%H%M)" -gt "$latest" ]; then echo "lock came after $latest UTC: skipped" >&2; exit 3; fi
cd "$HOLD_REPO" && hold_player_build || exit 2
for spec in "$@"; do
  arm=${spec%%:*} rep=${spec#*:}
  case $arm in
    vv) scheme=vivace-video etp=measured ;;
    vvp) scheme=vivace-video etp=pacing ;;
    bbr) scheme=tcp-bbr etp=measured ;;
    *) echo "unknown arm $arm" >&2; exit 2 ;;
  esac
  git status --short > "$here/git-status-$scen-$arm-$rep.txt"
  hold_note "start $scen $arm/$rep"
  timeout 120 npm run -s bench -- --suite lte --schemes "$scheme" --duration-s 30 --repetitions 3 \
    --origin-arg="--etp-source=$etp" --run "lte-$scen/$scheme/$rep" --out "$out/$scen/$arm"
  hold_note "end $scen $arm/$rep rc=$?"
done
