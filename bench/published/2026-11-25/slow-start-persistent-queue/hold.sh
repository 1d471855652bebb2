#!/usr/bin/env bash
# One heavy-lock hold (run under `flock /tmp/pcc-heavy.lock`): pair REP on TMobile-LTE-short, 30-s ABR, arms back to
# back: vv (vivace-video's defaults: slow_start_persistent_queue on), vv-off (--cc-param
# vivace-video.slow_start_persistent_queue=0), v (vivace), bbr (tcp-bbr). All run through
# ../lte-fade-cut-regain/hold.sh (HOLD_DIR: its notes and git status go to this folder; vv-off defined as ARM_vv_off).
# Usage: hold.sh OUT REP LATEST_START_HHMM   (rc 3: the lock came after LATEST_START_HHMM UTC)
set -u
out=$1 rep=$2 latest=$3 scen=tmobile-lte-short
here=$(cd "$(dirname "$0")" && pwd)
export HOLD_DIR=$here
export ARM_vv_off="vivace-video --cc-param vivace-video.slow_start_persistent_queue=0"
exec bash "$here/../lte-fade-cut-regain/hold.sh" "$out" "$scen" "$latest" "vv:$rep" "vv-off:$rep" "v:$rep" "bbr:$rep"
