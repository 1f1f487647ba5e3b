#!/usr/bin/env python3
"""A Sudoku solver for `batch -ext` (docs/PROTOCOL.md), grids of side 4, 9 and 16:
    batch -solvers bitboard,py -ext 'py=python3 examples/python/solver.py'
Candidates are bit masks (the values a cell's row, column and box lack). A search
node fills naked singles (a cell with one candidate) and hidden singles (a value
with one place left in a unit) until none is left, then tries each candidate of
the cell with the fewest. calls: search nodes (calls of Search.run), a request's
max_calls=M stopping the search before call M+1 (answer limit); guesses: values
tried at cells with two or more candidates; ns: time.perf_counter_ns around
setting up and searching one grid."""
import sys, time

SYMBOLS = "123456789ABCDEFG"

def tables(side):
    """Each cell's units (row, column, box: indexes of 3*side) and each unit's cells."""
    box = {4: 2, 9: 3, 16: 4}[side]
    unit = [(i // side, side + i % side, 2 * side + i // side // box * box + i % side // box) for i in range(side * side)]
    return unit, [[i for i, us in enumerate(unit) if u in us] for u in range(3 * side)]

TABLES = {side: tables(side) for side in (4, 9, 16)}  # built before the handshake, outside any ns

class Search:
    def __init__(self, grid, side, max_calls=0):
        self.unit, self.members = TABLES[side]
        self.full, self.calls, self.guesses, self.solution = (1 << side) - 1, 0, 0, None
        self.max_calls, self.limited = max_calls, False
        self.used, self.cells = [0] * (3 * side), [0] * (side * side)  # values held by each unit, each cell
        self.ok = all(not v or self.place(i, 1 << (v - 1), []) for i, v in enumerate(grid))

    def place(self, i, bit, trail):
        """Puts bit's value in cell i unless a peer holds it; False when it cannot."""
        r, c, b = self.unit[i]
        if self.cells[i] or (self.used[r] | self.used[c] | self.used[b]) & bit:
            return self.cells[i] == bit.bit_length()
        self.cells[i] = bit.bit_length()
        self.used[r], self.used[c], self.used[b] = self.used[r] | bit, self.used[c] | bit, self.used[b] | bit
        trail.append(i)
        return True

    def undo(self, trail):
        for i in trail:
            for u in self.unit[i]:
                self.used[u] ^= 1 << (self.cells[i] - 1)
            self.cells[i] = 0

    def run(self, empty, limit):
        """Returns the number of solutions below this node, at most limit; stops (limited)
        rather than make call max_calls+1."""
        if self.max_calls and self.calls == self.max_calls:
            self.limited = True
            return 0
        self.calls += 1
        used, unit, cells, filled, progress = self.used, self.unit, self.cells, [], True
        try:
            while progress:
                cand, progress = {}, False
                for i in empty:
                    if not cells[i]:  # (a hidden single of the last pass is not)
                        r, c, b = unit[i]
                        m = self.full & ~(used[r] | used[c] | used[b])
                        if not m:
                            return 0
                        if m & (m - 1):
                            cand[i] = m
                        else:
                            progress = self.place(i, m, filled)
                empty = list(cand)
                for u, members in enumerate(self.members if not progress else ()):  # hidden singles
                    once = twice = 0
                    for m in (cand.get(i, 0) for i in members):
                        once, twice = once | m, twice | once & m
                    if (once | used[u]) != self.full:
                        return 0
                    for i in members:
                        h = cand.get(i, 0) & ~twice
                        if h and (h & (h - 1) or not self.place(i, h, filled)):
                            return 0
                        progress = progress or h
            if not empty:
                self.solution = self.solution or list(cells)
                return 1
            best = min(empty, key=lambda i: cand[i].bit_count())
            m, rest, found = cand[best], [i for i in empty if i != best], 0
            while m and found < limit and not self.limited:
                bit, m = m & -m, m & (m - 1)
                self.guesses += 1
                self.place(best, bit, filled)
                found += self.run(rest, limit - found)
                self.undo([filled.pop()])
            return found
        finally:
            self.undo(filled)

def answer(n, verb, pid, text, *options):
    """Answers the request "N solve|count ID GRID [max_calls=M]": the answer starts with N."""
    side = {16: 4, 81: 9, 256: 16}.get(len(text))
    if verb not in ("solve", "count") or side is None or any(ch not in "0." + SYMBOLS[:side] for ch in text):
        return f"{n} error not a solve or count request of a grid of side 4, 9 or 16: {verb} {text[:40]}"
    max_calls = next((int(o[10:]) for o in options if o.startswith("max_calls=") and o[10:].isdigit()), 0)
    start = time.perf_counter_ns()
    s = Search([0 if ch in "0." else SYMBOLS.index(ch) + 1 for ch in text], side, max_calls)
    found = s.run([i for i, v in enumerate(s.cells) if not v], 1 if verb == "solve" else 2) if s.ok else 0
    stats = f"calls={s.calls} guesses={s.guesses} ns={time.perf_counter_ns() - start}"
    grid = "".join(SYMBOLS[v - 1] for v in s.solution) + " " if s.solution else ""
    if s.limited and (verb == "count" or not found):
        return f"{n} limit {stats}"
    kind = f"count {found}" if verb == "count" else "solved" if found else "unsolvable"
    return f"{n} {kind} {grid}{stats}"

if __name__ == "__main__":
    if sys.stdin.readline().split() != ["sudokubatch", "2"]:
        sys.exit("pysolver: expected the handshake 'sudokubatch 2' (protocol 2)")
    print("solver pysolver 1.0 count calls guesses ns sizes=4,9,16", flush=True)
    for f in map(str.split, sys.stdin):
        if f:
            print(answer(*f) if len(f) >= 4 else f"{f[0]} error unknown request: {' '.join(f)[:40]}", flush=True)
