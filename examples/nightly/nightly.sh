#!/bin/sh
# One night of sudokubatch, run from the directory that holds results/
# (see docs/NIGHTLY.md; crontab, batch-nightly.service and .timer, and
# cronjob.yaml beside this file run it):
#
#  1. the deterministic sweep, `batch -quiet -timeout 0 -max-calls 10000000`
#     and any arguments given (e.g. -solvers norvig,dlx,bitboard): a new run
#     directory results/<UTC start>, and results/latest;
#  2. `batch trend`: the night against its series, alarms, trend files and
#     a bisect script per alarm under results/trend/;
#  3. retention: `batch prune -keep $KEEP` (rows of older nights go, their
#     summaries and pages stay; the rows were gzipped after the report).
#
# The binary: $BATCH when set; else, in a checkout of the tool, ./batch,
# built again first with its VCS stamp (go build -buildvcs=true: the nights
# record the commit the binary was built from, whatever directory it runs
# in) when a go command is found (GO, PATH, /usr/local/go/bin/go; when the
# build fails, as under cron without HOME, the ./batch there runs, and
# the log says so); else batch on PATH. Under cron's PATH (/usr/bin:/bin)
# the ./batch built as the README says is found.
#
# Environment: BATCH, the binary; GO, the go command; KEEP, the nights whose
# rows are kept (default 30; the time gate reads the rows of the newest
# night and of its baseline, 7 nights by default).
#
# Exit: 0 ok; 1 a new unacknowledged alarm (trend), a wrong answer or an I/O
# error (the sweep; trend runs all the same); 2 a usage error; 130
# interrupted; 75 another night still running (nothing done).
set -u
keep=${KEEP:-30}
batch=${BATCH:-}
mkdir -p results || exit 1
# Two nights at once would share the cores and skew each other's times:
# the lock is taken first, before the build, which would load the cores
# under the night still running and replace the ./batch it runs trend and
# prune with. (Two processes never write one run directory: its lock
# refuses the second.)
if command -v flock >/dev/null 2>&1; then
	exec 9>results/.nightly.lock
	if ! flock -n 9; then
		echo "nightly: another night is still running (results/.nightly.lock)" >&2
		exit 75
	fi
fi

if [ -z "$batch" ]; then
	if [ -f go.mod ] && [ -d cmd/batch ] && grep -q '^module sudokubatch$' go.mod; then
		go=${GO:-$(command -v go || true)}
		if [ -z "$go" ] && [ -x /usr/local/go/bin/go ]; then
			go=/usr/local/go/bin/go
		fi
		vcs=-buildvcs=true
		[ -e .git ] || vcs=-buildvcs=auto
		if [ -n "$go" ]; then
			if "$go" build "$vcs" -o batch.nightly ./cmd/batch; then
				mv batch.nightly batch
			else
				rm -f batch.nightly
				echo "nightly: $go build failed: this night runs the ./batch built before" >&2
			fi
		fi
	fi
	if [ -x ./batch ]; then
		batch=./batch
	elif command -v batch >/dev/null 2>&1; then
		batch=batch
	else
		echo "nightly: no batch binary: build it in the checkout (go build -buildvcs=true -o batch ./cmd/batch) or set BATCH" >&2
		exit 2
	fi
fi

echo "nightly: sweep, $(date -u '+%Y-%m-%d %H:%M:%S') UTC"
"$batch" -quiet -timeout 0 -max-calls 10000000 "$@"
sweep=$?
case $sweep in
0) ;;
1) echo "nightly: the sweep finished with a wrong answer or an I/O error (exit 1)" >&2 ;;
130) echo "nightly: the sweep was interrupted (exit 130): its last line says how to finish it" >&2 ; exit 130 ;;
*)
	if [ "$sweep" -gt 128 ]; then
		# SIGKILL (the OOM killer, a stop timeout): no line of its own.
		echo "nightly: the sweep was killed (exit $sweep, signal $((sweep - 128))): $batch -resume finishes its run, the newest left running" >&2
	else
		echo "nightly: the sweep exited $sweep" >&2
	fi
	exit "$sweep"
	;;
esac

echo "nightly: trend"
"$batch" trend
trend=$?

echo "nightly: prune -keep $keep"
"$batch" prune -keep "$keep" || echo "nightly: batch prune failed (the night itself is done)" >&2

if [ "$sweep" -eq 1 ] || [ "$trend" -eq 1 ]; then
	exit 1
fi
exit "$trend"
