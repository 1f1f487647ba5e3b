// tdoku_time times tdoku's solver on each puzzle of a corpus, in
// process, as sudokubatch times a unit: the clock read just before and
// just after the call, less the clock's own cost (the median of many
// back-to-back readings). A first pass over the whole corpus is not
// timed (the solver warms up); the second is, one call a puzzle, so
// that no puzzle is solved twice in a row (the branch predictors would
// learn it).
//
//   tdoku_time first|count2 < corpus > times
//
// first: the first solution (limit 1); count2: count to two solutions
// (limit 2). The corpus has one puzzle a line, 81 cells, '.' or '0' for
// an empty cell (a '0' is turned into '.': tdoku reads '0' as garbage);
// lines of another length or starting with '#' are skipped. Each output
// line is "ns guesses count" for one puzzle, in input order.
//
// Built by scripts/tdoku-bench.sh against tdoku's static library.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tdoku.h"

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int cmp64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "first") && strcmp(argv[1], "count2"))) {
        fprintf(stderr, "usage: tdoku_time first|count2 < corpus > times\n");
        return 2;
    }
    size_t limit = strcmp(argv[1], "first") == 0 ? 1 : 2;
    size_t cap = 1 << 16, n = 0;
    char *puzzles = malloc(cap * 82);
    char line[1024];
    while (fgets(line, sizeof line, stdin)) {
        size_t len = strcspn(line, "\r\n");
        if (len != 81 || line[0] == '#') continue;
        if (n == cap) puzzles = realloc(puzzles, (cap *= 2) * 82);
        for (size_t i = 0; i < 81; i++) puzzles[n * 82 + i] = line[i] == '0' ? '.' : line[i];
        puzzles[n * 82 + 81] = 0;
        n++;
    }
    int64_t d[501];
    for (int i = 0; i < 501; i++) {
        int64_t t0 = now_ns();
        d[i] = now_ns() - t0;
    }
    qsort(d, 501, sizeof d[0], cmp64);
    int64_t overhead = d[250];

    int64_t *ns = malloc(n * sizeof *ns);
    size_t *guesses = malloc(n * sizeof *guesses), *count = malloc(n * sizeof *count);
    char solution[82];
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++) {
            size_t g = 0;
            int64_t t0 = now_ns();
            size_t c = TdokuSolverDpllTriadSimd(puzzles + i * 82, limit, 0, solution, &g);
            int64_t t = now_ns() - t0 - overhead;
            ns[i] = t > 0 ? t : 0;
            guesses[i] = g;
            count[i] = c;
        }
    }
    for (size_t i = 0; i < n; i++) printf("%lld %zu %zu\n", (long long)ns[i], guesses[i], count[i]);
    fprintf(stderr, "tdoku_time: %zu puzzles, %s, clock overhead %lld ns subtracted\n", n, argv[1], (long long)overhead);
    return 0;
}
