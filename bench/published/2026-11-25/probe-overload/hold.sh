#!/bin/sh
# Usage: flock /tmp/pcc-heavy.lock hold.sh DIR (this hold: the 1 MB and 75 KB runs went to DIR/1mb, DIR/75kb)
cd /work/main
echo "hold start $(date -u +%T) load $(cat /proc/loadavg) HEAD $(git rev-parse --short HEAD)"
flock /tmp/pcc-build.lock npm run -s build -w @pcc-stream/controller
echo "build done $(date -u +%T) load $(cat /proc/loadavg)"
npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-1mb.json --schemes vivace --repetitions 3 --duration-s 20 --fidelity --record --out "$1"/1mb
echo "1mb done $(date -u +%T) load $(cat /proc/loadavg)"
npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-75kb-0pct.json --schemes vivace --repetitions 3 --duration-s 20 --fidelity --record --out "$1"/75kb
echo "75kb done $(date -u +%T) load $(cat /proc/loadavg)"
