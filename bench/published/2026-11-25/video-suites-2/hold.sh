#!/usr/bin/env bash
# One heavy-lock hold for issue 18's seed suites: SCENARIO's runs of the four schemes at --duration-s DUR into OUT_DIR, one
# bench call per repetition (its four schemes back to back, so every pair is in one hold, interleaved). Logs UTC time,
# 1-min load, HEAD and the shared WASM's sha256 before and after every repetition to holds.jsonl, and the tree's git
# status. Started under `flock /tmp/pcc-heavy.lock`. A repetition starts only if 4 × (DUR + 6) s still fit in BUDGET_S
# from the hold's start. Usage: hold.sh NAME SUITE SCENARIO DUR OUT_DIR LATEST_START_HHMM BUDGET_S REP...
# Skips (rc 3) when the lock came after LATEST_START_HHMM UTC.
set -u
name=$1 suite=$2 scen=$3 dur=$4 out=$5 latest=$6 budget=$7; shift 7
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
wasm="$repo/controller-wasm/wasm-dist/pcc_cc.wasm"
now=$(date -u +%H%M)
if [ "$now" -gt "$latest" ]; then echo "lock came at $now UTC, after $latest: skipped" >&2; exit 3; fi
log() { printf '{"hold":"%s","at":"%s","event":"%s","load1":%s,"head":"%s","wasm_sha256_16":"%s"}\n' "$name" \
  "$(date -u +%FT%TZ)" "$1" "$(cut -d' ' -f1 /proc/loadavg)" "$(git -C "$repo" rev-parse --short HEAD)" \
  "$(sha256sum "$wasm" | cut -c1-16)" >> "$here/holds.jsonl"; }
git -C "$repo" status --short > "$here/git-status-$name.txt"
t0=$(date +%s)
log start
for rep in "$@"; do
  if [ $(( $(date +%s) - t0 + 4 * (dur + 6) )) -gt "$budget" ]; then log "stop before rep $rep: budget"; break; fi
  args=()
  for scheme in vivace-video vivace tcp-cubic tcp-bbr; do args+=(--run "$scen/$scheme/$rep"); done
  log "rep $rep"
  (cd "$repo" && timeout $((4 * (dur + 20))) npm run -s bench -- --suite "$suite" --duration-s "$dur" "${args[@]}" \
    --out "$out" >> "$out.$name.log" 2>&1)
  log "rep $rep done rc=$?"
done
log end
