#!/usr/bin/env bash
# The one hold of this folder: 3 repetitions, each of vivace-video (the queue bound on, its default), vivace-video with
# the bound off (video_queue_spare_share=0, its own DIR) and tcp-bbr, order rotated per repetition; hold.sh logs each run.
# Usage (under flock /tmp/pcc-heavy.lock): paired-hold.sh OUT_ROOT LATEST_START_HHMM
set -u
out=$1 latest=$2
here=$(cd "$(dirname "$0")" && pwd)
off=(HOLD_BENCH_ARGS="--cc-param vivace-video.video_queue_spare_share=0")
one() {
  case $1 in
    on) "$here/hold.sh" "r$2-on" "$out/on" "$latest" "vivace-video/$2" ;;
    off) env "${off[@]}" "$here/hold.sh" "r$2-off" "$out/off" "$latest" "vivace-video/$2" ;;
    bbr) "$here/hold.sh" "r$2-bbr" "$out/on" "$latest" "tcp-bbr/$2" ;;
  esac
}
for spec in "1 on off bbr" "2 bbr off on" "3 off on bbr"; do
  set -- $spec; rep=$1; shift
  for v in "$@"; do one "$v" "$rep" || exit $?; done
done
