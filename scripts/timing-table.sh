#!/usr/bin/env bash
# The table of issue 17, interleaved: the median time a strategy gets
# alone, in the default sweep, and beside backtrack, over ids 0:3000.
# Each configuration runs shard k/10 in turn (k = 0..9), so that the
# machine's drift over the minutes falls on all three alike; the shards
# are then merged and the medians printed.
#
#   scripts/timing-table.sh [BATCH [OUT]]   (defaults: a build of ./cmd/batch, a temporary directory)
#
# Takes about 2.5 minutes on a 2-vCPU machine. Needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${2:-$(mktemp -d)}
bin=${1:-}
if [ -z "$bin" ]; then
  bin="$out/batch"
  go build -o "$bin" ./cmd/batch
fi
configs=(
  "a|-solvers bitboard,norvig -workers 1"
  "b|"
  "c|-solvers bitboard,backtrack -workers 1 -timeout 20ms"
)
for k in 0 1 2 3 4 5 6 7 8 9; do
  for c in "${configs[@]}"; do
    name=${c%%|*}; flags=${c#*|}
    # shellcheck disable=SC2086 # flags are words
    "$bin" $flags -range 0:3000 -shard "$k/10" -quiet -report=false -out "$out/$name-$k" >/dev/null
  done
done
for c in "${configs[@]}"; do
  name=${c%%|*}
  "$bin" merge -o "$out/$name" "$out/$name"-? >/dev/null
done
python3 - "$out" <<'PY'
import csv, statistics, sys
out = sys.argv[1]
label = {"a": "-solvers bitboard,norvig -workers 1", "b": "default sweep",
         "c": "-solvers bitboard,backtrack -workers 1 -timeout 20ms"}
for c in "abc":
    rows = list(csv.DictReader(open(f"{out}/{c}/results.csv")))
    cells = []
    for s in ["bitboard", "norvig", "dlx"]:
        ns = [int(r["ns"]) for r in rows if r["solver"] == s]
        if ns:
            cells.append(f"{s} median {statistics.median(ns)/1000:.2f} µs, mean {statistics.mean(ns)/1000:.2f} µs")
    print(f"{label[c]}: " + "; ".join(cells))
PY
echo "runs in $out"
