#!/bin/bash
# usage: flock /tmp/pcc-heavy.lock hold.sh bulk|fidelity OUT_DIR BEFORE_TREE AFTER_TREE (absolute paths)
# bulk: bulk-100mbps-30ms-75kb-0pct, vivace + tcp-cubic, 20 s, --fidelity, one repetition per pair;
# fidelity: fidelity-loss-0pct/vivace, 20 s. Order B A A B B A.
# BEFORE_TREE: a checkout of the commit before the change with its addon built; AFTER_TREE: the same plus the change
# and its addon (worktrees with node_modules, controller-wasm build, linkem build, player dist and .cache linked to the
# main tree's, so both use the same controller WASM and media).
kind=$1 out=$2 before_tree=$3 after_tree=$4
S=bulk-100mbps-30ms-75kb-0pct
bench() { # pair
  if [ $kind = bulk ]; then
    npm run -s bench -- --scenario bench/scenarios/$S.json --schemes vivace,tcp-cubic --repetitions 3 --duration-s 20 --fidelity \
      --run $S/vivace/$1 --run $S/tcp-cubic/$1 "${@:2}"
  else
    npm run -s bench -- --suite fidelity --duration-s 20 --run fidelity-loss-0pct/vivace/$1 "${@:2}"
  fi
}
run() { # label pair
  local label=$1 pair=$2 dir=$before_tree
  [ $label = after ] && dir=$after_tree
  cd $dir
  echo "{\"label\":\"$label\",\"pair\":$pair,\"start\":\"$(date -u +%T)\",\"load_before\":$(cut -d' ' -f1 /proc/loadavg),\"head\":\"$(git rev-parse --short HEAD)\",\"tree\":\"$dir\",\"files\":\"$(git diff --stat -- server protocol | tail -1)\"}" >> $out/loads.jsonl
  git status --short > $out/git-status-$label-$pair.txt
  bench $pair --out $out/$label-$pair > $out/$label-$pair.log 2>&1
  echo "{\"label\":\"$label\",\"pair\":$pair,\"end\":\"$(date -u +%T)\",\"load_after\":$(cut -d' ' -f1 /proc/loadavg)}" >> $out/loads.jsonl
}
run before 1; run after 1; run after 2; run before 2; run before 3; run after 3
