#!/usr/bin/env bash
# This folder's tables from results.jsonl and the bench outputs (OUT, REDO as in run_holds.sh and summary.md):
# targets.md (targets.py), onscreen.md (../lte-fade-cut-regain/onscreen.py), loads.md (../lte-fade-cut-regain/loads.py),
# phases-*.md (phases.py), why-tmobile-after-fade.md (../lte-abr-fix/why_gap.py, link s 23-28 after TMobile's s 21-22 fade).
# Usage: tables.sh OUT REDO
set -eu
out=$1 redo=$2
cd "$(dirname "$0")"
runs() {  # SCEN ARMS...: ARM-N=RUN_DIR for each arm and pair whose run directory exists (REDO first)
  local scen=$1; shift
  for a in "$@"; do for n in 1 2 3; do
    case $a in vv) s=vivace-video ;; v) s=vivace ;; bbr) s=tcp-bbr ;; cubic) s=tcp-cubic ;; esac
    for base in "$redo" "$out"; do
      d=$base/$scen/$a/runs/lte-$scen/$s/$n
      if [ -f "$d/../../../../results.jsonl" ] && grep -q "\"run_id\":\"lte-$scen/$s/$n\".*\"status\":\"ok\"" "$d/../../../../results.jsonl"; then
        echo "$a-$n=$d"; break; fi
    done
  done; done
}
{ for s in lte-att-lte-driving-2016 lte-tmobile-lte-driving; do python3 targets.py results.jsonl $s; echo; done; } > targets.md
python3 ../lte-fade-cut-regain/onscreen.py results.jsonl > onscreen.md
python3 ../lte-fade-cut-regain/loads.py holds.jsonl > loads.md
python3 phases.py $(runs tmobile-lte-driving bbr vv v cubic) > phases-tmobile.md
python3 phases.py $(runs att-lte-driving-2016 cubic vv v bbr) > phases-att.md
python3 ../lte-abr-fix/why_gap.py --fade-from 21 --from 23 --to 28 --sfrom 20 --sto 30 $(runs tmobile-lte-driving bbr vv v) > why-tmobile-after-fade.md
