# Sourced by a published folder's hold script (bash): hold_note EVENT appends one line to $HOLD_LOG with the UTC time,
# the 1-min load, HEAD and the shared WASM's sha256 prefix (what every real-path figure records);
# hold_rebuild rebuilds the shared WASM under the build lock (the caller holds /tmp/pcc-heavy.lock), noted before and
# after; hold_player_build builds the player if stale (player/dist is what the bench serves), noted likewise.
# Needs HOLD_REPO (the repository root) and HOLD_LOG (a holds.jsonl).
hold_note() {
  printf '{"at":"%s","event":"%s","load1":%s,"head":"%s","wasm":"%s"}\n' "$(date -u +%FT%TZ)" "$1" \
    "$(cut -d' ' -f1 /proc/loadavg)" "$(git -C "$HOLD_REPO" rev-parse --short HEAD)" \
    "$(sha256sum "$HOLD_REPO/controller-wasm/wasm-dist/pcc_cc.wasm" | cut -c1-8)" >> "$HOLD_LOG"
}
hold_rebuild() {
  hold_note "rebuild start"
  (cd "$HOLD_REPO" && flock /tmp/pcc-build.lock npm run -s build -w @pcc-stream/controller >/dev/null) \
    || { hold_note "rebuild failed"; return 2; }
  hold_note "rebuild end"
}
hold_player_build() {
  hold_note "player build start"
  (cd "$HOLD_REPO" && npm run -s build -w @pcc-stream/player >/dev/null) || { hold_note "player build failed"; return 2; }
  hold_note "player build end"
}
