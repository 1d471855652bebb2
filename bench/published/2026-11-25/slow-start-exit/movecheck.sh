#!/bin/sh
# usage: movecheck.sh BASE_REPLAY FIX_REPLAY FILES...
# Per recording, replayed open loop (pcc-replay --mi): every MI's id and target identical, or the first that differs.
B=$1; F=$2; shift 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for f in "$@"; do
  "$B" --mi "$f" > "$tmp/b.mi" 2>/dev/null; "$F" --mi "$f" > "$tmp/f.mi" 2>/dev/null
  python3 - "$f" "$tmp/b.mi" "$tmp/f.mi" <<'PY'
import json, sys
name, b, f = sys.argv[1], [json.loads(l) for l in open(sys.argv[2])], [json.loads(l) for l in open(sys.argv[3])]
key = lambda m: (m['id'], m['targetRateBps'])
diff = next(((x, y) for x, y in zip(b, f) if key(x) != key(y)), None)
row = {'file': name, 'same': diff is None and len(b) == len(f), 'mis': [len(b), len(f)]}
if diff:
    x, y = diff
    row.update(first_diff_mi=x['id'], at_us=x['startUs'], base_mbps=round(x['targetRateBps'] / 1e6, 2), fix_mbps=round(y['targetRateBps'] / 1e6, 2))
print(json.dumps(row))
PY
done
