#!/usr/bin/env bash
# trend-demo.sh ROOT: issue 27's demonstrations of batch trend, on
# synthetic histories written under ROOT (made if missing; its
# histories are replaced).
#
#  1. ROOT/slowdown: 10 nights of -solvers norvig,dlx,bitboard on
#     -range 0:$N (-timeout 0); nights 7 to 10 by a -tags slowdown build
#     with SUDOKUBATCH_SLOWDOWN=1.2 SUDOKUBATCH_SLOWDOWN_SOLVERS=$SLOW
#     ($SLOW 20% slower, the others not), nights 1 to 6 by the same code
#     with no factor, built with another Go build ID: two builds to trend
#     whose code is laid out alike (a plain build's layout moves the other
#     strategies' times too). After each night, batch trend:
#     its exit code and each strategy's verdict line. Expected: exit 0
#     on nights 1-6, exit 1 on night 7 ($SLOW slower, a new alarm), 0 on
#     nights 8-10 (still slower: no new alarm); then -ack night07 $SLOW
#     "why", and trend exits 0.
#  2. ROOT/counters: 3 plain nights on -range 0:$CN, then a night by a
#     -tags counterschange build (dlx: one more call and guess on the
#     puzzles whose FNV-1a hash is divisible by 100, solvers/
#     counterschange.go): trend exits 1 with a counters alarm listing
#     those puzzles; the script prints the rule's ids, recomputed here
#     from the corpus, to compare.
#     Then -ack night04 dlx "why": exit 0.
#  3. Then a night in ROOT/counters whose run.json says another CPU
#     model (edited with jq: the tool reads the model from /proc/cpuinfo
#     and has no override): trend lists it as a new series of one night,
#     the first series unchanged; exit 0.
#
# It ends with the exit codes, and exits 1 when they are not the ones
# expected above.
#
# Environment: N (puzzles a night of 1, default 20000: 1.5-3 s here),
# CN (of 2 and 3, default 2000), SLOW (the strategy slowed, default
# bitboard: its nightly level is the steadiest here, while dlx's moves
# by up to 20% from one same-build night to the next when other work
# shares the cores), BATCH_FLAGS (more flags for every night, e.g.
# "-workers 1"). Needs go, jq and python3; runs from the repository (the
# nights record its checkout's revision).
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 ROOT" >&2
	exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
ROOT=$(cd "$1" && pwd)
N=${N:-20000}
CN=${CN:-2000}
SLOW=${SLOW:-bitboard}
read -r -a extra <<<"${BATCH_FLAGS:-}"
solvers=norvig,dlx,bitboard
cd "$repo"

bin=$ROOT/bin
echo "== building batch, batch-before and batch-slowdown (-tags slowdown), batch-counters (-tags counterschange) in $bin"
go build -o "$bin/batch" ./cmd/batch
go build -tags slowdown -ldflags=-buildid=before -o "$bin/batch-before" ./cmd/batch
go build -tags slowdown -ldflags=-buildid=after -o "$bin/batch-slowdown" ./cmd/batch
go build -tags counterschange -o "$bin/batch-counters" ./cmd/batch

# night BIN HISTORY NAME RANGE: one night, quiet; its output goes to
# HISTORY/NAME.log. A failed night stops the demo.
night() {
	local b=$1 hist=$2 name=$3 range=$4
	if ! "$b" -solvers "$solvers" -range "$range" -timeout 0 -quiet "${extra[@]}" \
		-out "$hist/$name" >"$hist/$name.log" 2>&1; then
		echo "night $name failed; its output:" >&2
		cat "$hist/$name.log" >&2
		exit 1
	fi
}

# trend HISTORY LABEL [ARGS...]: runs batch trend -root HISTORY, keeps
# its output in HISTORY/trend-LABEL.out, and prints its exit code, the
# strategies' verdict lines and the alarms and steps. Sets $code.
trend() {
	local hist=$1 label=$2
	shift 2
	code=0
	"$bin/batch" trend -root "$hist" "$@" >"$hist/trend-$label.out" 2>"$hist/trend-$label.err" || code=$?
	echo "-- trend after $label: exit $code"
	# The detectors' table follows the line "against the baseline ...";
	# the alarms, steps and notes follow it.
	awk '/against the baseline/ { on = 1 } /^$/ { on = 0 } on' "$hist/trend-$label.out" | sed 's/^/   /'
	if [ "$code" -ne 0 ] && [ "$code" -ne 1 ]; then
		sed 's/^/   stderr: /' "$hist/trend-$label.err"
	fi
}

summary=()

echo
echo "== 1. slowdown history: 10 nights of $solvers on -range 0:$N, nights 7-10 with $SLOW x1.2"
H=$ROOT/slowdown
rm -rf "$H"
mkdir -p "$H"
for k in $(seq 1 10); do
	name=$(printf 'night%02d' "$k")
	start=$(date +%s%N)
	if [ "$k" -ge 7 ]; then
		SUDOKUBATCH_SLOWDOWN=1.2 SUDOKUBATCH_SLOWDOWN_SOLVERS=$SLOW night "$bin/batch-slowdown" "$H" "$name" "0:$N"
	else
		night "$bin/batch-before" "$H" "$name" "0:$N"
	fi
	ms=$((($(date +%s%N) - start) / 1000000))
	slow=""
	[ "$k" -ge 7 ] && slow=" ($SLOW x1.2)"
	printf '\n%s: swept in %d.%03d s%s\n' "$name" $((ms / 1000)) $((ms % 1000)) "$slow"
	trend "$H" "$name"
	summary+=("$name:$code")
done
echo
echo "-- acknowledging: batch trend -root $H -ack night07 $SLOW \"the 1.2 slowdown of the demo\""
trend "$H" ack -ack night07 "$SLOW" "the 1.2 slowdown of the demo"
summary+=("ack:$code")
trend "$H" after-ack
summary+=("after-ack:$code")

echo
echo "== 2. counters history: 3 plain nights and one -tags counterschange night on -range 0:$CN"
C=$ROOT/counters
rm -rf "$C"
mkdir -p "$C"
for k in 1 2 3; do
	night "$bin/batch" "$C" "night0$k" "0:$CN"
done
night "$bin/batch-counters" "$C" night04 "0:$CN"
trend "$C" night04
summary+=("counters:$code")
echo "-- the rule's puzzles in 0:$CN (FNV-1a 32 of the line divisible by 100):"
python3 - "$CN" <<'EOF'
import sys
n = int(sys.argv[1])
ids = []
with open("data/sudoku17.txt") as f:
    for i, line in enumerate(f):
        if i >= n:
            break
        h = 2166136261
        for c in line.strip().encode():
            h = ((h ^ c) * 16777619) % 2**32
        if h % 100 == 0:
            ids.append("#%d" % i)
print("   %d: %s" % (len(ids), " ".join(ids)))
EOF

echo "-- acknowledging it: batch trend -root $C -ack night04 dlx \"the counterschange build\""
trend "$C" ack -ack night04 dlx "the counterschange build"
summary+=("counters-ack:$code")

echo
echo "== 3. machine change: a plain night in $C whose run.json says another CPU"
night "$bin/batch" "$C" night05 "0:$CN"
m=$C/night05/run.json
was=$(jq -r '.segments[0].machine.cpu' "$m")
jq '.segments[].machine.cpu = "Demo CPU 9000 (edited)"' "$m" >"$m.tmp" && mv "$m.tmp" "$m"
echo "-- night05's CPU: \"$was\" -> \"Demo CPU 9000 (edited)\""
code=0
"$bin/batch" trend -root "$C" >"$C/trend-machine.out" 2>&1 || code=$?
echo "-- trend after night05: exit $code"
grep -E -A1 '^[0-9]+ series|^series ' "$C/trend-machine.out" | grep -v '^--$' | sed 's/^/   /'
summary+=("machine:$code")

want="night01:0 night02:0 night03:0 night04:0 night05:0 night06:0 night07:1 night08:0 night09:0 night10:0"
want+=" ack:0 after-ack:0 counters:1 counters-ack:0 machine:0"
echo
echo "== exit codes: ${summary[*]}"
if [ "${summary[*]}" = "$want" ]; then
	echo "   as expected"
else
	echo "   expected:   $want"
	exit 1
fi
