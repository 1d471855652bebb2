#!/usr/bin/env bash
# One heavy-lock hold (run under `flock /tmp/pcc-heavy.lock`): pairs REPS of trace SCEN, 30-s ABR, the page's default
# abandonment rule (abandon=buffer, d07e180/dd51850), four arms back to back per pair through
# ../lte-fade-cut-regain/hold.sh (notes and git status to this folder). Odd pairs run vv v bbr cubic, even pairs the
# reverse, so no arm always runs first. REBUILD=1 first rebuilds the shared WASM (build lock too) when
# controller-wasm has no uncommitted change, so the runs use HEAD's C.
# Usage: [REBUILD=1] hold.sh OUT SCEN LATEST_START_HHMM REP...   (rc 3: the lock came after LATEST_START_HHMM UTC)
set -u
out=$1 scen=$2 latest=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
export HOLD_DIR=$here
if [ "$(date -u +%H%M)" -gt "$latest" ]; then echo "lock came after $latest UTC: skipped" >&2; exit 3; fi
if [ "${REBUILD:-0}" = 1 ]; then
  HOLD_REPO=$(git -C "$here" rev-parse --show-toplevel) HOLD_LOG=$here/holds.jsonl
  . "$here/../../hold_note.sh"
  if [ -z "$(git -C "$HOLD_REPO" status --short -- controller-wasm)" ]; then hold_rebuild || exit 2
  else hold_note "rebuild skipped: controller-wasm has uncommitted changes"; fi
fi
specs=()
for rep in "$@"; do
  if [ $((rep % 2)) -eq 1 ]; then order=(vv v bbr cubic); else order=(cubic bbr v vv); fi
  specs+=("${order[@]/%/:$rep}")
done
exec bash "$here/../lte-fade-cut-regain/hold.sh" "$out" "$scen" "$latest" "${specs[@]}"
