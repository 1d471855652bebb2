# Sourced by this folder's hold.sh and ../bulk-1mb-after-fixes/hold.sh: goes to the repository root, keeps the tree's
# git status in $OUT, and defines log EVENT, which appends the UTC time, 1-min load, HEAD and the shared WASM's sha256
# to $OUT/holds.jsonl.
cd "$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)"
mkdir -p "$OUT"
log() { printf '{"at":"%s","event":"%s","load1":%s,"head":"%s","wasm_sha256_16":"%s"}\n' "$(date -u +%FT%TZ)" "$1" \
  "$(cut -d' ' -f1 /proc/loadavg)" "$(git rev-parse --short HEAD)" "$(sha256sum controller-wasm/wasm-dist/pcc_cc.wasm | cut -c1-16)" >> "$OUT/holds.jsonl"; }
git status --short > "$OUT/git-status.txt"
