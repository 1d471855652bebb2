#!/usr/bin/env bash
# Instructions per ack of native vivace (pcc-bench-ack under callgrind), load-independent: the difference of a 600k and
# a 100k packet run over their 500k extra acks, so start-up cancels. BEFORE/AFTER: built controller-wasm worktrees.
set -u
BEFORE=${BEFORE:?worktree} AFTER=${AFTER:?worktree}
tmp=$(mktemp -d)
for side in BEFORE AFTER; do
  wt=${!side}
  for receive in on off; do
    flag=(); [ "$receive" = off ] && flag=(--no-receive-times)
    ir=()
    for packets in 100000 600000; do
      nice -n 19 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$wt/controller-wasm/build/pcc-bench-ack" \
        "${flag[@]}" "$packets" vivace > /dev/null 2> "$tmp/cg.err"
      ir+=("$(grep -o 'Collected : [0-9]*' "$tmp/cg.err" | grep -o '[0-9]*$')")
    done
    echo "$side $(git -C "$wt" rev-parse --short HEAD) receive-times $receive: Ir ${ir[0]} / ${ir[1]}," \
      "$(( (ir[1] - ir[0]) / 500000 )).$(( (ir[1] - ir[0]) % 500000 * 10 / 500000 )) instructions per ack"
  done
done
rm -rf "$tmp"
