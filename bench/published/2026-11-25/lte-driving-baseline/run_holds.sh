#!/usr/bin/env bash
# Six heavy-lock holds, one per pair per trace (pairs interleaved across the two driving traces so an early stop
# leaves both with equal n), each running ../lte-fade-cut-regain/hold.sh with this folder as HOLD_DIR: arms vv
# (vivace-video defaults), v (vivace), bbr (tcp-bbr), cubic (tcp-cubic), order rotated per pair, same seed (rep) in a hold.
# The lock is released between holds. Usage: run_holds.sh OUT LATEST_START_HHMM
set -u
out=$1 latest=$2
here=$(cd "$(dirname "$0")" && pwd)
orders=("vv v bbr cubic" "v bbr cubic vv" "bbr cubic vv v")
for rep in 1 2 3; do
  for scen in att-lte-driving-2016 tmobile-lte-driving; do
    specs=(); for arm in ${orders[$((rep-1))]}; do specs+=("$arm:$rep"); done
    HOLD_DIR=$here flock /tmp/pcc-heavy.lock bash "$here/../lte-fade-cut-regain/hold.sh" "$out" "$scen" "$latest" "${specs[@]}"
    rc=$?; echo "$(date -u +%T) $scen rep $rep rc=$rc"
    [ $rc -eq 3 ] && exit 3
  done
done
