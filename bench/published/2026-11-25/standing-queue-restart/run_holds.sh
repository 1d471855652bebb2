#!/usr/bin/env bash
# This folder's real-path A/B (issue 18, the starving restart's standing-queue test): through
# ../lte-fade-cut-regain/hold.sh, 30-s ABR runs, vv (vivace-video, its defaults: video_starved_restart_lowest_rtt=1, the
# MI's lowest RTT sample) vs vvmean (--cc-param vivace-video.video_starved_restart_lowest_rtt=0, the mean RTT as
# before), both recording their controller (--record); pair N = linkem seed N, its two arms back to back (odd pairs vv
# first, even vvmean first). Hold 1: tmobile-lte-driving pairs TM_PAIRS (default 1 2 3). Hold 2: att-lte-driving-2016
# pairs ATT_PAIRS (default 1 2 3; empty: no hold), a pair only if it starts before LATEST_ATT (HHMM UTC, exclusive).
# Before each hold the WASM must be WASM_PREFIX (else rc 4). The second call: TM_PAIRS="4 5 6" ATT_PAIRS="".
# Run under `flock -s /tmp/pcc-build.lock` so the WASM cannot be rebuilt under it.
# Usage: run_holds.sh OUT WASM_PREFIX LATEST_TMOBILE_HHMM LATEST_ATT_HHMM
set -u
out=$1 wasm=$2 latest_tm=$3 latest_att=$4
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
# --repetitions 6 (after hold.sh's 3; the last one counts) so that pairs 4-6 exist as run ids (linkem seed = pair)
export HOLD_DIR=$here ARM_vv="vivace-video --record --repetitions 6" \
  ARM_vvmean="vivace-video --record --repetitions 6 --cc-param vivace-video.video_starved_restart_lowest_rtt=0"
hold=$here/../lte-fade-cut-regain/hold.sh
check_wasm() {
  local w
  w=$(sha256sum "$repo/controller-wasm/wasm-dist/pcc_cc.wasm" | cut -c1-8)
  [ "$w" = "$wasm" ] || { echo "WASM is $w, not $wasm: stop" >&2; return 4; }
}
pair() { if [ $(($2 % 2)) -eq 1 ]; then echo "vv:$2 vvmean:$2"; else echo "vvmean:$2 vv:$2"; fi; }
export -f check_wasm pair
tm_pairs=${TM_PAIRS-1 2 3} att_pairs=${ATT_PAIRS-1 2 3}
export repo wasm hold out latest_tm latest_att tm_pairs att_pairs
flock /tmp/pcc-heavy.lock bash -c 'check_wasm || exit 4
  "$hold" "$out" tmobile-lte-driving "$latest_tm" $(for n in $tm_pairs; do pair x $n; done)'
rc=$?
[ $rc -ne 0 ] && { echo "$(date -u +%T) tmobile hold rc=$rc" >&2; [ $rc -eq 4 ] && exit 4; }
[ -z "$att_pairs" ] && exit $rc
flock /tmp/pcc-heavy.lock bash -c 'check_wasm || exit 4
  for n in $att_pairs; do "$hold" "$out" att-lte-driving-2016 "$latest_att" $(pair x $n) || exit $?; done'
