#!/usr/bin/env bash
# The tool's own cost of a bitboard sweep (issue 39), and how much of it is
# the timing method's re-timing:
#
#   - batch as built from the working tree, and the same code with the
#     re-timing skipped (runAndAmend returns at once: no re-timed solves,
#     no amended results.csv), each `batch -solvers bitboard -workers 1
#     -report=false` over the corpus in a file, PAIRS pairs interleaved
#     (A B A B ...);
#   - per run: the whole-process CPU (user + system, the rusage of the
#     process) and the tool's own cost per unit, that CPU less the rows'
#     `ns` (the in-process solve times), over the rows, as
#     scripts/tdoku-bench.sh counts it;
#   - with PERF=1, where that cost goes: `perf record -F 997 -g` over
#     PAIRS more runs of batch, each sample put in one part (the timed
#     solves, the re-timing's solves, the amend, the repeats, the writer,
#     the reader, the rest of the worker loop, ...), in µs a unit.
#
#   scripts/own-cost.sh [PAIRS [OUT]]     (PAIRS defaults to 10)
#
# Needs python3 (and perf with PERF=1: Debian linux-perf). About 1 s a
# pair on a 2-vCPU machine.
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-10}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
echo "building in $out" >&2
go build -o "$out/batch" ./cmd/batch
# The same code with the re-timing skipped, built from a copy of the tree.
rm -rf "$out/src"
mkdir -p "$out/src"
git ls-files -z | xargs -0 cp --parents -t "$out/src"
sed -i 's/^\tbudget := max(time.Duration(float64(sweep)\*retimeShare), retimeFloor)$/\treturn rt.Stats\n&/' "$out/src/pipeline/retime.go"
grep -q '^	return rt.Stats$' "$out/src/pipeline/retime.go" || { echo "own-cost.sh: pipeline/retime.go changed: the patch that skips the re-timing did not apply" >&2; exit 1; }
(cd "$out/src" && go build -o "$out/batch-noretime" ./cmd/batch)
tr 0 . <data/sudoku17.txt >"$out/corpus.txt"

python3 - "$out" "$pairs" <<'PY'
import csv, os, shutil, statistics as st, subprocess, sys
out, pairs = sys.argv[1], int(sys.argv[2])
bins = {"batch": f"{out}/batch", "without the re-timing": f"{out}/batch-noretime"}
res = {k: [] for k in bins}
for k in range(pairs):
    for name, b in bins.items():
        d = f"{out}/runs/{k}-{os.path.basename(b)}"
        shutil.rmtree(d, ignore_errors=True)
        p = subprocess.Popen([b, "-solvers", "bitboard", "-workers", "1", "-report=false", "-quiet",
                              "-out", f"{d}/run", f"{out}/corpus.txt"], stdout=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        if status:
            sys.exit(f"{b} failed")
        cpu = ru.ru_utime + ru.ru_stime
        with open(f"{d}/run/results.csv") as f:
            rows = list(csv.DictReader(f))
        ns = sum(int(r["ns"]) for r in rows) / 1e9
        res[name].append((cpu, (cpu - ns) / len(rows) * 1e6))
        shutil.rmtree(d)
def span(v, fmt):
    return f"{fmt.format(st.median(v))} [{fmt.format(min(v))}, {fmt.format(max(v))}]"
print(f"{pairs} interleaved pairs: median [min, max]")
print("| build | whole process CPU (s) | own cost a unit (µs) |")
print("|---|---:|---:|")
for name, v in res.items():
    print(f"| {name} | {span([x[0] for x in v], '{:.3f}')} | {span([x[1] for x in v], '{:.2f}')} |")
a, b = res["batch"], res["without the re-timing"]
print("CPU without the re-timing / with it, pair by pair:", span([b[i][0] / a[i][0] for i in range(pairs)], "{:.3f}"))
PY

if [ "${PERF:-}" = 1 ]; then
  for k in $(seq 1 "$pairs"); do
    echo "$out/batch -solvers bitboard -workers 1 -report=false -quiet -out $out/perf/$k/run $out/corpus.txt >/dev/null"
  done >"$out/perf.sh"
  rm -rf "$out/perf"
  perf record -q -F 997 -g -o "$out/perf.data" -- sh "$out/perf.sh" 2>/dev/null
  cpu=$(python3 -c 'import json,glob,statistics as st; print(st.median(json.load(open(p))["cpu_ns"] for p in glob.glob("'"$out"'/perf/*/run/run.json")))')
  perf script -i "$out/perf.data" --comm batch -F comm,ip,sym 2>/dev/null | python3 -c '
import collections, sys
cpu_ns, samples, cur = float(sys.argv[1]), [], []
for line in sys.stdin:
    line = line.rstrip()
    if not line.startswith((" ", "\t")):
        if cur: samples.append(cur)
        cur = []
        continue
    f = line.split(None, 1)
    cur.append(f[1].split("+")[0] if len(f) > 1 else "?")
if cur: samples.append(cur)
def part(s):
    has = lambda k: any(k in f for f in s)
    if has("AmendAt") or has("rundir.(*Dir).Amend"): return "amending results.csv (the re-timed rows)"
    if has("retimer).run"): return "the re-timing: its solves (fillers and units)"
    if has("solveAgain"): return "the repeats of suspects"
    if has("workers).work"):
        if any(f.endswith(").Solve") for f in s): return "the timed solves (the rows ns)"
        if has("solvers.Check"): return "the answer check"
        if has("nanotime") or has("clock_gettime"): return "the clock"
        return "the rest of the worker loop (rows, results, batches)"
    if has("pipeline.write"): return "the writer (encoding rows, write(2))"
    if has("reader).read"): return "the reader (scanning, parsing, validating)"
    if has("runtime.main") or has("rt0_go"): return "start-up and end (init, run directory, run.json)"
    return "the runtime (collector, scheduler, stacks)"
c = collections.Counter(part(s) for s in samples)
print(f"where the CPU goes ({len(samples)} samples, {cpu_ns/1e6:.0f} ms a run in run.json): share, µs a unit")
for k, v in c.most_common():
    print(f"| {k} | {100*v/len(samples):.1f}% | {v/len(samples)*cpu_ns/49151/1e3:.2f} |")
' "$cpu"
fi
echo "files in $out" >&2
