#!/bin/bash
cd /work/main
echo "start $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) head $(git rev-parse --short HEAD) wasm $(sha256sum controller-wasm/wasm-dist/pcc_cc.wasm | cut -c1-16)"
git status --short > /tmp/crh/git-status.txt
npm run -s bench -- --suite seed-changing-rtt --duration-s 30 --record --run changing-rtt-15mbps/vivace-video/1 --run changing-rtt-15mbps/vivace-video/2 --run changing-rtt-15mbps/vivace-video/3 --out /tmp/crh/rec
echo "end $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) head $(git rev-parse --short HEAD) wasm $(sha256sum controller-wasm/wasm-dist/pcc_cc.wasm | cut -c1-16)"
