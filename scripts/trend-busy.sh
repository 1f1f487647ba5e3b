#!/usr/bin/env bash
# trend-busy.sh ROOT [HISTORIES [NIGHTS]]: batch trend's detectors on a busy
# host. A CPU hog (sh -c 'while :; do :; done') runs on every core the
# whole time, so that other work takes over half of the workers' CPU time
# every night (each night's run.json records the share; the script prints
# the least and the most). Every night is
# `batch -quiet -solvers norvig,dlx,bitboard -range 0:$N -timeout 0
# -max-calls 10000000`, as nightly.sh sweeps.
#
#  a. ROOT/quiet-hNN: HISTORIES (default 20) histories of NIGHTS (default
#     10) nights of one build, interleaved (night 1 of every history, then
#     night 2, ...), batch trend after each night. Nothing changed: every
#     alarm is false; the goal is 0.
#  b. ROOT/slow: NIGHTS nights, nights 7 on by a -tags slowdown build with
#     SUDOKUBATCH_SLOWDOWN=$FACTOR (default 1.25) for bitboard alone, batch
#     trend after each night. Expected: one trend exits 1, after night 7
#     or 8, its alarm naming bitboard and night 6 as the last good one.
#  c. ROOT/once: the nights of b copied, batch trend run once, after the
#     last night. Expected: exit 1, bitboard alarmed.
#
# It prints each part's result and ends with a summary; exit 0 when a, b
# and c are as expected, 1 when not, 2 on a failure (a night or a trend
# that failed). The hogs are ended, by their pids, however it ends.
#
# Environment: N (puzzles a night, default 3000), FACTOR, HOGS (hogs,
# default the CPU count), BATCH_FLAGS (more flags for every night).
# Needs go and jq; runs from the repository.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 3 ]; then
	echo "usage: $0 ROOT [HISTORIES [NIGHTS]]" >&2
	exit 2
fi
HISTORIES=${2:-20}
NIGHTS=${3:-10}
case "$HISTORIES$NIGHTS" in
*[!0-9]*)
	echo "$0: HISTORIES ($HISTORIES) and NIGHTS ($NIGHTS) are counts" >&2
	exit 2
	;;
esac
if [ "$NIGHTS" -lt 9 ]; then
	echo "$0: NIGHTS $NIGHTS: part b needs 9 nights or more (the slowdown from night 7)" >&2
	exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
ROOT=$(cd "$1" && pwd)
N=${N:-3000}
FACTOR=${FACTOR:-1.25}
HOGS=${HOGS:-$(nproc)}
read -r -a extra <<<"${BATCH_FLAGS:-}"
cd "$repo"

bin=$ROOT/bin
go build -o "$bin/batch" ./cmd/batch
go build -tags slowdown -o "$bin/batch-slowdown" ./cmd/batch
rm -rf "$ROOT"/quiet-h* "$ROOT/slow" "$ROOT/once"

hogs=()
stop_hogs() {
	for pid in "${hogs[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM
for _ in $(seq 1 "$HOGS"); do
	sh -c 'while :; do :; done' &
	hogs+=($!)
done
echo "== $HOGS CPU hogs running (pids ${hogs[*]}); load: $(cut -d' ' -f1-3 /proc/loadavg)"

# night BIN HISTORY NAME [ENV...]: one night; a failed night stops the script.
night() {
	local b=$1 hist=$2 name=$3
	shift 3
	mkdir -p "$hist"
	if ! env "$@" "$b" -quiet -solvers norvig,dlx,bitboard -range "0:$N" -timeout 0 -max-calls 10000000 "${extra[@]}" \
		-out "$hist/$name" >"$hist/$name.log" 2>&1; then
		echo "$hist/$name failed; its output:" >&2
		cat "$hist/$name.log" >&2
		exit 2
	fi
}

# trend HISTORY LABEL: batch trend -root HISTORY, its output kept in
# HISTORY/trend-LABEL.out and .err. Sets $code; a failed trend stops the script.
trend() {
	local hist=$1 label=$2
	code=0
	"$bin/batch" trend -root "$hist" >"$hist/trend-$label.out" 2>"$hist/trend-$label.err" || code=$?
	if [ "$code" -gt 1 ]; then
		echo "$hist: trend after $label: exit $code" >&2
		cat "$hist/trend-$label.err" >&2
		exit 2
	fi
}

# share DIR: the other work's share of the workers' CPU time during the
# night in DIR, in percent (run.json's first segment).
share() {
	jq -r '.segments[0] | if .other_cpu_ns then ((.other_cpu_ns / (.duration_ns * ([.workers, .machine.num_cpu] | min))) * 100 | floor) else "?" end' "$1/run.json"
}

start=$(date +%s)
shares=()
echo "== a. $HISTORIES histories x $NIGHTS nights of one build, -range 0:$N, trend after each night"
: >"$ROOT/alarms-a.txt"
trends=0
failing=0
for n in $(seq 1 "$NIGHTS"); do
	for h in $(seq 1 "$HISTORIES"); do
		hist=$(printf '%s/quiet-h%02d' "$ROOT" "$h")
		name=$(printf 'night%02d' "$n")
		night "$bin/batch" "$hist" "$name"
		shares+=("$(share "$hist/$name")")
		trend "$hist" "$name"
		trends=$((trends + 1))
		if [ "$code" -eq 1 ]; then
			failing=$((failing + 1))
			echo "$(basename "$hist")/$name: exit 1: $(tail -n 1 "$hist/trend-$name.err")"
			grep -E 'NEW ALARM' "$hist/trend-$name.out" | sed "s|^|$(basename "$hist")/$name: |" >>"$ROOT/alarms-a.txt" || true
		fi
	done
	echo "night $n of $NIGHTS done in every history ($(($(date +%s) - start)) s so far)"
done
a_alarms=$(grep -c 'NEW ALARM' "$ROOT/alarms-a.txt" || true)

echo "== b. bitboard x$FACTOR from night 7, trend after each night"
slow=$ROOT/slow
b_codes=()
b_alarmed=()
for n in $(seq 1 "$NIGHTS"); do
	name=$(printf 'night%02d' "$n")
	if [ "$n" -lt 7 ]; then
		night "$bin/batch" "$slow" "$name"
	else
		night "$bin/batch-slowdown" "$slow" "$name" SUDOKUBATCH_SLOWDOWN="$FACTOR" SUDOKUBATCH_SLOWDOWN_SOLVERS=bitboard
	fi
	shares+=("$(share "$slow/$name")")
	trend "$slow" "$name"
	b_codes+=("$code")
	if [ "$code" -eq 1 ]; then
		b_alarmed+=("$n")
		echo "-- night $n: exit 1"
		grep -E -A3 'NEW ALARM' "$slow/trend-$name.out" | sed 's/^/   /'
	fi
done
b_ok=0
if [ "${#b_alarmed[@]}" -eq 1 ] && { [ "${b_alarmed[0]}" -eq 7 ] || [ "${b_alarmed[0]}" -eq 8 ]; }; then
	out=$(printf '%s/trend-night%02d.out' "$slow" "${b_alarmed[0]}")
	if grep -q 'NEW ALARM \[[a-z]*\]: bitboard' "$out" && grep -q 'last good night: 6 night06' "$out" &&
		[ "$(grep -c 'NEW ALARM' "$out")" -eq 1 ]; then
		b_ok=1
	fi
fi

echo "== c. the same nights, trend once after night $NIGHTS"
once=$ROOT/once
mkdir -p "$once"
for d in "$slow"/night*/; do
	cp -r "$d" "$once/"
done
trend "$once" "once"
c_code=$code
grep -E -A3 'NEW ALARM' "$once/trend-once.out" | sed 's/^/   /' || true
c_ok=0
if [ "$c_code" -eq 1 ] && grep -q 'NEW ALARM \[[a-z]*\]: bitboard' "$once/trend-once.out"; then
	c_ok=1
fi

wall=$(($(date +%s) - start))
lo=$(printf '%s\n' "${shares[@]}" | grep -v '?' | sort -n | head -n 1)
hi=$(printf '%s\n' "${shares[@]}" | grep -v '?' | sort -n | tail -n 1)
echo
echo "== busy host: $HOGS CPU hogs, -range 0:$N, other work's share of the workers' CPU time ${lo}-${hi}% over $((${#shares[@]})) nights"
echo "a. same-build nights: $((HISTORIES * NIGHTS)) nights, $trends trends, $failing exited 1, $a_alarms new alarms (goal 0)"
if [ -s "$ROOT/alarms-a.txt" ]; then
	sed -E 's/.*NEW ALARM \[([a-z]+)\]: ([A-Za-z0-9]+).*/\1 \2/' "$ROOT/alarms-a.txt" | sort | uniq -c | sed 's/^/   /'
fi
echo "b. bitboard x$FACTOR from night 7: exit codes ${b_codes[*]}; alarmed on night(s) ${b_alarmed[*]:-none} ($([ "$b_ok" -eq 1 ] && echo as expected || echo NOT as expected: once, on night 7 or 8, bitboard, last good night 6))"
echo "c. trend once after night $NIGHTS: exit $c_code ($([ "$c_ok" -eq 1 ] && echo as expected || echo NOT as expected: exit 1 naming bitboard))"
echo "wall time: $wall s"
[ "$failing" -eq 0 ] && [ "$b_ok" -eq 1 ] && [ "$c_ok" -eq 1 ]
