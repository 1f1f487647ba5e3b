#!/bin/sh
# heavy-under-load.sh [N]: runs the heavy suite, SUDOKUBATCH_HEAVY=1 go test
# -count=1 ./... (with -timeout, below), N times in a row (default 5) while a CPU hog
# (sh -c 'while :; do :; done') runs on each core: the tests must pass on a
# machine busy with other work. It prints each pass's time and failed tests,
# then the failures counted, and exits 1 when there was any. The hogs are
# killed by their PIDs when it ends, however it ends. Each pass's output is
# kept in a directory it names.
#
# A failure counted is a test that failed at the top level (its subtests'
# failures are in it), or a package that failed with no test failed (a
# panic, a timeout, a build error).
#
# go test's timeout per package is 30 minutes here (TIMEOUT overrides it):
# beside the hogs, cmd/batch's heavy tests take close to go test's default
# of 10 minutes, and over it when the machine is busy besides.
set -u
n=${1:-5}
case $n in
'' | *[!0-9]*) echo "usage: $0 [N] (N passes, default 5)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.." || exit 2

hogs=""
gotest=""
stop() {
	# go test runs in a process group of its own (setsid): an interrupt to
	# the group ends it, its compilers and its test binaries.
	[ -n "$gotest" ] && kill -INT "-$gotest" 2>/dev/null && wait "$gotest" 2>/dev/null
	for pid in $hogs; do kill "$pid" 2>/dev/null; done
	for pid in $hogs; do wait "$pid" 2>/dev/null; done
	hogs=""
}
trap stop EXIT
trap 'exit 130' INT TERM HUP

cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
i=0
while [ "$i" -lt "$cores" ]; do
	sh -c 'while :; do :; done' &
	hogs="$hogs $!"
	i=$((i + 1))
done
logs=$(mktemp -d "${TMPDIR:-/tmp}/heavy-under-load.XXXXXX") || exit 2
timeout=${TIMEOUT:-30m}
echo "heavy-under-load: $cores CPU hogs (pids$hogs); $n passes of SUDOKUBATCH_HEAVY=1 go test -count=1 -timeout $timeout ./...; logs in $logs"

total=0
pass=1
while [ "$pass" -le "$n" ]; do
	log="$logs/pass-$pass.log"
	start=$(date +%s)
	# In the background, in a process group of its own, so that a signal
	# to this script ends the pass (setsid execs go test: $! is its PID
	# and its group's).
	SUDOKUBATCH_HEAVY=1 setsid go test -count=1 -timeout "$timeout" ./... >"$log" 2>&1 &
	gotest=$!
	wait "$gotest"
	gotest=""
	took=$(($(date +%s) - start))
	# Per package (its output ends with its ok or FAIL line): the tests
	# failed at the top level, or the package when none did.
	failed=$(awk '
		/^--- FAIL: / { tests = tests "  " $3 "\n"; nt++ }
		/^(ok|FAIL|\?)[ \t]/ {
			if ($1 == "FAIL" && nt == 0 && $2 != "") { tests = tests "  " $2 " (package: no test failed)\n" }
			printf "%s", tests; tests = ""; nt = 0
		}
		END { printf "%s", tests }
	' "$log")
	count=$(printf '%s' "$failed" | grep -c .)
	total=$((total + count))
	echo "pass $pass: ${took}s, $count failed"
	[ -n "$failed" ] && printf '%s\n' "$failed"
	pass=$((pass + 1))
done
echo "heavy-under-load: $total failures in $n passes under $cores CPU hogs"
[ "$total" -eq 0 ]
