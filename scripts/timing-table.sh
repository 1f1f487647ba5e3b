#!/usr/bin/env bash
# The table of issue 17, interleaved: the median time a strategy gets
# alone, in the default sweep, and beside backtrack, over ids 0:3000.
# The three configurations run in turn, ROUNDS times (A B C A B C ...),
# so that the machine's drift over the minutes falls on all three
# alike, and each run's medians are printed. Whole runs, not shards: a
# process of a few tens of milliseconds (a 300-puzzle shard of the
# fast strategies) ran 0-30% slower than the same puzzles in a longer
# one here, whatever the configuration.
#
#   scripts/timing-table.sh [BATCH [OUT [ROUNDS]]]   (defaults: a build of ./cmd/batch, a temporary directory, 3)
#
# Takes about 4 minutes a round on a 2-vCPU machine. Needs python3.
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
rounds=${3:-3}
for k in $(seq 1 "$rounds"); do
  for c in "${configs[@]}"; do
    name=${c%%|*}; flags=${c#*|}
    # shellcheck disable=SC2086 # flags are words
    "$bin" $flags -range 0:3000 -quiet -report=false -out "$out/$name-$k" >/dev/null
  done
done
python3 - "$out" "$rounds" <<'PY'
import csv, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
label = {"a": "-solvers bitboard,norvig -workers 1", "b": "default sweep",
         "c": "-solvers bitboard,backtrack -workers 1 -timeout 20ms"}
for c in "abc":
    med = {}
    for k in range(1, rounds + 1):
        rows = list(csv.DictReader(open(f"{out}/{c}-{k}/results.csv")))
        for s in ["bitboard", "norvig", "dlx"]:
            ns = [int(r["ns"]) for r in rows if r["solver"] == s]
            if ns:
                med.setdefault(s, []).append(f"{statistics.median(ns)/1000:.2f}")
    print(f"{label[c]}: " + "; ".join(f"{s} medians {', '.join(v)} µs" for s, v in med.items()))
PY
echo "runs in $out"
