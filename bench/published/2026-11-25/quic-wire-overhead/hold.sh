#!/usr/bin/env bash
# Hold 1: bulk 75 KB 0 % loss, 20 s, 3 paired repetitions. Per repetition: vivace with quinn's client defaults
# (8-byte connection IDs, no ACK-frequency request: "before"), vivace with the lean client ("after"), tcp-cubic.
# Each run its own bench call and output folder (OUT/<variant>-<rep>); the switch is the fetch client's flags.
set -u
OUT=${OUT:-/tmp/wt-d-hold1}
source "$(dirname "$0")/../crtt15-after-fixes/hold-log.sh"
SCEN=bench/scenarios/bulk-100mbps-30ms-75kb-0pct.json
run() { # variant rep scheme client-args...
  local variant=$1 rep=$2 scheme=$3; shift 3
  log "start $variant/$rep"
  nice -n 19 npm run -s bench -- --scenario $SCEN --schemes vivace,tcp-cubic --repetitions 3 --duration-s 20 \
    --run bulk-100mbps-30ms-75kb-0pct/$scheme/$rep "$@" --out "$OUT/$variant-$rep" >> "$OUT/bench.log" 2>&1
  log "done $variant/$rep rc=$?"
}
log "addon $(sha256sum server/native/pcc-stream-quic.linux-x64-gnu.node | cut -c1-16)"
for rep in 1 2 3; do
  run before $rep vivace --client-arg=--quic-cid-bytes=8 --client-arg=--quic-ack-frequency=off
  run after $rep vivace --client-arg=--quic-cid-bytes=0 --client-arg=--quic-ack-frequency=on
  run tcp $rep tcp-cubic
done
