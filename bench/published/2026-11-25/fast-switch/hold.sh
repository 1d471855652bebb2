#!/usr/bin/env bash
# One heavy-lock hold (run under `flock /tmp/pcc-heavy.lock`): the player build if stale (player/dist is what the bench
# serves), then 30-s ABR runs of lte-verizon-lte-short in the order given as ARM:SEED, each into OUT/ARM. Arms: vv-on,
# vv-off (vivace-video), bbr-on, bbr-off (tcp-bbr); -off passes --player-param fastSwitch=off, -on fastSwitch=on (the
# page's default, stated). Per step it appends UTC time, 1-min load, HEAD and the WASM's sha256 prefix to holds.jsonl.
# Usage: hold.sh OUT LATEST_START ARM:SEED...   (LATEST_START a UTC time date -d reads, e.g. 2026-11-28T00:10Z;
#        rc 3: the lock came after it)
set -u
out=$1 latest=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
HOLD_REPO=$(git -C "$here" rev-parse --show-toplevel) HOLD_LOG=$here/holds.jsonl
. "$here/../../hold_note.sh"
[ "$(date -u +%s)" -le "$(date -u -d "$latest" +%s)" ] || { echo "lock came after $latest: skipped" >&2; exit 3; }
hold_player_build || exit 2
cd "$HOLD_REPO" || exit 2
for spec in "$@"; do
  arm=${spec%%:*} seed=${spec#*:}
  case $arm in vv-*) scheme=vivace-video ;; bbr-*) scheme=tcp-bbr ;; *) echo "unknown arm $arm" >&2; exit 2 ;; esac
  hold_note "start $arm/$seed"
  timeout 120 npm run -s bench -- --suite lte --schemes "$scheme" --duration-s 30 --repetitions 5 \
    --player-param "fastSwitch=${arm#*-}" --run "lte-verizon-lte-short/$scheme/$seed" --out "$out/$arm"
  hold_note "end $arm/$seed rc=$?"
done
