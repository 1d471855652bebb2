#!/usr/bin/env bash
# One heavy-lock hold (run under `flock /tmp/pcc-heavy.lock`): pair REP on TMobile-LTE-short, 30-s ABR, four arms back
# to back: vvb / vvd (vivace-video with --player-param abandon=buffer / abandon=dashjs) and bbb / bbd (tcp-bbr, the
# same two). Through ../lte-fade-cut-regain/hold.sh (HOLD_DIR: its notes and git status go to this folder).
# The order alternates by pair so neither rule always runs first. Raw runs: OUT/tmobile-lte-short/<arm>/.
# Usage: hold.sh OUT REP LATEST_START_HHMM   (rc 3: the lock came after LATEST_START_HHMM UTC)
set -u
out=$1 rep=$2 latest=$3 scen=tmobile-lte-short
here=$(cd "$(dirname "$0")" && pwd)
export HOLD_DIR=$here
export ARM_vvb="vivace-video --player-param abandon=buffer" ARM_vvd="vivace-video --player-param abandon=dashjs"
export ARM_bbb="tcp-bbr --player-param abandon=buffer" ARM_bbd="tcp-bbr --player-param abandon=dashjs"
if [ $((rep % 2)) -eq 1 ]; then order=(vvb vvd bbb bbd); else order=(vvd vvb bbd bbb); fi
exec bash "$here/../lte-fade-cut-regain/hold.sh" "$out" "$scen" "$latest" "${order[@]/%/:$rep}"
