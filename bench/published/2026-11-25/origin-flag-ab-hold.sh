# Sourced by pacing-catchup-spread/hold.sh and addon-pacer/hold.sh (OUT and reps set; hold-log.sh sourced):
# origin_flag_ab FLAG ARM_ODD ARM_EVEN STOP_ON_FAIL. For each repetition K, one 20-s recorded fidelity run of
# bulk-100mbps-30ms-75kb-0pct/vivace/K per arm, the arm being the origin's --FLAG=ARM, the order alternating with K
# (ARM_ODD first for odd K). STOP_ON_FAIL=1: a run that does not end "ok" stops the hold.
origin_flag_ab() {
  local flag=$1 first=$2 second=$3 stop_on_fail=$4 k arm arms maxrep
  maxrep=$(printf '%s\n' "${reps[@]}" 3 | sort -n | tail -1)  # --run names repetition K of at least K
  for k in "${reps[@]}"; do
    if (( k % 2 )); then arms=("$first" "$second"); else arms=("$second" "$first"); fi
    for arm in "${arms[@]}"; do
      log "start $arm-$k"
      npm run -s bench -- --scenario bench/scenarios/bulk-100mbps-30ms-75kb-0pct.json --schemes vivace --repetitions "$maxrep" \
        --duration-s 20 --run "bulk-100mbps-30ms-75kb-0pct/vivace/$k" --fidelity --record --origin-arg="--$flag=$arm" \
        --out "$OUT/$arm-$k" > "$OUT/$arm-$k.log" 2>&1
      log "end $arm-$k"
      if (( stop_on_fail )) && ! grep -q '"status":"ok"' "$OUT/$arm-$k/results.jsonl" 2>/dev/null; then
        log "stopped: $arm-$k not ok"
        exit 1
      fi
    done
  done
}
