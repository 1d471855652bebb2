#!/usr/bin/env bash
set -u
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
log() { printf '{"at":"%s","event":"%s","load1":%s,"head":"%s","wasm_sha256_16":"%s"}\n' "$(date -u +%FT%TZ)" "$1" \
  "$(cut -d' ' -f1 /proc/loadavg)" "$(git rev-parse --short HEAD)" "$(sha256sum controller-wasm/wasm-dist/pcc_cc.wasm | cut -c1-16)" >> ${OUT:-/tmp/mb1}/holds.jsonl; }
git status --short > ${OUT:-/tmp/mb1}/git-status.txt
log start
nice -n 19 timeout 480 npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-1mb.json --schemes vivace,vivace-loss,tcp-bbr \
  --repetitions 3 --duration-s 20 --fidelity --record --out ${OUT:-/tmp/mb1}/out >> ${OUT:-/tmp/mb1}/bench.log 2>&1
log "done rc=$?"
