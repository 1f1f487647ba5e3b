#!/usr/bin/env bash
# bitboard beside tdoku (github.com/t-dillon/tdoku, the fastest published
# Sudoku solver), measured side by side on this machine (issue 18):
#
#   - each solver timed in process around each solve, as sudokubatch times a
#     unit, over the whole corpus after an untimed pass
#     (scripts/tdoku/tdoku_time.c, scripts/tdoku/bbtime), for the first
#     solution and for counting to two solutions; the mean over each side's
#     fastest 99% of puzzles (a preempted solve does not decide it), over all
#     puzzles and over the puzzles where tdoku guesses and where it does not;
#   - the whole process: CPU time (user + system) of `batch -solvers
#     bitboard -workers 1 -report=false` and of tdoku's example `solve 1`
#     over the same file, and batch with its report (each run of batch in a
#     results root of its own, so that no report compares it with an
#     earlier run); the tool's own cost per unit, the CPU time of batch
#     -report=false less the solve times its rows report (the sum of their
#     ns column), over the rows; the wall time of a one-puzzle run of each
#     (start-up); batch's peak memory. batch stops at a puzzle's first
#     solution, and so does `solve 1`; `solve` with no argument counts up to
#     10,000 solutions and then solves each unique puzzle again for its
#     answer, about twice the work, so it is not the process to compare with;
#   - bitboard's search nodes beside tdoku's guesses on the puzzles where
#     either guesses.
#
# The pairs run interleaved (tdoku, bitboard, tdoku, bitboard, ...), so the
# machine's drift falls on both; the ratios (bitboard / tdoku) are printed
# as the median and range over the pairs.
#
#   scripts/tdoku-bench.sh TDOKU_DIR [PAIRS [OUT]]   (PAIRS defaults to 5)
#   ONLY=process scripts/tdoku-bench.sh ...        (the whole processes only)
#   BEFORE=BIN scripts/tdoku-bench.sh ...          (and an earlier batch binary:
#                                                   its whole processes in each
#                                                   pair too, and after / before)
#
# TDOKU_DIR is a checkout of tdoku: `git clone https://github.com/t-dillon/tdoku`
# (its data.zip is not needed and not copied). tdoku is built as its README
# builds it: its library by its BUILD.sh's cmake with the default compiler
# and options (cc, -O3 -march=native), its example with
# `gcc example/solve.c build/libtdoku_static.a -O3 -o solve -lstdc++ -lm`;
# the timer tdoku_time with the same gcc -O3. Needs gcc, g++, cmake,
# python3 and /usr/bin/time (Debian: apt-get install gcc g++ cmake python3
# time). Takes about 2 minutes a pair on a 2-vCPU machine, 10 s with
# ONLY=process.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ ! -f "$1/include/tdoku.h" ]; then
  echo "usage: scripts/tdoku-bench.sh TDOKU_DIR [PAIRS [OUT]]  (TDOKU_DIR: git clone https://github.com/t-dillon/tdoku)" >&2
  exit 2
fi
src=$1
pairs=${2:-5}
out=${3:-$(mktemp -d)}
mkdir -p "$out/tdoku-src"

echo "building tdoku and the timers in $out" >&2
(cd "$src" && tar --exclude=./data.zip --exclude=./.git --exclude=./build -cf - .) | (cd "$out/tdoku-src" && tar xf -)
# As tdoku's BUILD.sh: cmake with its defaults (OPT=O3, ARCH=native) and
# the default compiler; then its README's command for the example.
cmake -S "$out/tdoku-src" -B "$out/tdoku-build" >"$out/build.log"
make -C "$out/tdoku-build" tdoku_static >>"$out/build.log"
lib="$out/tdoku-build/libtdoku_static.a"
gcc "$out/tdoku-src/example/solve.c" "$lib" -O3 -o "$out/solve" -lstdc++ -lm
gcc -I "$out/tdoku-src/include" scripts/tdoku/tdoku_time.c "$lib" -O3 -o "$out/tdoku_time" -lstdc++ -lm
go build -o "$out/bbtime" ./scripts/tdoku/bbtime
go build -o "$out/batch" ./cmd/batch
# tdoku reads '.' for an empty cell (a '0' gives silent garbage); batch reads both.
tr 0 . <data/sudoku17.txt >"$out/corpus.txt"
head -n 1 "$out/corpus.txt" >"$out/one.txt"

# clock FILE CMD...: runs CMD and writes "wall user system peak-KB" to FILE:
# the times from the rusage of the process (microseconds: /usr/bin/time
# prints hundredths of a second, coarse for a 0.2 s process), the peak from
# /usr/bin/time, which starts CMD from a process of about 1 MB (a child's
# peak counts the process it was forked from, here Python's 10 MB).
cat >"$out/clock.py" <<'PY'
import os, subprocess, sys, time
t = time.perf_counter()
p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", sys.argv[1] + ".peak"] + sys.argv[2:])
_, status, ru = os.wait4(p.pid, 0)
wall = time.perf_counter() - t
peak = open(sys.argv[1] + ".peak").read().split()[-1]
with open(sys.argv[1], "w") as f:
    print(f"{wall:.6f} {ru.ru_utime:.6f} {ru.ru_stime:.6f} {peak}", file=f)
sys.exit(os.waitstatus_to_exitcode(status))
PY
clock() { python3 "$out/clock.py" "$@"; }
for k in $(seq 1 "$pairs"); do
  echo "pair $k of $pairs" >&2
  if [ "${ONLY:-}" != process ]; then
    for mode in first count2; do
      "$out/tdoku_time" "$mode" <"$out/corpus.txt" >"$out/t-$mode-$k.txt" 2>/dev/null
      "$out/bbtime" "$mode" <"$out/corpus.txt" >"$out/b-$mode-$k.txt" 2>/dev/null
    done
  fi
  # Each run of batch in a results root of its own: a report compares its
  # run with the previous run of the root.
  clock "$out/pt-$k.txt" "$out/solve" 1 <"$out/corpus.txt" >/dev/null
  clock "$out/pb-$k.txt" "$out/batch" -solvers bitboard -workers 1 -report=false -quiet -out "$out/roots/pb-$k/run" "$out/corpus.txt" >/dev/null
  clock "$out/pt1-$k.txt" "$out/solve" 1 <"$out/corpus.txt" >/dev/null
  clock "$out/pr-$k.txt" "$out/batch" -solvers bitboard -workers 1 -quiet -out "$out/roots/pr-$k/run" "$out/corpus.txt" >/dev/null
  if [ -n "${BEFORE:-}" ]; then
    clock "$out/qb-$k.txt" "$BEFORE" -solvers bitboard -workers 1 -report=false -quiet -out "$out/roots/qb-$k/run" "$out/corpus.txt" >/dev/null
    clock "$out/qr-$k.txt" "$BEFORE" -solvers bitboard -workers 1 -quiet -out "$out/roots/qr-$k/run" "$out/corpus.txt" >/dev/null
  fi
done

# Start-up: a one-puzzle run of each, wall time read by python around the
# process (time's resolution is 10 ms), 20 of each, interleaved.
python3 - "$out" >"$out/startup.txt" <<'PY'
import shutil, statistics as st, subprocess, sys, time
out = sys.argv[1]
def wall(cmd, stdin):
    t = time.perf_counter()
    with open(stdin) as f:
        subprocess.run(cmd, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t
ratios, b, t = [], [], []
for i in range(20):
    t.append(wall([f"{out}/solve", "1"], f"{out}/one.txt"))
    shutil.rmtree(f"{out}/one", ignore_errors=True)
    b.append(wall([f"{out}/batch", "-solvers", "bitboard", "-workers", "1", "-report=false", "-quiet", "-out", f"{out}/one", f"{out}/one.txt"], f"{out}/one.txt"))
    ratios.append(b[-1] / t[-1])
print(st.median(ratios), min(ratios), max(ratios), st.median(b) * 1e3, st.median(t) * 1e3)
PY

python3 - "$out" "$pairs" <<'PY'
import os, statistics as st, sys
out, pairs = sys.argv[1], int(sys.argv[2])

def load(path):
    rows = []
    for line in open(path):
        ns, g, c = line.split()
        rows.append((int(ns), int(g), int(c)))
    return rows

def trimmed_mean(v):
    v = sorted(v)
    return st.mean(v[: max(1, len(v) * 99 // 100)])

def proc(path):
    e, u, s, m = open(path).read().split()[-4:]
    return float(e), float(u) + float(s), int(m)

def span(v, fmt="{:.3f}"):
    return f"{fmt.format(st.median(v))} [{fmt.format(min(v))}, {fmt.format(max(v))}]"

def own_cost(k, run="pb"):
    """batch -report=false's CPU time less its rows' solve times, over the rows, in µs."""
    import csv
    _, cpu, _ = proc(f"{out}/{run}-{k}.txt")
    with open(f"{out}/roots/{run}-{k}/run/results.csv", newline="") as f:
        ns = [int(r["ns"]) for r in csv.DictReader(f)]
    return (cpu - sum(ns) / 1e9) / len(ns) * 1e6, sum(ns) / len(ns) / 1e3

ratios, rates = {}, {"bitboard no-guess": [], "tdoku no-guess": []}
only_process = os.environ.get("ONLY") == "process"
for k in range(1, pairs + 1):
    if only_process:
        break
    for mode in ["first", "count2"]:
        t, b = load(f"{out}/t-{mode}-{k}.txt"), load(f"{out}/b-{mode}-{k}.txt")
        assert len(t) == len(b), (len(t), len(b))
        guess = [i for i in range(len(t)) if t[i][1] > 0]
        noguess = [i for i in range(len(t)) if t[i][1] == 0]
        for name, idx in [("all", range(len(t))), ("tdoku guesses", guess), ("tdoku does not guess", noguess)]:
            tm = trimmed_mean([t[i][0] for i in idx])
            bm = trimmed_mean([b[i][0] for i in idx])
            ratios.setdefault((mode, name), []).append(bm / tm)
            ratios.setdefault((mode, name, "ns"), []).append((bm, tm))
        if mode == "first":
            rates["bitboard no-guess"].append(sum(1 for r in b if r[1] == 0) / len(b))
            rates["tdoku no-guess"].append(sum(1 for r in t if r[1] == 0) / len(t))
            if any(b[i][2] != 1 for i in range(len(b))) or any(t[i][2] != 1 for i in range(len(t))):
                print(f"pair {k}: a puzzle not solved by one side", file=sys.stderr)

print(f"bitboard / tdoku, {pairs} interleaved pairs: median [min, max] of the pairs' ratios")
if not only_process:
    print(f"(mean time per puzzle over each side's fastest 99%; subsets by tdoku's guesses)")
print(f"\n| measure | ratio | bitboard, tdoku (µs, median pair) |")
print(f"|---|---:|---|")
for mode in [] if only_process else ["first", "count2"]:
    for name in ["all", "tdoku guesses", "tdoku does not guess"]:
        v = ratios[(mode, name)]
        ns = sorted(ratios[(mode, name, "ns")], key=lambda x: x[0] / x[1])[len(v) // 2]
        label = {"first": "first solution", "count2": "count to 2"}[mode]
        print(f"| {label}, {name} | {span(v)} | {ns[0]/1000:.3f}, {ns[1]/1000:.3f} |")
for name, v in rates.items():
    if v:
        print(f"| {name} | {span([x*100 for x in v], '{:.1f}%')} | |")

cpu, cpur, mem, memr, cpub, cput, cpurb = [], [], [], [], [], [], []
for k in range(1, pairs + 1):
    _, tc, tm = proc(f"{out}/pt-{k}.txt")
    _, tc1, _ = proc(f"{out}/pt1-{k}.txt")
    _, bc, bm = proc(f"{out}/pb-{k}.txt")
    _, rc, rm = proc(f"{out}/pr-{k}.txt")
    cpu.append(bc / tc)
    cpur.append(rc / tc1)
    cpub.append(bc)
    cput.append(tc)
    cpurb.append(rc)
    mem.append(bm / 1024)
    memr.append(rm / 1024)
own = [own_cost(k) for k in range(1, pairs + 1)]
print(f"| whole process CPU, batch -report=false / solve 1 | {span(cpu)} | batch {span(cpub)} s, solve 1 {span(cput)} s |")
print(f"| whole process CPU, batch with the report / solve 1 | {span(cpur)} | batch {span(cpurb)} s |")
print(f"| the tool's own cost per unit: CPU less the rows' ns, over the rows (µs) | {span([o[0] for o in own], '{:.2f}')} | the rows' mean ns {span([o[1] for o in own], '{:.2f}')} µs |")
sm, smin, smax, sb, stt = map(float, open(f"{out}/startup.txt").read().split())
print(f"| start-up: a one-puzzle run, wall (20 interleaved) | {sm:.2f} [{smin:.2f}, {smax:.2f}] | {sb:.2f} ms, {stt:.2f} ms (medians) |")
print(f"| peak memory of the bitboard sweep, MB | {span(mem, '{:.1f}')} | tdoku's solve 1: {proc(f'{out}/pt-1.txt')[2]/1024:.1f} MB |")
print(f"| peak memory with the report, MB | {span(memr, '{:.1f}')} | |")

if os.path.exists(f"{out}/qb-1.txt"):
    # BEFORE: the earlier binary's runs, interleaved with these.
    qb = [proc(f"{out}/qb-{k}.txt") for k in range(1, pairs + 1)]
    qr = [proc(f"{out}/qr-{k}.txt") for k in range(1, pairs + 1)]
    qown = [own_cost(k, "qb")[0] for k in range(1, pairs + 1)]
    print(f"\nagainst BEFORE ({os.environ.get('BEFORE', 'the earlier binary')}), pair by pair: after / before")
    print(f"| measure | before | after / before |")
    print(f"|---|---:|---:|")
    print(f"| whole process CPU, -report=false (s) | {span([q[1] for q in qb])} | {span([a / q[1] for a, q in zip(cpub, qb)])} |")
    print(f"| the same / solve 1 | {span([q[1] / t for q, t in zip(qb, cput)])} | |")
    print(f"| whole process CPU, with the report (s) | {span([q[1] for q in qr])} | {span([a / q[1] for a, q in zip(cpurb, qr)])} |")
    print(f"| the tool's own cost per unit (µs) | {span(qown, '{:.2f}')} | {span([o[0] / q for o, q in zip(own, qown)])} |")
    print(f"| peak memory of the bitboard sweep, MB | {span([q[2] / 1024 for q in qb], '{:.1f}')} | {span([a / (q[2] / 1024) for a, q in zip(mem, qb)])} |")

# Search: bitboard's nodes and guesses beside tdoku's guesses (last pair).
if only_process:
    print(f"\nfiles in {out}")
    sys.exit(0)
t, b = load(f"{out}/t-first-{pairs}.txt"), load(f"{out}/b-first-{pairs}.txt")
either = [i for i in range(len(t)) if t[i][1] > 0 or b[i][1] > 0]
more = sorted(either, key=lambda i: b[i][1] - t[i][1], reverse=True)
print(f"\nguesses on the {len(either)} puzzles where either guesses: bitboard {st.mean(b[i][1] for i in either):.2f}, "
      f"tdoku {st.mean(t[i][1] for i in either):.2f} a puzzle; bitboard guesses more on "
      f"{sum(1 for i in either if b[i][1] > t[i][1])}, fewer on {sum(1 for i in either if b[i][1] < t[i][1])}; "
      f"it guesses where tdoku does not on {sum(1 for i in either if b[i][1] > 0 and t[i][1] == 0)}")
print("largest differences (line: bitboard guesses, tdoku guesses):",
      ", ".join(f"{i+1}: {b[i][1]}, {t[i][1]}" for i in more[:10]))
print(f"\nfiles in {out}")
PY
