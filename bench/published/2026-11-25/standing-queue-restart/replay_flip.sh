#!/usr/bin/env bash
# Open-loop counterfactual per recording: replay each run's controller recording (--record) with the other value of
# video_starved_restart_lowest_rtt (a `param` line after the recording's own params) through pcc-replay --check, and
# print the session time of the first decision that differs (the switch mattered from there on; after it the replay's
# inputs are the recorded run's, not what the other rule would have met) or "identical" (the switch changed nothing).
# Usage: replay_flip.sh PCC_REPLAY OUT   (PCC_REPLAY: a native build of the recorded controller, same build id)
set -u
replay=$1 out=$2
tmp=$(mktemp)
for f in "$out"/*/vv*/runs/*/vivace-video/*/record/*.replay; do
  rel=${f#"$out"/}; scen=${rel%%/*}; rest=${rel#*/}; arm=${rest%%/*}
  n=$(basename "$(dirname "$(dirname "$f")")")
  v=0; [ "$arm" = vvmean ] && v=1
  awk -v v="$v" '{print} /^param / && !done {print "param video_starved_restart_lowest_rtt " v; done=1}' "$f" > "$tmp"
  # Exit 0: every decision as recorded; 1 (this build) or 3 (a recording of another build, 8d891a4): one differs,
  # named with its line; anything else is an error, never read as "identical".
  report=$("$replay" --check "$tmp" 2>&1); rc=$?
  if [ "$rc" = 0 ]; then echo "$scen $arm/$n -> $v: identical"; continue; fi
  line=$(printf '%s\n' "$report" | grep -o '"line":[0-9]*,"message":"decision differs' | grep -o '[0-9]*' | head -1)
  if [ -z "$line" ] || { [ "$rc" != 1 ] && [ "$rc" != 3 ]; }; then
    echo "$scen $arm/$n -> $v: pcc-replay failed (exit $rc): $report" >&2; rm -f "$tmp"; exit 2
  fi
  t0=$(awk '/^create/ {print $4; exit}' "$f")
  t=$(head -n "$line" "$tmp" | awk '/^tick/ {t=$2} END {print t}')
  echo "$scen $arm/$n -> $v: first differing decision at session $(awk -v a="$t" -v b="$t0" 'BEGIN {printf "%.2f", (a-b)/1e6}') s"
done
rm -f "$tmp"
