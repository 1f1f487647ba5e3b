#!/usr/bin/env bash
# trend-false-alarms.sh ROOT [HISTORIES [NIGHTS]]: how often batch trend
# cries wolf. HISTORIES (default 20) histories of NIGHTS (default 10)
# nights each, every night swept by the same plain build (one commit),
# -solvers norvig,dlx,bitboard -range 0:$N -timeout 0, as
# scripts/trend-demo.sh sweeps them; batch trend -root ROOT/hNN after
# each night. Nothing changed, so every alarm is false: the goal is 0.
#
# The nights are interleaved (night 1 of every history, then night 2 of
# every history, ...), so that the nights of a history are minutes apart
# and the machine's drift over the whole run falls within each history,
# as it does between real nights.
#
# It prints one line per trend that exits 1 (the alarm lines of its
# output are kept in ROOT/alarms.txt), then a summary: the nights, the
# trends run, those that exited 1, the new alarms by kind and strategy,
# and the wall time. Exit 0 when no trend exited 1, 1 when some did, 2
# on a failure (a night or a trend that failed).
#
# Environment: N (puzzles a night, default 20000: 2-3 s here),
# BATCH_FLAGS (more flags for every night), TREND_FLAGS (for every
# trend, e.g. "-threshold 10%"), MODE: both (default: sweep each night,
# then trend), sweep (the nights only), or replay (no sweep: trend over
# the nights already in ROOT, after night k naming nights 1 to k, which
# is the series as it was after night k; for detectors built after the
# nights were swept).
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
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
ROOT=$(cd "$1" && pwd)
N=${N:-20000}
MODE=${MODE:-both}
case "$MODE" in
both | sweep | replay) ;;
*)
	echo "$0: MODE=$MODE: want both, sweep or replay" >&2
	exit 2
	;;
esac
read -r -a extra <<<"${BATCH_FLAGS:-}"
read -r -a trendflags <<<"${TREND_FLAGS:-}"
cd "$repo"

bin=$ROOT/bin/batch
go build -o "$bin" ./cmd/batch
start=$(date +%s)
if [ "$MODE" != replay ]; then
	rm -rf "$ROOT"/h[0-9]*
fi
: >"$ROOT/alarms.txt"
trends=0
failing=0
for n in $(seq 1 "$NIGHTS"); do
	for h in $(seq 1 "$HISTORIES"); do
		hist=$(printf '%s/h%02d' "$ROOT" "$h")
		name=$(printf 'night%02d' "$n")
		mkdir -p "$hist"
		if [ "$MODE" != replay ] && ! "$bin" -solvers norvig,dlx,bitboard -range "0:$N" -timeout 0 -quiet "${extra[@]}" \
			-out "$hist/$name" >"$hist/$name.log" 2>&1; then
			echo "$hist/$name failed; its output:" >&2
			cat "$hist/$name.log" >&2
			exit 2
		fi
		[ "$MODE" = sweep ] && continue
		# In replay, the nights up to this one, named: the series as it
		# was after this night.
		runs=()
		if [ "$MODE" = replay ]; then
			for k in $(seq 1 "$n"); do
				runs+=("$(printf '%s/night%02d' "$hist" "$k")")
			done
		fi
		code=0
		"$bin" trend -root "$hist" "${trendflags[@]}" "${runs[@]}" >"$hist/trend-$name.out" 2>"$hist/trend-$name.err" || code=$?
		trends=$((trends + 1))
		case $code in
		0) ;;
		1)
			failing=$((failing + 1))
			echo "$(basename "$hist")/$name: exit 1: $(tail -n 1 "$hist/trend-$name.err")"
			grep -E 'NEW ALARM' "$hist/trend-$name.out" | sed "s|^|$(basename "$hist")/$name: |" >>"$ROOT/alarms.txt" || true
			;;
		*)
			echo "$hist: trend after $name: exit $code" >&2
			cat "$hist/trend-$name.err" >&2
			exit 2
			;;
		esac
	done
	echo "night $n of $NIGHTS done in every history ($(($(date +%s) - start)) s so far)"
done
wall=$(($(date +%s) - start))
if [ "$MODE" = sweep ]; then
	echo "swept $((HISTORIES * NIGHTS)) nights in $wall s; MODE=replay $0 $ROOT $HISTORIES $NIGHTS runs the trends"
	exit 0
fi

echo
what="-range 0:$N"
[ "$MODE" = replay ] && what="nights swept before ($(jq -r .settings.range "$ROOT/h01/night01/run.json" 2>/dev/null || echo '?'))"
echo "== false alarms: $HISTORIES histories x $NIGHTS nights of one build, $what, ${TREND_FLAGS:-default trend flags}, MODE=$MODE"
echo "nights swept:           $((HISTORIES * NIGHTS))"
echo "trends run:             $trends (one after each night)"
echo "trends that exited 1:   $failing"
echo "new alarms:             $(wc -l <"$ROOT/alarms.txt")"
if [ -s "$ROOT/alarms.txt" ]; then
	echo "by kind and strategy:"
	sed -E 's/.*NEW ALARM \[([a-z]+)\]: ([A-Za-z0-9]+).*/\1 \2/' "$ROOT/alarms.txt" | sort | uniq -c | sed 's/^/  /'
fi
echo "wall time:              ${wall} s"
[ "$failing" -eq 0 ]
