#!/usr/bin/env bash
# One heavy-lock hold (run under `flock /tmp/pcc-heavy.lock`): 30-s ABR runs of scenario SCEN (verizon-lte-short,
# tmobile-lte-short) in the order given as ARM:REP, each into OUT/SCEN/ARM, as ../lte-abr-fix/hold.sh does. Arms: vv
# (vivace-video, its defaults: the noise-scaled regain_without_queue on, the fade cut off), vvc (both on:
# --cc-param vivace-video.video_fade_cut=1), vvo (both off: vivace-video.regain_without_queue=0, the controller before
# this change), v (vivace), bbr (tcp-bbr), cubic (tcp-cubic). Per step it appends
# UTC time, 1-min load, HEAD and the WASM's sha256 prefix to holds.jsonl (../../hold_note.sh) and the tree's git status
# before each run to git-status-SCEN-ARM-REP.txt, both in HOLD_DIR (default: this folder; another folder's study sets it).
# Usage: [HOLD_DIR=dir] hold.sh OUT SCEN LATEST_START_HHMM ARM:REP...   (rc 3: the lock came after LATEST_START_HHMM UTC)
# SCEN is any lte-suite trace (also att-lte-driving-2016, tmobile-lte-driving).
# Another study's arm NAME is defined by the environment: ARM_NAME="SCHEME BENCH_ARG..." (NAME's '-' as '_'), e.g.
# ARM_vvp="vivace-video --origin-arg=--etp-source=pacing"; it takes precedence over the names above.
set -u
out=$1 scen=$2 latest=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
dir=$(cd "${HOLD_DIR:-$here}" && pwd)
HOLD_REPO=$(git -C "$here" rev-parse --show-toplevel) HOLD_LOG=$dir/holds.jsonl
. "$here/../../hold_note.sh"
if [ "$(date -u +%H%M)" -gt "$latest" ]; then echo "lock came after $latest UTC: skipped" >&2; exit 3; fi
cd "$HOLD_REPO" && hold_player_build || exit 2
for spec in "$@"; do
  arm=${spec%%:*} rep=${spec#*:}
  def=ARM_${arm//-/_}
  extra=()
  if [ -n "${!def:-}" ]; then
    read -ra words <<< "${!def}"
    scheme=${words[0]} extra=("${words[@]:1}")
  else
    case $arm in
      vv|vvo|vvc) scheme=vivace-video ;;
      v) scheme=vivace ;;
      bbr) scheme=tcp-bbr ;;
      cubic) scheme=tcp-cubic ;;
      *) echo "unknown arm $arm" >&2; exit 2 ;;
    esac
    case $arm in
      vvo) extra=(--cc-param vivace-video.video_fade_cut=0 --cc-param vivace-video.regain_without_queue=0) ;;
      vvc) extra=(--cc-param vivace-video.video_fade_cut=1) ;;
    esac
  fi
  git status --short > "$dir/git-status-$scen-$arm-$rep.txt"
  hold_note "start $scen $arm/$rep"
  timeout 120 npm run -s bench -- --suite lte --schemes "$scheme" --duration-s 30 --repetitions 3 \
    "${extra[@]}" --run "lte-$scen/$scheme/$rep" --out "$out/$scen/$arm"
  hold_note "end $scen $arm/$rep rc=$?"
done
