#!/usr/bin/env python3
"""Times external solvers (docs/PROTOCOL.md) outside batch, from the repository root.

  scripts/ext-times.py handshake N 'COMMAND' ...   start, write "sudokubatch 2", read the
      answer: the wall time of each, N times, the commands interleaved; medians [range].
  scripts/ext-times.py roundtrip N 'COMMAND'       the first N puzzles of data/sudoku17.txt
      solved by one process: each request's round trip (before the write to after the
      answer is read) beside the ns the program reports; medians.
COMMAND is split on spaces (no quoting); it runs without a shell.
"""
import statistics as st, subprocess, sys, time


def start(cmd):
    t = time.perf_counter_ns()
    p = subprocess.Popen(cmd.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write("sudokubatch 2\n")
    p.stdin.flush()
    hello = p.stdout.readline()
    if not hello.startswith("solver "):
        sys.exit(f"{cmd}: handshake answered {hello!r}")
    return p, time.perf_counter_ns() - t


def handshake(n, cmds):
    times = {c: [] for c in cmds}
    for _ in range(n):
        for c in cmds:
            p, ns = start(c)
            times[c].append(ns / 1e6)
            p.stdin.close()
            p.wait()
    for c, v in times.items():
        print(f"{c}: handshake median {st.median(v):.1f} ms [{min(v):.1f}, {max(v):.1f}] over {n}")


def roundtrip(n, cmd):
    p, _ = start(cmd)
    trip, own = [], []
    with open("data/sudoku17.txt") as corpus:
        for i, line in zip(range(n), corpus):
            t = time.perf_counter_ns()
            p.stdin.write(f"{i + 1} solve {i} {line.strip()}\n")
            p.stdin.flush()
            answer = p.stdout.readline()
            trip.append(time.perf_counter_ns() - t)
            own.append(int(answer.split("ns=")[1].split()[0]))
    p.stdin.close()
    p.wait()
    print(f"{cmd}: {n} puzzles, round trip median {st.median(trip) / 1e3:.1f} µs, its own ns median "
          f"{st.median(own) / 1e3:.1f} µs, the difference's median {st.median(a - b for a, b in zip(trip, own)) / 1e3:.1f} µs")


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[1] not in ("handshake", "roundtrip"):
        sys.exit(__doc__)
    if sys.argv[1] == "handshake":
        handshake(int(sys.argv[2]), sys.argv[3:])
    else:
        roundtrip(int(sys.argv[2]), sys.argv[3])
