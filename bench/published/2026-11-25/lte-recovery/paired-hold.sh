#!/usr/bin/env bash
# The holds of this folder: each argument is REP:ARM, run in that order, one 30 s lte-verizon-lte-short run each
# (hold.sh -> ../lte-abr-gap/hold.sh logs each run's UTC time, load and HEAD to holds.jsonl). Arms: vv (vivace-video
# at its defaults, the held pre-dip rate on), off (vivace-video with video_hold_pre_dip_rate=0, its own DIR, as
# before 1fdce12), vivace, cubic (tcp-cubic), bbr (tcp-bbr).
# Usage (under flock /tmp/pcc-heavy.lock): paired-hold.sh OUT_ROOT LATEST_START_HHMM REP:ARM...
set -u
out=$1 latest=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
for spec in "$@"; do
  rep=${spec%%:*} arm=${spec#*:}
  case $arm in
    vv) "$here/hold.sh" "r$rep-vv" "$out/on" "$latest" "vivace-video/$rep" ;;
    off) HOLD_BENCH_ARGS="--cc-param vivace-video.video_hold_pre_dip_rate=0" \
      "$here/hold.sh" "r$rep-off" "$out/off" "$latest" "vivace-video/$rep" ;;
    vivace) "$here/hold.sh" "r$rep-vivace" "$out/on" "$latest" "vivace/$rep" ;;
    cubic) "$here/hold.sh" "r$rep-cubic" "$out/on" "$latest" "tcp-cubic/$rep" ;;
    bbr) "$here/hold.sh" "r$rep-bbr" "$out/on" "$latest" "tcp-bbr/$rep" ;;
    *) echo "unknown arm $arm" >&2; exit 2 ;;
  esac || exit $?
done
