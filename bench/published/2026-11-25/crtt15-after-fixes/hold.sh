#!/usr/bin/env bash
# changing-rtt-15mbps, 30 s, reps 1-3 of the four schemes, one bench call per repetition, at HEAD (after 81ececc).
set -u
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
log() { printf '{"at":"%s","event":"%s","load1":%s,"head":"%s","wasm_sha256_16":"%s"}\n' "$(date -u +%FT%TZ)" "$1" \
  "$(cut -d' ' -f1 /proc/loadavg)" "$(git rev-parse --short HEAD)" "$(sha256sum controller-wasm/wasm-dist/pcc_cc.wasm | cut -c1-16)" >> ${OUT:-/tmp/crtt2}/holds.jsonl; }
git status --short > ${OUT:-/tmp/crtt2}/git-status.txt
log start
for rep in 1 2 3; do
  args=(); for s in vivace-video vivace tcp-cubic tcp-bbr; do args+=(--run "changing-rtt-15mbps/$s/$rep"); done
  log "rep $rep"
  nice -n 19 timeout 240 npm run -s bench -- --suite seed-changing-rtt --duration-s 30 "${args[@]}" --out ${OUT:-/tmp/crtt2}/out >> ${OUT:-/tmp/crtt2}/bench.log 2>&1
  log "rep $rep done rc=$?"
done
log end
