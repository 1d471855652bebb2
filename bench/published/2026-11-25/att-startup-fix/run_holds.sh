#!/usr/bin/env bash
# This folder's runs: two heavy-lock holds (about 40 s a run), through ../lte-fade-cut-regain/hold.sh on
# ATT-LTE-driving-2016 (30-s ABR): vv (vivace-video), vvoff (vivace-video with --cc-param
# vivace-video.first_rtt_silence=0, the rules off), v (vivace), bbr, cubic; seed N = pair N; each pair's vv, vvoff and v
# in one hold, back to back. The second hold runs pair 3's datagram arms first and the TCP runs of pairs 2-3 only if
# it is not yet LATEST_TCP (HHMM UTC) by then.
# Usage: run_holds.sh OUT LATEST_START_HHMM LATEST_TCP_HHMM
set -u
out=$1 latest=$2 latest_tcp=$3
here=$(cd "$(dirname "$0")" && pwd)
export HOLD_DIR=$here ARM_vvoff="vivace-video --cc-param vivace-video.first_rtt_silence=0"
hold=$here/../lte-fade-cut-regain/hold.sh
flock /tmp/pcc-heavy.lock "$hold" "$out" att-lte-driving-2016 "$latest" vv:1 vvoff:1 v:1 bbr:1 cubic:1 vvoff:2 v:2 vv:2 \
  || exit $?
flock /tmp/pcc-heavy.lock bash -c "$hold $out att-lte-driving-2016 $latest v:3 vv:3 vvoff:3 &&
  $hold $out att-lte-driving-2016 $latest_tcp bbr:2 cubic:2 bbr:3 cubic:3"
