#!/usr/bin/env bash
# This folder's files from the bench outputs RAW (hold.sh's OUT), REDO (pairs run again, replacing RAW's) and
# BEFORE_RAW (the raw runs of the folders set beside them, for their abandonments: /tmp/A-real for
# ../lte-fade-cut-regain, /tmp/lte-driving for ../lte-driving-baseline):
# results.jsonl + replaced.jsonl + abandons.jsonl (lte_abandon.py collect),
# tables.md (lte_abandon.py, with the runs before the rule: ../lte-fade-cut-regain for the short traces,
# ../lte-driving-baseline for TMobile-LTE-driving), targets.md (../lte-driving-baseline/targets.py), loads.md
# (../lte-fade-cut-regain/loads.py), phases-SCEN.md (../lte-driving-baseline/phases.py: where vv's gap to tcp-bbr sits)
# and rate-vs-capacity-SCEN-N.svg (../lte-fade-cut-regain/plot_pair.py, one pair).
# Usage: tables.sh RAW REDO [BEFORE_RAW...]
set -eu
raw=$1 redo=$2; shift 2
cd "$(dirname "$0")"
run_dir() {  # SCEN ARM SCHEME N: the run directory of that pair's arm, REDO's if it has one
  local b
  for b in "$redo" "$raw"; do
    [ -f "$b/$1/$2/runs/lte-$1/$3/$4/series.json" ] && { echo "$b/$1/$2/runs/lte-$1/$3/$4"; return 0; }
  done
  return 1
}
python3 lte_abandon.py collect "$raw" --redo "$redo" "$@"
python3 lte_abandon.py ../lte-fade-cut-regain/results.jsonl ../lte-driving-baseline/results.jsonl > tables.md
for s in $(python3 -c 'import json; print(" ".join(sorted({json.loads(l)["scenario"] for l in open("results.jsonl")})))'); do
  python3 ../lte-driving-baseline/targets.py results.jsonl "$s"; echo
done > targets.md
python3 ../lte-fade-cut-regain/loads.py holds.jsonl > loads.md
for scen in $(ls "$raw"); do
  runs=()
  for a in bbr vv v cubic; do
    case $a in vv) s=vivace-video ;; v) s=vivace ;; bbr) s=tcp-bbr ;; cubic) s=tcp-cubic ;; esac
    for n in 1 2 3; do d=$(run_dir "$scen" "$a" "$s" "$n") && runs+=("$a-$n=$d"); done
  done
  python3 ../lte-driving-baseline/phases.py "${runs[@]}" > "phases-$scen.md"
done
# one pair per trace drawn: Verizon's first; TMobile-LTE-driving's second (vivace-video held at its 0.1-Mbit/s floor)
for sp in verizon-lte-short:1 tmobile-lte-driving:2; do
  scen=${sp%:*} n=${sp#*:} args=()
  for a in vv:vivace-video bbr:tcp-bbr v:vivace; do
    d=$(run_dir "$scen" "${a%%:*}" "${a#*:}" "$n") && args+=("${a%%:*}=$d")
  done
  python3 ../lte-fade-cut-regain/plot_pair.py "rate-vs-capacity-$scen-$n.svg" "$scen, pair $n, abandon=buffer" "${args[@]}"
done
# where each vv and tcp-bbr run's unused capacity went (../lte-bitrate-gap/bitrate_gap.py: below-cap = the sender's rate
# under capacity while a request waited)
for scen in $(ls "$raw"); do
  args=()
  for n in 1 2 3; do
    for a in bbr:tcp-bbr vv:vivace-video; do
      d=$(run_dir "$scen" "${a%%:*}" "${a#*:}" "$n") && args+=("${a%%:*}-$n=$d")
    done
  done
  python3 ../lte-bitrate-gap/bitrate_gap.py "${args[@]}" > "unused-$scen.md"
done
