#!/bin/sh
# Runs sample_gap.py over the raw run directories this folder's summary read (not committed: /tmp of the machine).
# usage: sh runs.sh [--json OUT.jsonl] > tables.md   (roots overridable: B_REAL, ABANDON_RAW, ETP_REAL, LTE_DRIVING)
# Labels: TRACE/SOURCE/ARM-REP.
B_REAL=${B_REAL:-/tmp/B-real}; ABANDON_RAW=${ABANDON_RAW:-/tmp/abandon-raw}
ETP_REAL=${ETP_REAL:-/tmp/etp-real}; LTE_DRIVING=${LTE_DRIVING:-/tmp/lte-driving}
HERE=$(dirname "$0")
args=""
add() { # TRACE-label SOURCE-label ARM RUN-DIR-GLOB
  for d in $4; do [ -f "$d/abr-segments-player-1.jsonl" ] && args="$args $1/$2/$3-$(basename "$d")=$d"; done
}
for arm in vv vv-off v bbr; do add TMobile-LTE-short B-real $arm "$B_REAL/tmobile-lte-short/$arm/runs/lte-tmobile-lte-short/*/[0-9]"; done
for arm in vvd bbd vvb bbb; do add TMobile-LTE-short abandon-raw $arm "$ABANDON_RAW/tmobile-lte-short/$arm/runs/lte-tmobile-lte-short/*/[0-9]"; done
for t in tmobile-lte-short:TMobile-LTE-short verizon-lte-short:Verizon-LTE-short; do
  for arm in vv vvp bbr; do add "${t##*:}" etp-real $arm "$ETP_REAL/${t%%:*}/$arm/runs/lte-${t%%:*}/*/[0-9]"; done
done
for t in tmobile-lte-driving:TMobile-LTE-driving att-lte-driving-2016:ATT-LTE-driving-2016; do
  for arm in vv v bbr cubic; do add "${t##*:}" lte-driving $arm "$LTE_DRIVING/${t%%:*}/$arm/runs/lte-${t%%:*}/*/[0-9]"; done
done
# shellcheck disable=SC2086
exec nice -n 10 python3 "$HERE/sample_gap.py" "$@" $args
